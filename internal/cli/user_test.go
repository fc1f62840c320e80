package cli

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"svc/internal/store/sqlite"
	"svc/internal/users"
)

func TestUserCommands(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", "Acme"); code != 0 {
		t.Fatalf("account create: %s", errOut)
	}
	code, out, errOut := runCLI(t, dir, "a long enough password\nnext line is not read\n", "user", "add", "--account", "1",
		"--email", "Owner@Acme.example", "--password-stdin")
	if code != 0 {
		t.Fatalf("user add: %d %s", code, errOut)
	}
	if m := decodeOne(t, out); m["user_id"] != 1.0 || len(m) != 1 {
		t.Fatalf("user add with a password: %v", m)
	}
	code, out, errOut = runCLI(t, dir, "", "user", "add", "--account", "1", "--email", "agent@acme.example", "--role", "agent")
	if code != 0 {
		t.Fatalf("user add (invite): %d %s", code, errOut)
	}
	m := decodeOne(t, out)
	invite, _ := m["invite_url"].(string)
	if m["user_id"] != 2.0 || !strings.HasPrefix(invite, "http://127.0.0.1:8080/dashboard/invite/") ||
		len(strings.TrimPrefix(invite, "http://127.0.0.1:8080/dashboard/invite/")) != 43 {
		t.Fatalf("user add without a password: %v", m)
	}

	// The owner signs in (as the dashboard would, beside the CLI).
	st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := users.New(users.Deps{Store: st})
	if _, err := svc.SignIn(context.Background(), "owner@acme.example", "a long enough password", "", ""); err != nil {
		t.Fatalf("the CLI's password does not sign in: %v", err)
	}
	agent, err := svc.RedeemLink(context.Background(), strings.TrimPrefix(invite, "http://127.0.0.1:8080/dashboard/invite/"),
		"the agent's password")
	if err != nil {
		t.Fatalf("the invite link does not work: %v", err)
	}
	session, err := svc.SignIn(context.Background(), "agent@acme.example", "the agent's password", "", "")
	if err != nil {
		t.Fatal(err)
	}

	code, out, _ = runCLI(t, dir, "", "user", "list", "--account", "1")
	if code != 0 {
		t.Fatalf("user list: %d", code)
	}
	list := decodeOne(t, out)["users"].([]any)
	if len(list) != 2 {
		t.Fatalf("user list: %v", list)
	}
	owner, second := list[0].(map[string]any), list[1].(map[string]any)
	if owner["user_id"] != 1.0 || owner["email"] != "owner@acme.example" || owner["role"] != "owner" ||
		second["email"] != "agent@acme.example" || second["role"] != "agent" {
		t.Fatalf("user list: %v", list)
	}
	for _, u := range []map[string]any{owner, second} {
		created, err := time.Parse(time.RFC3339, u["created_at"].(string))
		signIn, _ := u["last_sign_in_at"].(string)
		if _, perr := time.Parse(time.RFC3339, signIn); err != nil || perr != nil || !strings.HasSuffix(signIn, "Z") ||
			created.Location() != time.UTC {
			t.Fatalf("times of %v", u)
		}
	}
	if _, ok := second["last_sign_in_at"]; !ok {
		t.Fatal("last_sign_in_at missing")
	}

	code, out, _ = runCLI(t, dir, "", "user", "remove", "--account", "1", "--user", "2")
	if m := decodeOne(t, out); code != 0 || m["removed"] != true {
		t.Fatalf("user remove: %d %v", code, m)
	}
	// The removed agent's browser is signed out at once.
	if _, err := svc.Session(context.Background(), session.SessionID); !errors.Is(err, users.ErrNoSession) {
		t.Fatalf("session of a removed user: %v", err)
	}
	code, out, _ = runCLI(t, dir, "", "user", "list", "--account", "1")
	if list := decodeOne(t, out)["users"].([]any); code != 0 || len(list) != 1 {
		t.Fatalf("after remove: %v", list)
	}
	_ = agent
}

func TestUserListNeverSignedIn(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	if code, _, errOut := runCLI(t, dir, "", "user", "add", "--account", "1", "--email", "new@acme.example"); code != 0 {
		t.Fatal(errOut)
	}
	_, out, _ := runCLI(t, dir, "", "user", "list", "--account", "1")
	if !strings.Contains(out, `"last_sign_in_at":null`) {
		t.Fatalf("a user who never signed in: %s", out)
	}
	// An account without users lists none, as an empty array.
	runCLI(t, dir, "", "account", "create", "--name", "Empty")
	if _, out, _ := runCLI(t, dir, "", "user", "list", "--account", "2"); strings.TrimSpace(out) != `{"users":[]}` {
		t.Fatalf("empty list: %s", out)
	}
}

func TestUserCommandErrors(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	if code, _, errOut := runCLI(t, dir, "a long enough password", "user", "add", "--account", "1", "--email",
		"owner@acme.example", "--password-stdin"); code != 0 {
		t.Fatal(errOut)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		why   string
	}{
		{"", []string{"user", "add", "--email", "x@acme.example"}, "--account"},
		{"", []string{"user", "add", "--account", "9", "--email", "x@acme.example"}, "9"},
		{"", []string{"user", "add", "--account", "1"}, "--email"},
		{"", []string{"user", "add", "--account", "1", "--email", "not-an-address"}, "e-mail"},
		{"", []string{"user", "add", "--account", "1", "--email", "OWNER@acme.example"}, "already has a user with this e-mail"},
		{"", []string{"user", "add", "--account", "1", "--email", "x@acme.example", "--role", "admin"}, "owner or agent"},
		{"", []string{"user", "add", "--account", "1", "--email", "x@acme.example", "--password-stdin"}, "stdin"},
		{"short\n", []string{"user", "add", "--account", "1", "--email", "x@acme.example", "--password-stdin"}, "too short"},
		{"", []string{"user", "add", "--account", "1", "--email", "x@acme.example", "extra"}, "extra"},
		{"", []string{"user", "list"}, "--account"},
		{"", []string{"user", "list", "--account", "9"}, "9"},
		{"", []string{"user", "remove", "--account", "1"}, "--user"},
		{"", []string{"user", "remove", "--account", "1", "--user", "99"}, "user"},
		{"", []string{"user", "remove", "--account", "9", "--user", "1"}, "9"},
		{"", []string{"user", "remove", "--account", "1", "--user", "1"}, "only owner"},
		{"", []string{"user", "rename"}, "rename"},
	} {
		code, out, errOut := runCLI(t, dir, tc.stdin, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.why) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and a one-line reason with %q", tc.args, code, out, errOut, tc.why)
		}
	}
	// Nothing of the refused commands was stored.
	_, out, _ := runCLI(t, dir, "", "user", "list", "--account", "1")
	if list := decodeOne(t, out)["users"].([]any); len(list) != 1 {
		t.Fatalf("users after refused commands: %v", list)
	}
}

// The invite link `svc user add` prints and mails opens on the server that runs on the data:
// without SVC_PUBLIC_URL it was built from SVC_ADDR's default, port 8080, while the server
// listened on the address it was started with. With no server running it keeps that guess
// and says on stderr that SVC_PUBLIC_URL is needed; SVC_PUBLIC_URL always wins.
func TestUserAddInviteLinkUsesTheServingAddress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", "Acme"); code != 0 {
		t.Fatalf("account create: %s", errOut)
	}
	invite := func(email string, env map[string]string) (string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		e := testEnv(dir, "", &out, &errb)
		e.Getenv = func(k string) string {
			if k == "SVC_DATA" {
				return dir
			}
			return env[k]
		}
		if code := Run(context.Background(), []string{"user", "add", "--account", "1", "--email", email}, e); code != 0 {
			t.Fatalf("user add %s: exit %d: %s", email, code, errb.String())
		}
		link, _ := decodeOne(t, out.String())["invite_url"].(string)
		return link, errb.String()
	}
	mailed := func(link string) {
		t.Helper()
		st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		ns, err := st.Notices(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ns {
			if strings.Contains(n.Payload, `"url":"`+link+`"`) {
				return
			}
		}
		t.Errorf("no queued mail carries %s", link)
	}

	link, errOut := invite("nobody-serving@acme.example", nil)
	if !strings.HasPrefix(link, "http://127.0.0.1:8080/dashboard/invite/") || !strings.Contains(errOut, "svc: user add: SVC_PUBLIC_URL is not set") {
		t.Errorf("no server: link %q, stderr %q; want the SVC_ADDR guess and a line naming SVC_PUBLIC_URL", link, errOut)
	}

	srv := startServer(t, dir, "serve") // on a free port, not 8080
	defer srv.stop(t)
	link, errOut = invite("while-serving@acme.example", nil)
	if !strings.HasPrefix(link, srv.base+"/dashboard/invite/") || strings.Contains(errOut, "SVC_PUBLIC_URL") {
		t.Errorf("while serving at %s: link %q, stderr %q", srv.base, link, errOut)
	}
	mailed(link)
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the invite link answers %d on the server", resp.StatusCode)
	}

	link, errOut = invite("public@acme.example", map[string]string{"SVC_PUBLIC_URL": "https://svc.example.com/"})
	if !strings.HasPrefix(link, "https://svc.example.com/dashboard/invite/") || strings.Contains(errOut, "SVC_PUBLIC_URL") {
		t.Errorf("with SVC_PUBLIC_URL: link %q, stderr %q", link, errOut)
	}
}
