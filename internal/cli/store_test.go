package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// `svc store copy` prints one JSON object with the counts and "verified":true, and refuses a
// missing flag, a non-empty target and a source without a database with exit 2 and one line.
func TestStoreCopyCommand(t *testing.T) {
	t.Parallel()
	src, dst := t.TempDir(), t.TempDir()+"/copy"
	st, err := sqlite.Open(context.Background(), src, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewAccount(t, st, "Shop", 2_500_000)
	st.Close()
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, testEnv(t.TempDir(), "", &out, &errb))
		return code, out.String(), errb.String()
	}

	code, out, errs := run("store", "copy", "--from", src, "--to", dst)
	if code != 0 {
		t.Fatalf("copy: exit %d: %s", code, errs)
	}
	var res struct {
		From, To string
		Tables   map[string]int64
		Ledger   int64 `json:"ledger_total_micro"`
		Verified bool
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("output %q: %v", out, err)
	}
	if !res.Verified || res.Tables["accounts"] != 1 || res.Ledger != 2_500_000 || res.From != src || res.To != dst {
		t.Errorf("output %s", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"store", "copy", "--from", src}, "--to"},
		{[]string{"store", "copy", "--from", src, "--to", dst}, "table accounts holds 1 rows"},
		{[]string{"store", "copy", "--from", src, "--to", src}, "same store"},
		{[]string{"store", "copy", "--from", t.TempDir(), "--to", t.TempDir()}, "no svc database"},
		{[]string{"store", "copy", "--from", "mysql://db/svc", "--to", dst}, "postgres://"},
	} {
		code, out, errs := run(tc.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}

	// A data directory a server is serving is not a target.
	served := t.TempDir()
	release, err := sqlite.LockServe(served)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = run("store", "copy", "--from", src, "--to", served)
	release()
	if code != 2 || out != "" || !strings.Contains(errs, "another svc serve") {
		t.Errorf("into a served directory: exit %d, %q %q", code, out, errs)
	}

	// Into PostgreSQL, and the URL printed as given (this one has no password to hide).
	pg := pgSchemaURL(t)
	code, out, errs = run("store", "copy", "--from", dst, "--to", pg)
	res.To, res.Verified = "", false
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || !res.Verified || res.To != pg ||
		res.Tables["accounts"] != 1 {
		t.Errorf("copy into PostgreSQL: exit %d, %s %s", code, out, errs)
	}

	// A password in the URL (the test server trusts local connections and ignores it) is
	// printed as xxxxx, in the output and in a refusal.
	u, err := url.Parse(pgSchemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "s3cret-pw")
	code, out, errs = run("store", "copy", "--from", dst, "--to", u.String())
	if code != 0 || strings.Contains(out+errs, "s3cret-pw") || !strings.Contains(out, "xxxxx") {
		t.Errorf("copy into a URL with a password: exit %d, %s %s", code, out, errs)
	}
	code, out, errs = run("store", "copy", "--from", dst, "--to", u.String())
	if code != 2 || strings.Contains(out+errs, "s3cret-pw") {
		t.Errorf("refusal with a password in the URL: exit %d, %s %s", code, out, errs)
	}
}

// The API answers the same after a round trip: `svc demo` on a data directory answers a
// question, `svc store copy` moves everything to PostgreSQL and back to a new directory, and
// `svc serve` on each copy accepts the demo's key and shows the same conversation; the same
// question then gets the same reply.
func TestStoreCopyAPIAnswersTheSame(t *testing.T) {
	t.Parallel()
	pg := pgSchemaURL(t)
	dirA, dirB := t.TempDir(), t.TempDir()+"/b"
	demo := startServer(t, dirA, "demo")
	var seeded struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(demo.stdout.Bytes(), &seeded); err != nil || seeded.APIKey == "" {
		t.Fatalf("demo output %q: %v", demo.stdout.String(), err)
	}
	call := func(base, path string, form url.Values) map[string]any {
		t.Helper()
		method, body, target := http.MethodPost, strings.NewReader(form.Encode()), base+path
		if strings.HasSuffix(path, "/sync") {
			method, body, target = http.MethodGet, strings.NewReader(""), base+path+"?"+form.Encode()
		}
		req, err := http.NewRequest(method, target, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+seeded.APIKey)
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env["success"] != true {
			t.Fatalf("%s %s: %d %v %v", base, path, resp.StatusCode, env, err)
		}
		return env
	}
	question := url.Values{"message": {"Do you have a store in Istanbul?"}}
	first := call(demo.base, "/api/v1/chat/send", question)
	want := call(demo.base, "/api/v1/chat/sync", url.Values{"sinceId": {"0"}})
	demo.stop(t)

	serveOn := func(dir, dbURL string) *running {
		return startServerEnv(t, func(r *running) Env {
			e := testEnv(dir, "", &r.stdout, &r.stderr)
			e.Getenv = func(k string) string {
				switch k {
				case "SVC_DATA":
					return dir
				case "SVC_DATABASE_URL":
					return dbURL
				}
				return ""
			}
			return e
		})
	}
	for _, step := range []struct{ from, to, serveDir, serveURL string }{
		{dirA, pg, t.TempDir(), pg},
		{pg, dirB, dirB, ""},
	} {
		code, out, errs := runCLI(t, t.TempDir(), "", "store", "copy", "--from", step.from, "--to", step.to)
		if code != 0 || !strings.Contains(out, `"verified":true`) {
			t.Fatalf("copy %s → %s: exit %d %s %s", step.from, step.to, code, out, errs)
		}
		srv := serveOn(step.serveDir, step.serveURL)
		if got := call(srv.base, "/api/v1/chat/sync", url.Values{"sinceId": {"0"}}); !reflect.DeepEqual(got, want) {
			t.Errorf("sync on the copy in %s:\n%v\nwant\n%v", step.to, got, want)
		}
		again := call(srv.base, "/api/v1/chat/send", question)
		if a, b := reply(again), reply(first); a == "" || a != b {
			t.Errorf("the same question on the copy in %s: %q, first %q", step.to, a, b)
		}
		// The next copy must carry this turn too.
		want = call(srv.base, "/api/v1/chat/sync", url.Values{"sinceId": {"0"}})
		srv.stop(t)
	}
}

// reply is the text of the assistant's message in a send's answer.
func reply(env map[string]any) string {
	data, _ := env["data"].(map[string]any)
	msgs, _ := data["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, _ := msgs[i].(map[string]any); m["role"] == "assistant" {
			s, _ := m["body"].(string)
			return s
		}
	}
	return ""
}
