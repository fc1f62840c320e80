package dashboard_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"svc/internal/crawl/crawltest"
	"svc/internal/store"
	"svc/internal/store/storetest"
)

// uiOwnerNav are the navigation entries only owners see.
var uiOwnerNav = []string{"/dashboard/assistant", "/dashboard/widget", "/dashboard/studio",
	"/dashboard/developer", "/dashboard/billing", "/dashboard/team"}

var uiKeyRE = regexp.MustCompile(`svc_pk_[0-9a-f]{32}`)

// TestBrowserFlows drives the dashboard's main flows in one Chromium, each user in a browser
// context of their own. Flows whose page is not there yet skip, saying so.
func TestBrowserFlows(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	t.Run("owner changes the tone, rotates the key and signs out", func(t *testing.T) {
		_, key, email, pw := h.on(t).tenant("Flow Shop")
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(email, pw)
		if p := u.location(); p != "/dashboard/" {
			t.Errorf("after sign-in: %s, want /dashboard/", p)
		}

		// Tone, through the form.
		if st := u.open("/dashboard/assistant"); st != http.StatusOK {
			t.Fatalf("assistant page: HTTP %d", st)
		}
		u.click("choose the warm tone", `form[action="/dashboard/assistant/tone"] input[name="preset"][value="warm"]`)
		u.fill(`form[action="/dashboard/assistant/tone"] textarea[name="custom"]`, "Keep answers short & friendly.")
		u.submit("save the tone", `form[action="/dashboard/assistant/tone"] button[type="submit"]`)
		if p := u.location(); p != "/dashboard/assistant" {
			t.Errorf("after saving the tone: %s", p)
		}
		if f := u.text(".flash"); f == "" {
			t.Error("no notice after saving the tone")
		}
		var tone struct {
			Preset string `json:"preset"`
			Custom string `json:"custom"`
		}
		if st := uiAPI(t, h, http.MethodGet, "/api/v1/chat/getTone", key, nil, &tone); st != http.StatusOK {
			t.Fatalf("getTone: HTTP %d", st)
		}
		if tone.Preset != "warm" || tone.Custom != "Keep answers short & friendly." {
			t.Errorf("getTone after the form: %+v", tone)
		}

		// Key rotation: the page asks first. Declined, nothing happens.
		if st := u.open("/dashboard/developer"); st != http.StatusOK {
			t.Fatalf("developer page: HTTP %d", st)
		}
		rotate := `form[action="/dashboard/developer/rotate"] button[type="submit"]`
		u.acceptDialogs(false)
		u.js(`window.__uiStay = true`)
		u.click("rotate, then decline", rotate)
		if !u.pollDialogs(1) {
			t.Fatal("rotating asked no confirmation (no JavaScript dialog opened)")
		}
		if d := u.seenDialogs(); !strings.HasPrefix(d[0], "confirm: ") {
			t.Errorf("the rotation asked with %q, want a confirm dialog", d[0])
		}
		if !uiMust[bool](u, `window.__uiStay === true`) {
			t.Fatal("declining the confirmation still sent the form")
		}
		if st := uiAPI(t, h, http.MethodGet, "/api/v1/chat/apiKey", key, nil, nil); st != http.StatusOK {
			t.Fatalf("the key after a declined rotation: HTTP %d", st)
		}
		// Accepted: the new key is shown once and the old one is refused.
		u.acceptDialogs(true)
		u.submit("rotate the key", rotate)
		if n := len(u.seenDialogs()); n != 2 {
			t.Errorf("%d dialogs, want 2 (declined, accepted)", n)
		}
		newKey := uiKeyRE.FindString(uiMust[string](u, `document.querySelector('main').innerText`))
		if newKey == "" || newKey == key {
			t.Fatalf("the page after rotation shows no new key (%q)", newKey)
		}
		if st := uiAPI(t, h, http.MethodGet, "/api/v1/chat/apiKey", key, nil, nil); st != http.StatusUnauthorized {
			t.Errorf("the old key after rotation: HTTP %d, want 401", st)
		}
		if st := uiAPI(t, h, http.MethodGet, "/api/v1/chat/apiKey", newKey, nil, nil); st != http.StatusOK {
			t.Errorf("the new key: HTTP %d", st)
		}
		u.open("/dashboard/developer")
		if strings.Contains(uiMust[string](u, `document.body.innerText`), newKey) {
			t.Error("the new key is shown a second time")
		}

		// Sign out.
		u.submit("sign out", `form[action="/dashboard/logout"] button[type="submit"]`)
		if p := u.location(); !strings.HasPrefix(p, "/dashboard/login") {
			t.Errorf("after signing out: %s", p)
		}
		u.open("/dashboard/assistant")
		if p := u.location(); !strings.HasPrefix(p, "/dashboard/login") {
			t.Errorf("signed out, the assistant page shows %s", p)
		}
	})

	t.Run("an agent gets 403 on billing and sees no owner entries", func(t *testing.T) {
		a, _, _, _ := h.on(t).tenant("Agent Shop")
		email, pw := h.on(t).user(a.ID, store.UserAgent)
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(email, pw)
		for _, path := range []string{"/dashboard/", "/dashboard/billing"} {
			st := u.open(path)
			if path == "/dashboard/billing" && st != http.StatusForbidden {
				t.Errorf("agent on billing: HTTP %d, want 403", st)
			}
			nav := u.links(`nav a`)
			if len(nav) == 0 {
				t.Errorf("%s: no navigation", path)
			}
			for _, o := range uiOwnerNav {
				if slices.Contains(nav, o) {
					t.Errorf("%s: the agent's navigation has the owner entry %s", path, o)
				}
			}
		}
		if txt := u.text("main"); !strings.Contains(txt, "403") {
			t.Errorf("the billing page for an agent does not say 403: %q", txt)
		}
	})

	t.Run("markup in a message stays text", func(t *testing.T) {
		const attack = `<img src=x onerror=alert(1)>`
		_, key, email, pw := h.on(t).tenant("XSS Shop")
		uiAsk(t, h, key, attack)
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(email, pw)
		if st := u.open("/dashboard/conversations"); uiNotFound(st) {
			t.Skip("the conversations page does not exist yet (404)")
		} else if st != http.StatusOK {
			t.Fatalf("conversations: HTTP %d", st)
		}
		u.checkInert(attack, false)
		var transcript string
		for _, l := range u.links(`main a[href^="/dashboard/conversations/"]`) {
			if p, _, _ := strings.Cut(l, "?"); regexp.MustCompile(`^/dashboard/conversations/\d+$`).MatchString(p) {
				transcript = p
				break
			}
		}
		if transcript == "" {
			t.Fatal("the conversations list links to no transcript")
		}
		if st := u.open(transcript); st != http.StatusOK {
			t.Fatalf("transcript %s: HTTP %d", transcript, st)
		}
		u.checkInert(attack, true)
	})

	t.Run("a widget token from the dashboard answers on a page of its domain", func(t *testing.T) {
		_, _, email, pw := h.on(t).tenant("Widget Shop")
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(email, pw)
		if st := u.open("/dashboard/widget"); uiNotFound(st) {
			t.Skip("the widget page does not exist yet (404)")
		}
		form := uiMust[string](u, `(() => { const f = [...document.querySelectorAll('main form')]
			.find(f => f.querySelector('[name="domains"]')); return f ? f.getAttribute('action') : ''; })()`)
		if form == "" {
			t.Skip("the widget page has no token form with a domains field yet")
		}
		sel := `form[action="` + form + `"]`
		u.fill(sel+` [name="domains"]`, "127.0.0.1")
		if uiMust[bool](u, `!!document.querySelector(`+uiJS(sel+` [name="label"]`)+`)`) {
			u.fill(sel+` [name="label"]`, "Test page")
		}
		u.submit("create a widget token", sel+` button[type="submit"]`)
		snippet := uiMust[string](u, `(() => { const e = [...document.querySelectorAll('main textarea, main pre, main code')]
			.find(e => /<script[^>]+widget\.js[^>]+svc_emb_[A-Za-z0-9]{32}/.test(e.value || e.textContent));
			return e ? (e.value || e.textContent) : ''; })()`)
		if snippet == "" {
			t.Fatalf("no widget snippet after creating a token (at %s)", u.location())
		}
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><h1>A customer's page</h1>
%s
</body></html>`, snippet)
		}))
		t.Cleanup(site.Close)
		u.must("open the test page", chromedp.Navigate(site.URL+"/"))
		const shadow = `document.getElementById('svc-widget').shadowRoot`
		u.wait("the widget", `document.getElementById('svc-widget') && document.getElementById('svc-widget').dataset.ready === '1'`)
		u.js(shadow + `.querySelector('button.svc-launcher').click()`)
		u.wait("the widget to open", `document.getElementById('svc-widget').dataset.state === 'open'`)
		u.js(`(() => { const i = ` + shadow + `.querySelector('textarea.svc-input');
			i.value = 'How long does delivery take?'; i.dispatchEvent(new Event('input', {bubbles: true}));
			` + shadow + `.querySelector('button.svc-send').click(); })()`)
		u.wait("the widget's answer", shadow+`.querySelectorAll('.svc-msg[data-role="assistant"]').length >= 1`)
		answer := uiMust[string](u, shadow+`.querySelector('.svc-msg[data-role="assistant"] .svc-body').textContent`)
		if !strings.Contains(strings.ToLower(answer), "day") {
			t.Errorf("the widget answered %q", answer)
		}
	})

	t.Run("a crawl started from the KB page runs to completion", func(t *testing.T) {
		site := crawltest.Serve(t, filepath.Join("..", "crawl", "testdata", "sites", "shop"))
		_, _, email, pw := h.on(t).tenant("Crawl Shop")
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(email, pw)
		if st := u.open("/dashboard/kb"); uiNotFound(st) {
			t.Skip("the KB page does not exist yet (404)")
		}
		u.crawlFromKB(site.URL)
	})

	t.Run("a review item answered in the browser", func(t *testing.T) {
		const q = "Can I pay by invoice?"
		_, key, email, pw := h.on(t).tenant("Review Shop")
		reply := uiAsk(t, h, key, q)
		if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/feedback", key,
			url.Values{"messageId": {fmt.Sprint(reply)}, "rating": {"not_helpful"}}, nil); st != http.StatusOK {
			t.Fatalf("feedback: HTTP %d", st)
		}
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(email, pw)
		if st := u.open("/dashboard/review"); uiNotFound(st) {
			t.Skip("the review page does not exist yet (404)")
		}
		u.answerReview(q, "Yes: invoices are payable within 14 days.")
		var s uiSent
		if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/send", key, url.Values{"message": {q}}, &s); st != http.StatusOK {
			t.Fatalf("send: HTTP %d", st)
		}
		if last := s.Messages[len(s.Messages)-1]; !strings.Contains(last.Body, "14 days") {
			t.Errorf("after the correction the assistant answers %q", last.Body)
		}
	})
}

// pollDialogs waits for at least n dialogs to have opened.
func (u *uiTab) pollDialogs(n int) bool {
	return uiUntil(uiDeadline, func() bool { return len(u.seenDialogs()) >= n })
}

// checkInert fails unless text is shown as text on the page and no script of it ran.
func (u *uiTab) checkInert(text string, mustShow bool) {
	u.t.Helper()
	if d := u.seenDialogs(); len(d) > 0 {
		u.t.Errorf("%s: a dialog opened: %v", u.location(), d)
	}
	if uiMust[bool](u, `!!document.querySelector('img[src="x"], main img[onerror]')`) {
		u.t.Errorf("%s: the message became an element", u.location())
	}
	shown := uiMust[bool](u, `document.querySelector('main').innerText.includes(`+uiJS(text)+`)`)
	if mustShow && !shown {
		u.t.Errorf("%s: the message is not shown as text", u.location())
	}
	if !shown {
		u.t.Logf("%s: the message is not shown in full (a preview may clip it)", u.location())
	}
}

// crawlFromKB adds the site on the KB page and starts its crawl there, then waits for the
// progress display to report the crawl finished.
func (u *uiTab) crawlFromKB(siteURL string) {
	u.t.Helper()
	const add = `main form[action="/dashboard/kb/sites"]`
	if !uiMust[bool](u, `!!document.querySelector(`+uiJS(add)+`)`) {
		u.t.Skip("the KB page has no form to add a site yet")
	}
	u.fill(add+` [name="url"]`, siteURL+"/")
	if uiMust[bool](u, `!!document.querySelector(`+uiJS(add+` [name="name"]`)+`)`) {
		u.fill(add+` [name="name"]`, "Test shop")
	}
	u.submit("add the site", add+` button[type="submit"]`)
	const crawl = `main form[action^="/dashboard/kb/sites/"][action$="/crawl"]`
	if !uiMust[bool](u, `!!document.querySelector(`+uiJS(crawl)+`)`) {
		u.t.Fatalf("after adding the site there is no crawl form (at %s): %s", u.location(), u.text("main"))
	}
	u.submit("start the crawl", crawl+` button[type="submit"]`)
	// The progress display: htmx replaces it every second while the crawl runs; its last
	// state is "finished" with the crawl's figures.
	const progress = `document.querySelector('.kb-progress[data-state]')`
	u.wait("the progress display", progress)
	var states []string
	ok := uiUntil(2*time.Minute, func() bool {
		st, err := uiEval[string](u, `(() => { const p = `+progress+`; return p ? p.dataset.state + ' ' +
			(p.querySelector('progress') ? p.querySelector('progress').value + '/' + p.querySelector('progress').max : '') : ''; })()`)
		if err != nil || st == "" {
			return false
		}
		if len(states) == 0 || states[len(states)-1] != st {
			states = append(states, st)
		}
		return !strings.HasPrefix(st, "running")
	})
	u.t.Logf("crawl progress: %s", strings.Join(states, " → "))
	if !ok {
		u.t.Fatalf("the crawl did not finish in 2 minutes: %q", u.text(".kb-progress"))
	}
	if st := states[len(states)-1]; !strings.HasPrefix(st, "finished") {
		u.t.Fatalf("the crawl ended %q: %q", st, u.text(".kb-progress"))
	}
	u.t.Logf("finished: %q", u.text(".kb-progress"))
	// What the crawl found is in the KB.
	u.open("/dashboard/kb/documents")
	if txt := u.text("main"); !strings.Contains(txt, "Gooseneck Kettle") {
		u.t.Errorf("after the crawl the documents do not list the shop's products: %.300q", txt)
	}
}

// answerReview answers the review item about question, through its form.
func (u *uiTab) answerReview(question, answer string) {
	u.t.Helper()
	// The item's answer form, by its question; its action names the item.
	find := `(() => { const f = [...document.querySelectorAll('main form')].find(f => f.querySelector('textarea[name="answer"]') &&
		(f.closest('li, article') || f.parentElement).innerText.includes(` + uiJS(question) + `));
		return f ? f.getAttribute('action') : ''; })()`
	action := uiMust[string](u, find)
	if action == "" {
		// Another tab of the queue.
		for _, tab := range u.links(`main nav a[href^="/dashboard/review"]`) {
			u.open(tab)
			if action = uiMust[string](u, find); action != "" {
				break
			}
		}
	}
	if action == "" {
		u.t.Fatalf("no review item with an answer form for %q: %.300q", question, u.text("main"))
	}
	form := `form[action="` + action + `"]`
	u.fill(form+` textarea[name="answer"]`, answer)
	u.click("save the answer", form+` button[type="submit"]`)
	// htmx swaps the item for a notice; without it the page reloads without the item.
	u.wait("the item to be answered", `!document.querySelector(`+uiJS(form)+`) && document.readyState === 'complete'`)
	if n := uiMust[string](u, `(document.querySelector('main [role="status"]') || {innerText: ''}).innerText`); n == "" {
		u.t.Error("no notice after answering the review item")
	}
	u.open(u.location())
	if uiMust[bool](u, `!!document.querySelector(`+uiJS(form)+`)`) {
		u.t.Errorf("the answered item %s is still in the queue", action)
	}
}

// TestScreenshotDashboard takes the overview (with traffic, the charts drawn) and a
// transcript at 1280×900. With SVC_SCREENSHOTS=1 they are written to docs/, else to a
// temporary directory, so that a test run leaves the tree as it was.
func TestScreenshotDashboard(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	// Two weeks of traffic, so the charts have something to show: the clock starts 13 days
	// back and moves a day after each day's questions, ending on today.
	clock := &storetest.Clock{}
	clock.Advance(-13 * 24 * time.Hour)
	h := newHarness(t, withClock(clock.Now))
	a, key, _, _ := h.tenant("Demo Shop")
	email, pw := "owner@demo-shop.example", "correct horse battery"
	if _, _, err := h.users.AddUser(context.Background(), a.ID, email, store.UserOwner, pw); err != nil {
		t.Fatal(err)
	}
	questions := []string{"Hello!", "How long does delivery take?", "Do you have a tent for two people?",
		"What is your return policy?", "Can I pay by invoice?", "Do you have gift cards?",
		"Do you have a store in Istanbul?", "Which tent is best for two people?", "Thanks!",
		"How long does delivery take?", "Can I rent a kayak?", "What does shipping to Germany cost?"}
	for day := range 14 {
		for i := range 3 + (day*7)%6 {
			uiAsk(t, h, key, questions[(day*5+i*3)%len(questions)])
		}
		if day < 13 {
			clock.Advance(24 * time.Hour)
		}
	}
	dir := t.TempDir()
	if os.Getenv("SVC_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	u := uiOpen(t, bctx, h.srv.URL)
	u.must("viewport", chromedp.EmulateViewport(1280, 900))
	u.signIn(email, pw)

	if st := u.open("/dashboard/"); st != http.StatusOK {
		t.Errorf("overview: HTTP %d", st)
	} else {
		u.wait("the charts", `document.querySelector('.uplot canvas') &&
			[...document.querySelectorAll('[data-chart]')].every(e => e.querySelector('.uplot canvas'))`)
		u.write(filepath.Join(dir, "dashboard-overview.png"))
	}

	if st := u.open("/dashboard/conversations"); st != http.StatusOK {
		t.Fatalf("conversations: HTTP %d", st)
	}
	links := u.links(`main a[href^="/dashboard/conversations/"]`)
	if len(links) == 0 {
		t.Fatal("the conversations list links to no transcript")
	}
	if st := u.open(links[0]); st != http.StatusOK {
		t.Fatalf("transcript %s: HTTP %d", links[0], st)
	}
	u.write(filepath.Join(dir, "dashboard-transcript.png"))
}

// write saves a screenshot of the viewport, a 1280×900 PNG.
func (u *uiTab) write(path string) {
	u.t.Helper()
	u.js(`window.scrollTo(0, 0)`)
	shot := u.screenshot()
	if c, err := png.DecodeConfig(bytes.NewReader(shot)); err != nil || c.Width != 1280 || c.Height != 900 {
		u.t.Errorf("%s: not a 1280×900 PNG: %+v %v", path, c, err)
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		u.t.Fatal(err)
	}
	u.t.Logf("wrote %s", path)
}
