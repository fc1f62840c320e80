package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestSignedOutIsSentToSignIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	b := h.browser()
	for _, path := range []string{"/dashboard/", "/dashboard/assistant", "/dashboard/nope"} {
		p := b.get(path)
		if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Header.Get("Location"), "/dashboard/login") {
			t.Errorf("GET %s signed out: %d %q", path, p.Status, p.Header.Get("Location"))
		}
	}
}

func TestSignInCookieAndSignOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	p := b.post("/dashboard/login", url.Values{"email": {email}, "password": {pw}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/" {
		t.Fatalf("sign in: %d %q", p.Status, p.Header.Get("Location"))
	}
	ck := p.Header.Get("Set-Cookie")
	for _, want := range []string{"svc_session=", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(ck, want) {
			t.Errorf("cookie %q lacks %s", ck, want)
		}
	}
	if strings.Contains(ck, "Secure") {
		t.Errorf("cookie on http is Secure: %q", ck)
	}
	if p := b.get("/dashboard/assistant"); p.Status != http.StatusOK {
		t.Fatalf("assistant after sign in: %d", p.Status)
	}
	if p := b.post("/dashboard/logout", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("logout: %d", p.Status)
	}
	if p := b.get("/dashboard/assistant"); p.Status != http.StatusSeeOther {
		t.Fatalf("assistant after sign out: %d", p.Status)
	}
}

func TestWrongPasswordShowsTheFormAgainWithoutACookie(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, _ := h.tenant("Shop")
	b := h.browser()
	p := b.post("/dashboard/login", url.Values{"email": {email}, "password": {"wrong password!"}})
	if p.Status == http.StatusSeeOther || strings.Contains(p.Header.Get("Set-Cookie"), "svc_session=") {
		t.Fatalf("wrong password signed in: %d %q", p.Status, p.Header.Get("Set-Cookie"))
	}
	mustContain(t, p.Body, `action="/dashboard/login"`, "The e-mail or the password is not right.")
}

func TestToneFromTheDashboardIsWhatGetToneReturns(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	p := b.post("/dashboard/assistant/tone", url.Values{"preset": {"warm"}, "custom": {"Say hi <b>friend</b>"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("tone: %d %s", p.Status, p.Body)
	}
	_, body := h.api(http.MethodGet, "/api/v1/chat/getTone", key, nil)
	if !strings.Contains(body, `"preset":"warm"`) || !strings.Contains(body, `Say hi \u003cb\u003efriend\u003c/b\u003e`) {
		t.Fatalf("getTone: %s", body)
	}
	page := b.get("/dashboard/assistant")
	mustContain(t, page.Body, "Say hi &lt;b&gt;friend&lt;/b&gt;", "Tone saved.")
}

func TestRotationShowsTheNewKeyOnceAndTheOldOneIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	p := b.post("/dashboard/developer/rotate", url.Values{})
	if p.Status != http.StatusOK {
		t.Fatalf("rotate: %d", p.Status)
	}
	i := strings.Index(p.Body, "svc_pk_")
	if i < 0 || len(p.Body) < i+39 {
		t.Fatal("the new key is not shown")
	}
	newKey := p.Body[i : i+39]
	if st, _ := h.api(http.MethodGet, "/api/v1/chat/apiKey", key, nil); st != http.StatusUnauthorized {
		t.Errorf("old key after rotation: %d", st)
	}
	if st, _ := h.api(http.MethodGet, "/api/v1/chat/apiKey", newKey, nil); st != http.StatusOK {
		t.Errorf("new key: %d", st)
	}
	if again := b.get("/dashboard/developer"); strings.Contains(again.Body, newKey) {
		t.Error("the new key is shown a second time")
	}
}

func TestCrossOriginPostIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	form := url.Values{"preset": {"energetic"}, "custom": {""}}
	for name, hdr := range map[string][2]string{
		"origin":     {"Origin", "https://evil.example"},
		"fetch site": {"Sec-Fetch-Site", "cross-site"},
	} {
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/assistant/tone", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(hdr[0], hdr[1])
		if p := b.do(req); p.Status != http.StatusForbidden {
			t.Errorf("%s: %d", name, p.Status)
		}
	}
	// Without Origin or Sec-Fetch-Site the form's token decides.
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/assistant/tone", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if p := b.do(req); p.Status != http.StatusForbidden {
		t.Errorf("no header, no token: %d", p.Status)
	}
	tok := csrf(t, b.get("/dashboard/assistant").Body)
	form.Set("_csrf", tok)
	req, _ = http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/assistant/tone", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if p := b.do(req); p.Status != http.StatusSeeOther {
		t.Errorf("no header, good token: %d", p.Status)
	}
	_, body := h.api(http.MethodGet, "/api/v1/chat/getTone", key, nil)
	if !strings.Contains(body, `"preset":"energetic"`) {
		t.Errorf("tone: %s", body)
	}
}

// The try-it box runs the real pipeline: without JavaScript the whole page comes back with
// the answer, with htmx only the result block; an empty question is refused in place.
func TestTryItAnswersWithAndWithoutJavaScript(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	p := b.post("/dashboard/assistant/try", url.Values{"message": {ovKnown}})
	if p.Status != http.StatusOK || !strings.Contains(p.Body, "<html") {
		t.Fatalf("try without JavaScript: %d, a whole page: %v", p.Status, strings.Contains(p.Body, "<html"))
	}
	mustContain(t, p.Body, `id="try-result"`, `class="msg msg-assistant"`, ovKnown)
	f := b.hxPost("/dashboard/assistant/try", url.Values{"message": {ovKnown}})
	if f.Status != http.StatusOK || strings.Contains(f.Body, "<html") || !strings.Contains(f.Body, `class="msg msg-assistant"`) {
		t.Fatalf("try with htmx: %d, want the result block alone: %s", f.Status, f.Body)
	}
	if e := b.post("/dashboard/assistant/try", url.Values{"message": {"  "}}); e.Status != http.StatusBadRequest ||
		strings.Contains(e.Body, `class="msg msg-assistant"`) {
		t.Errorf("empty question: %d", e.Status)
	}
	if e := b.hxPost("/dashboard/assistant/try", url.Values{"message": {""}}); e.Status != http.StatusOK ||
		!strings.Contains(e.Body, `role="alert"`) || strings.Contains(e.Body, "<html") {
		t.Errorf("empty question with htmx: %d %s", e.Status, e.Body)
	}
}
