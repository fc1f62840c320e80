package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"svc/internal/store"
)

var inviteLinkRE = regexp.MustCompile(`/dashboard/invite/[A-Za-z0-9_-]+`)

// teamUserID finds a user's id by e-mail.
func (h *harness) teamUserID(accountID int64, email string) string {
	h.t.Helper()
	us, err := h.users.ListUsers(context.Background(), accountID)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, u := range us {
		if u.Email == email {
			return itoa(int(u.ID))
		}
	}
	h.t.Fatalf("no user %s", email)
	return ""
}

func TestTeamInviteShowsTheLinkOnceAndItSetsAPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)

	p := b.get("/dashboard/team")
	if p.Status != http.StatusOK {
		t.Fatalf("team: %d", p.Status)
	}
	mustContain(t, p.Body, email, `<th scope="col">`, `<th scope="row">`, `action="/dashboard/team/users"`, `<label for="t-email">`)

	p = b.post("/dashboard/team/users", url.Values{"email": {"New.Agent@Example.test"}, "role": {"agent"}})
	if p.Status != http.StatusOK {
		t.Fatalf("invite: %d %s", p.Status, p.Body)
	}
	link := inviteLinkRE.FindString(p.Body)
	if link == "" {
		t.Fatal("the invite link is not shown")
	}
	mustContain(t, p.Body, "new.agent@example.test", "invited", `data-copy="#invite-link"`)
	again := b.get("/dashboard/team")
	if strings.Contains(again.Body, link) {
		t.Error("the invite link is shown a second time")
	}
	// The invite mail is queued too.
	notices, err := h.st.Notices(context.Background(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	queued := false
	for _, n := range notices {
		queued = queued || n.Kind == store.NoticeUserInvite && strings.Contains(n.Payload, link)
	}
	if !queued {
		t.Error("no invite mail is queued")
	}

	// A new link can be sent while no password is set.
	id := h.teamUserID(a.ID, "new.agent@example.test")
	p = b.post("/dashboard/team/users/"+id+"/invite", url.Values{})
	link2 := inviteLinkRE.FindString(p.Body)
	if p.Status != http.StatusOK || link2 == "" || link2 == link {
		t.Fatalf("new invite link: %d %q", p.Status, link2)
	}

	// The invited person sets a password and signs in as an agent.
	invitee := h.browser()
	if p := invitee.get(link2); p.Status != http.StatusOK {
		t.Fatalf("invite page: %d", p.Status)
	}
	if p := invitee.post(link2, url.Values{"password": {"a long new password"}, "password_again": {"a long new password"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("set password: %d", p.Status)
	}
	invitee.signIn("new.agent@example.test", "a long new password")
	if p := invitee.get("/dashboard/team"); p.Status != http.StatusForbidden {
		t.Errorf("agent on team: %d", p.Status)
	}
	p = b.post("/dashboard/team/users/"+id+"/invite", url.Values{})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("invite a user with a password: %d", p.Status)
	}
	mustContain(t, p.Body, "already set a password")

	// Refusals come back on the form with what was typed.
	p = b.post("/dashboard/team/users", url.Values{"email": {"not an address"}, "role": {"agent"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("bad e-mail: %d", p.Status)
	}
	mustContain(t, p.Body, "Enter a valid e-mail address", `value="not an address"`)
	p = b.post("/dashboard/team/users", url.Values{"email": {email}, "role": {"owner"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("taken e-mail: %d", p.Status)
	}
	mustContain(t, p.Body, "This account already has a user with this e-mail.")
	if p := b.post("/dashboard/team/users", url.Values{"email": {"x@example.test"}, "role": {"admin"}}); p.Status != http.StatusBadRequest {
		t.Errorf("bad role: %d", p.Status)
	}
}

func TestTeamRolesRemovalAndTheLastOwner(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	other, _, otherEmail, _ := h.tenant("Other")
	agentEmail, agentPW := h.user(a.ID, store.UserAgent)
	b := h.browser()
	b.signIn(email, pw)
	self := h.teamUserID(a.ID, email)
	agentID := h.teamUserID(a.ID, agentEmail)
	foreign := h.teamUserID(other.ID, otherEmail)

	// The last owner can be neither demoted nor removed, themself included.
	p := b.post("/dashboard/team/users/"+self+"/role", url.Values{"role": {"agent"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("demote the last owner: %d", p.Status)
	}
	mustContain(t, p.Body, "This is the account&#39;s only owner")
	p = b.post("/dashboard/team/users/"+self+"/remove", url.Values{})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("remove the last owner: %d", p.Status)
	}
	mustContain(t, p.Body, "This is the account&#39;s only owner")

	// Another account's users are not there.
	for _, path := range []string{"/role", "/remove", "/invite"} {
		if p := b.post("/dashboard/team/users/"+foreign+path, url.Values{"role": {"agent"}}); p.Status != http.StatusNotFound {
			t.Errorf("another account's user %s: %d", path, p.Status)
		}
	}
	if us, _ := h.users.ListUsers(context.Background(), other.ID); len(us) != 1 || us[0].Role != store.UserOwner {
		t.Errorf("another account's user changed: %+v", us)
	}

	// A removed agent's session ends at once.
	agent := h.browser()
	agent.signIn(agentEmail, agentPW)
	if p := agent.get("/dashboard/profile"); p.Status != http.StatusOK {
		t.Fatalf("agent before removal: %d", p.Status)
	}
	mustContain(t, b.get("/dashboard/team").Body, `action="/dashboard/team/users/`+agentID+`/remove"`, "data-confirm=")
	if p := b.post("/dashboard/team/users/"+agentID+"/remove", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("remove agent: %d", p.Status)
	}
	if p := agent.get("/dashboard/profile"); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Header.Get("Location"), "/dashboard/login") {
		t.Errorf("removed agent: %d %q", p.Status, p.Header.Get("Location"))
	}
	mustContain(t, b.get("/dashboard/team").Body, "User removed.")

	// With a second owner, the first can step down to agent and loses the owner pages.
	second, _ := h.user(a.ID, store.UserAgent)
	secondID := h.teamUserID(a.ID, second)
	if p := b.post("/dashboard/team/users/"+secondID+"/role", url.Values{"role": {"owner"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("promote: %d", p.Status)
	}
	mustContain(t, b.get("/dashboard/team").Body, "Role saved.")
	if p := b.post("/dashboard/team/users/"+self+"/role", url.Values{"role": {"agent"}}); p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/" {
		t.Fatalf("step down: %d %q", p.Status, p.Header.Get("Location"))
	}
	if p := b.get("/dashboard/team"); p.Status != http.StatusForbidden {
		t.Errorf("former owner on team: %d", p.Status)
	}
}

// Inviting an address that has a user in another account is answered exactly like inviting
// a fresh one; it answered "A user with this e-mail already exists", which told any owner
// which addresses had a user elsewhere. The invited person then belongs to both accounts:
// with one password for both, the sign-in asks which account to open, and then opens it.
func TestTeamInviteAnswersAlikeForAnotherAccountsUser(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, agencyEmail, agencyPW := h.tenant("Agency")
	client, _, clientEmail, clientPW := h.tenant("Client Shop")
	b := h.browser()
	b.lang = "en"
	b.signIn(clientEmail, clientPW)

	page := func(email string) (string, string) {
		t.Helper()
		p := b.post("/dashboard/team/users", url.Values{"email": {email}, "role": {"agent"}})
		link := inviteLinkRE.FindString(p.Body)
		if p.Status != http.StatusOK || link == "" {
			t.Fatalf("invite %s: %d, link %q", email, p.Status, link)
		}
		// The page differs by the address and the link only.
		body := strings.ReplaceAll(strings.ReplaceAll(p.Body, link, "LINK"), email, "EMAIL")
		return body, link
	}
	fresh, _ := page("fresh.person@example.test")
	known, link := page(agencyEmail)
	// The list beside the form holds both invitees either way; compare what the invite said.
	msg := regexp.MustCompile(`(?s)<main.*?<table`)
	if f, k := msg.FindString(fresh), msg.FindString(known); f == "" || f != k {
		t.Errorf("the invite answered differently for a known address:\nfresh: %s\nknown: %s", f, k)
	}
	for _, email := range []string{"fresh.person@example.test", agencyEmail} {
		h.teamUserID(client.ID, email) // invited in the client's account
	}

	// The agency's user accepts with the same password: the sign-in asks which account.
	invitee := h.browser()
	invitee.lang = "en"
	if p := invitee.post(link, url.Values{"password": {agencyPW}, "password_again": {agencyPW}}); p.Status != http.StatusSeeOther {
		t.Fatalf("accept the invite: %d", p.Status)
	}
	p := invitee.post("/dashboard/login", url.Values{"email": {agencyEmail}, "password": {agencyPW}})
	if cookies := strings.Join(p.Header.Values("Set-Cookie"), "\n"); p.Status != http.StatusOK || regexp.MustCompile(`svc_session=[^;]`).MatchString(cookies) {
		t.Fatalf("sign-in into two accounts: %d, cookies %q; want the choice and no session", p.Status, cookies)
	}
	mustContain(t, p.Body, "open the dashboards of several accounts", `name="account"`, "Agency", "Client Shop",
		`value="`+itoa(int(client.ID))+`"`)
	if strings.Contains(p.Body, agencyPW) {
		t.Fatal("the password is in the page")
	}
	p = invitee.post("/dashboard/login", url.Values{"email": {agencyEmail}, "password": {agencyPW}, "account": {itoa(int(client.ID))}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("sign in to the client's account: %d", p.Status)
	}
	if p := invitee.get("/dashboard/"); p.Status != http.StatusOK || !strings.Contains(p.Body, "Client Shop") {
		t.Fatalf("the dashboard after choosing: %d", p.Status)
	}
}
