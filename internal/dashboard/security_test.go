package dashboard_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"svc/internal/config"
	"svc/internal/store"
)

// A session id chosen before sign-in (planted by an attacker) never becomes a session: the
// sign-in issues a new id, and the planted one stays signed out.
func TestSessionFixationIsImpossible(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	planted := "attacker-chosen-session-id-0123456789abcdef"
	u, _ := url.Parse(h.srv.URL + "/dashboard/")
	b.c.Jar.SetCookies(u, []*http.Cookie{{Name: "svc_session", Value: planted, Path: "/dashboard"}})
	p := b.post("/dashboard/login", url.Values{"email": {email}, "password": {pw}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", p.Status)
	}
	var issued string
	for _, c := range (&http.Response{Header: p.Header}).Cookies() {
		if c.Name == "svc_session" {
			issued = c.Value
		}
	}
	if issued == "" || issued == planted {
		t.Fatalf("sign-in kept the planted session id (issued %q)", issued)
	}
	attacker := h.browser()
	attacker.c.Jar.SetCookies(u, []*http.Cookie{{Name: "svc_session", Value: planted, Path: "/dashboard"}})
	if p := attacker.get("/dashboard/assistant"); p.Status != http.StatusSeeOther {
		t.Fatalf("the planted id opened a page: %d", p.Status)
	}
	// Signing in again (another user on the same browser) ends the first session.
	first := issued
	email2, pw2 := h.user(mustAccount(t, h, email), store.UserAgent)
	b.signIn(email2, pw2)
	stale := h.browser()
	stale.c.Jar.SetCookies(u, []*http.Cookie{{Name: "svc_session", Value: first, Path: "/dashboard"}})
	if p := stale.get("/dashboard/"); p.Status != http.StatusSeeOther {
		t.Fatalf("the session replaced by a new sign-in still works: %d", p.Status)
	}
}

func mustAccount(t *testing.T, h *harness, email string) int64 {
	t.Helper()
	us, err := h.st.UsersByEmail(context.Background(), email)
	if err != nil || len(us) != 1 {
		t.Fatalf("users of %s: %v %+v", email, err, us)
	}
	return us[0].AccountID
}

// Behind https the cookie is Secure too.
func TestSessionCookieIsSecureBehindHTTPS(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *config.Config) { c.PublicURL = "https://svc.example" }))
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/login",
		strings.NewReader(url.Values{"email": {email}, "password": {pw}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://svc.example") // the public origin is trusted
	p := b.do(req)
	ck := p.Header.Get("Set-Cookie")
	if p.Status != http.StatusSeeOther || !strings.Contains(ck, "svc_session=") {
		t.Fatalf("sign in: %d %q", p.Status, ck)
	}
	for _, want := range []string{"HttpOnly", "SameSite=Lax", "Secure"} {
		if !strings.Contains(ck, want) {
			t.Errorf("cookie %q lacks %s", ck, want)
		}
	}
}

// Five wrong passwords for one e-mail lock it for a while, the right password included,
// with 429 and Retry-After; other e-mails are not affected.
func TestSignInIsThrottledPerEmail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	other, otherPW := h.user(a.ID, store.UserAgent)
	b := h.browser()
	for i := range 5 {
		if p := b.post("/dashboard/login", url.Values{"email": {email}, "password": {"wrong password " + itoa(i)}}); p.Status != http.StatusOK {
			t.Fatalf("failure %d: %d", i+1, p.Status)
		}
	}
	p := b.post("/dashboard/login", url.Values{"email": {email}, "password": {pw}})
	if p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") == "" ||
		strings.Contains(p.Header.Get("Set-Cookie"), "svc_session=") {
		t.Fatalf("the right password after 5 failures: %d %q %q", p.Status, p.Header.Get("Retry-After"), p.Header.Get("Set-Cookie"))
	}
	mustContain(t, p.Body, "Too many failed attempts")
	h.browser().signIn(other, otherPW)
}

// One address trying many e-mails is throttled too; another address is not.
func TestSignInIsThrottledPerAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *config.Config) { c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} }))
	_, _, email, pw := h.tenant("Shop")
	from := func(addr string, form url.Values) page {
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", h.srv.URL)
		req.Header.Set("X-Forwarded-For", addr)
		return h.browser().do(req)
	}
	for i := range 20 {
		p := from("203.0.113.7", url.Values{"email": {"nobody" + itoa(i) + "@example.test"}, "password": {"wrong password"}})
		if p.Status != http.StatusOK {
			t.Fatalf("failure %d: %d", i+1, p.Status)
		}
	}
	if p := from("203.0.113.7", url.Values{"email": {email}, "password": {pw}}); p.Status != http.StatusTooManyRequests {
		t.Fatalf("a real user from the guessing address: %d", p.Status)
	}
	if p := from("198.51.100.9", url.Values{"email": {email}, "password": {pw}}); p.Status != http.StatusSeeOther {
		t.Fatalf("the same user from another address: %d", p.Status)
	}
}

// Forgot password: the same answer for a known and an unknown e-mail; the known one gets a
// reset notice in the outbox whose link sets a new password once, ending the old sessions.
func TestForgotPasswordResetsThroughTheOutboxLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	signedIn := h.browser()
	signedIn.signIn(email, pw)

	b := h.browser()
	known := b.post("/dashboard/forgot", url.Values{"email": {email}})
	unknown := b.post("/dashboard/forgot", url.Values{"email": {"nobody@example.test"}})
	if known.Status != http.StatusSeeOther || unknown.Status != known.Status ||
		unknown.Header.Get("Location") != known.Header.Get("Location") {
		t.Fatalf("known %d %q, unknown %d %q", known.Status, known.Header.Get("Location"), unknown.Status, unknown.Header.Get("Location"))
	}
	notices, err := h.st.Notices(context.Background(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	var link string
	for _, n := range notices {
		if n.Kind == store.NoticePasswordReset {
			var p struct {
				URL string `json:"url"`
			}
			_ = json.Unmarshal([]byte(n.Payload), &p)
			link = p.URL
		}
	}
	if !strings.HasPrefix(link, h.srv.URL+"/dashboard/reset/") {
		t.Fatalf("no reset link queued: %+v", notices)
	}
	path := strings.TrimPrefix(link, h.srv.URL)
	if p := b.get(path); p.Status != http.StatusOK {
		t.Fatalf("reset page: %d", p.Status)
	}
	if p := b.post(path, url.Values{"password": {"a brand new secret"}, "password_again": {"a brand new secret"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("set password: %d %s", p.Status, p.Body)
	}
	if p := signedIn.get("/dashboard/"); p.Status != http.StatusSeeOther {
		t.Fatalf("a session from before the reset still works: %d", p.Status)
	}
	if p := b.post(path, url.Values{"password": {"yet another secret"}, "password_again": {"yet another secret"}}); p.Status != http.StatusNotFound {
		t.Fatalf("the link worked twice: %d", p.Status)
	}
	if p := h.browser().post("/dashboard/login", url.Values{"email": {email}, "password": {pw}}); p.Status == http.StatusSeeOther {
		t.Fatal("the old password still signs in")
	}
	h.browser().signIn(email, "a brand new secret")
}

// A form is capped at 1 MiB before anything reads it: a client without browser headers,
// whose form token must be read from the body, gets 413 for more; the import takes more.
func TestFormBodiesAreCapped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	tok := csrf(t, b.get("/dashboard/assistant").Body)
	post := func(size int) page {
		form := url.Values{"_csrf": {tok}, "preset": {"warm"}, "custom": {strings.Repeat("x", size)}}
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/assistant/tone", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return b.do(req)
	}
	if p := post(2 << 20); p.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 2 MiB form: %d", p.Status)
	}
	if p := post(100); p.Status != http.StatusSeeOther {
		t.Fatalf("a small form with its token: %d", p.Status)
	}
}
