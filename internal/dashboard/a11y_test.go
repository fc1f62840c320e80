package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"svc/internal/store"
)

// TestBrowserKeyboardOnly signs in and moves around with key events alone: the sign-in form,
// the skip link, the navigation (with a visible focus ring) and Enter on a link.
func TestBrowserKeyboardOnly(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	_, _, email, pw := h.tenant("Keyboard Shop")
	u := uiOpen(t, bctx, h.srv.URL)

	u.open("/dashboard/")
	if p := u.location(); !strings.HasPrefix(p, "/dashboard/login") {
		t.Fatalf("signed out, /dashboard/ shows %s, not the sign-in page", p)
	}
	// Tab to the e-mail field (the form may have put the focus there already).
	u.tabTo("the e-mail field", `document.activeElement.id === 'email'`, 10)
	u.keys("type the e-mail", email)
	u.keys("Tab to the password", "\t")
	if id := uiMust[string](u, `document.activeElement.id`); id != "password" {
		t.Fatalf("Tab from the e-mail field went to %q, not the password", id)
	}
	u.keys("type the password", pw)
	u.navigatesBy("Enter to sign in", func() { u.keys("Enter", "\r") })
	if p := u.location(); p != "/dashboard/" {
		t.Fatalf("after Enter on the sign-in form: %s, want /dashboard/", p)
	}

	// From the top: the first stop is the skip link, and it moves the focus to main.
	u.js(`document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)
	u.keys("Tab from the top", "\t")
	first := uiMust[uiFocus](u, uiFocusJS)
	if first.Tag != "A" || first.Href != "#main" {
		t.Fatalf("the first Tab stop is %+v, want the skip link to #main", first)
	}
	if !strings.Contains(first.Text, "Skip to content") {
		t.Errorf("the skip link reads %q", first.Text)
	}
	if !first.OnScreen || !first.Outline {
		t.Errorf("the focused skip link is not visibly shown: %+v", first)
	}
	u.keys("Enter on the skip link", "\r")
	u.wait("the focus to move to main", `document.activeElement && document.activeElement.id === 'main'`)

	// Tab from the top through the header into the navigation, to "Conversations".
	u.open("/dashboard/")
	u.js(`document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)
	var stops []string
	var nav uiFocus
	for i := 0; ; i++ {
		if i == 25 {
			t.Fatalf("25 Tabs did not reach the navigation's Conversations link; stops: %s", strings.Join(stops, " → "))
		}
		u.keys("Tab", "\t")
		nav = uiMust[uiFocus](u, uiFocusJS)
		stops = append(stops, nav.String())
		if nav.InNav && nav.Href == "/dashboard/conversations" {
			break
		}
	}
	t.Logf("Tab stops: %s", strings.Join(stops, " → "))
	if !nav.FocusVisible || !nav.Outline {
		t.Errorf("the focused nav link shows no focus: :focus-visible %v, outline %q", nav.FocusVisible, nav.OutlineStyle)
	}
	u.navigatesBy("Enter on Conversations", func() { u.keys("Enter", "\r") })
	if p := u.location(); p != "/dashboard/conversations" {
		t.Fatalf("Enter on Conversations went to %s", p)
	}
	cur := uiMust[string](u, `(document.querySelector('nav a[aria-current="page"]') || {}).pathname || ''`)
	if cur != "/dashboard/conversations" {
		t.Errorf("aria-current is on %q, not on Conversations", cur)
	}
	if st := u.status(); st != http.StatusOK {
		t.Errorf("the conversations page answered HTTP %d", st)
	}
}

// uiFocus describes document.activeElement.
type uiFocus struct {
	Tag, Href, Text, OutlineStyle string
	InNav, FocusVisible, Outline  bool
	OnScreen                      bool
}

func (f uiFocus) String() string {
	return fmt.Sprintf("%s %q %s", f.Tag, strings.TrimSpace(f.Text), f.Href)
}

const uiFocusJS = `(() => { const e = document.activeElement || document.body; const s = getComputedStyle(e);
	const r = e.getBoundingClientRect();
	return {Tag: e.tagName, Href: e.getAttribute('href') || '', Text: (e.innerText || e.value || '').slice(0, 60),
		InNav: !!e.closest('nav'), FocusVisible: e.matches(':focus-visible'), OutlineStyle: s.outlineStyle,
		Outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0,
		OnScreen: r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight}; })()`

// tabTo presses Tab until pred holds, at most max times.
func (u *uiTab) tabTo(what, pred string, max int) {
	u.t.Helper()
	for i := 0; i <= max; i++ {
		if uiMust[bool](u, pred) {
			return
		}
		u.keys("Tab", "\t")
	}
	u.t.Fatalf("%d Tabs did not reach %s", max, what)
}

// status is the HTTP status of the tab's current document (Navigation Timing).
func (u *uiTab) status() int {
	u.t.Helper()
	return uiMust[int](u, `performance.getEntriesByType('navigation')[0].responseStatus`)
}

// uiAxeResult is one page's outcome.
type uiAxeResult struct {
	page, note string
	serious    []uiViolation
	minor      []uiViolation
}

// TestAxeDashboardPages runs axe-core on every page of the dashboard: signed out, as an
// owner (every navigation entry, the detail pages their lists link to, the overview in
// each language) and as an agent. A serious or critical violation fails the page; so does a
// page that is not there.
func TestAxeDashboardPages(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	src := uiAxeSource(t)
	h := newHarness(t)
	a, key, email, pw := h.tenant("Axe Shop")
	agentEmail, agentPW := h.user(a.ID, store.UserAgent)
	// Data, so that the lists have rows and link to their detail pages.
	var replies []int64
	for _, q := range []string{"How long does delivery take?", "Do you ship abroad?", "Hello!",
		"What is your return policy?", "Can I pay by invoice?"} {
		replies = append(replies, uiAsk(t, h, key, q))
	}
	if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/feedback", key,
		url.Values{"messageId": {fmt.Sprint(replies[4])}, "rating": {"not_helpful"}, "comment": {"Wrong"}}, nil); st != http.StatusOK {
		t.Errorf("feedback: HTTP %d", st)
	}
	if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/embedTokenCreate", key,
		url.Values{"domains": {"shop.example"}}, nil); st != http.StatusOK {
		t.Errorf("embedTokenCreate: HTTP %d", st)
	}

	var results []*uiAxeResult
	check := func(u *uiTab, name, path string, want int64) {
		t.Helper()
		r := &uiAxeResult{page: name}
		results = append(results, r)
		st := u.open(path)
		if st != want {
			// An error page instead: nothing of this page to check.
			r.note = fmt.Sprintf("HTTP %d", st)
			t.Errorf("%s (%s): HTTP %d, want %d", name, path, st, want)
			return
		}
		u.axeInto(t, src, r)
	}

	// Signed out.
	anon := uiOpen(t, bctx, h.srv.URL)
	check(anon, "sign-in", "/dashboard/login", http.StatusOK)
	// axe finds what it should: an image without a text alternative, put in for a moment.
	found := uiMust[[]string](anon, `(() => { const d = document.createElement('div'); d.id = 'axe-probe';
		d.innerHTML = '<img src="/dashboard/assets/favicon.svg">'; document.body.append(d);
		return axe.run('#axe-probe', {resultTypes: ['violations']})
			.then(r => { d.remove(); return r.violations.map(v => v.id); }); })()`, chromedp.EvalAwaitPromise)
	if !slices.Contains(found, "image-alt") {
		t.Fatalf("axe-core did not find an image without alt (found %v): the check is not working", found)
	}
	check(anon, "forgot password", "/dashboard/forgot", http.StatusOK)
	check(anon, "invalid reset link", "/dashboard/reset/not-a-valid-token", http.StatusNotFound)

	// An owner: every navigation entry, then what their lists link to.
	owner := uiOpen(t, bctx, h.srv.URL)
	owner.signIn(email, pw)
	want := []string{"/dashboard/", "/dashboard/conversations", "/dashboard/review", "/dashboard/kb",
		"/dashboard/assistant", "/dashboard/widget", "/dashboard/studio", "/dashboard/developer",
		"/dashboard/billing", "/dashboard/team"}
	navLinks := owner.links(`nav.sidebar a, nav[aria-label] a`)
	for _, p := range want {
		if !slices.Contains(navLinks, p) {
			t.Errorf("the navigation lacks %s (it has %v)", p, navLinks)
		}
	}
	pages := append(append([]string(nil), want...), "/dashboard/profile")
	for _, p := range navLinks {
		if !slices.Contains(pages, p) {
			pages = append(pages, p)
		}
	}
	// Then the pages of each entry that its pages link to (lists to their detail pages, tabs
	// to their views, a preview's frame), one of each kind (numbers aside, the names of the
	// query's fields alone), following links two deep.
	seen := map[string]bool{}
	var details []string
	below := func(section string) {
		t.Helper()
		if section == "/dashboard/" || owner.status() != http.StatusOK {
			return
		}
		for _, l := range owner.links(`main a[href^="` + section + `"], main iframe[src^="` + section + `"]`) {
			if s := uiShape(l); !seen[s] && !strings.HasSuffix(l, ".csv") && !strings.Contains(l, ".json") {
				seen[s] = true
				details = append(details, l)
			}
		}
	}
	for _, p := range pages {
		seen[uiShape(p)] = true
		check(owner, p, p, http.StatusOK)
		below(p)
	}
	for i := 0; i < len(details) && i < 40; i++ {
		p := details[i]
		check(owner, p, p, http.StatusOK)
		for _, section := range pages {
			if section != "/dashboard/" && strings.HasPrefix(p, section) && strings.Count(p, "/") <= 5 {
				below(section)
			}
		}
	}
	for _, want := range []string{"/dashboard/conversations/{n}", "/dashboard/kb/documents/{n}", "/dashboard/kb/qa/new"} {
		if !seen[want] {
			t.Errorf("no page links to %s", want)
		}
	}
	// The overview in Turkish and German, switched with the header's language form.
	for _, lang := range []string{"tr", "de", "en"} {
		owner.open("/dashboard/")
		if !uiMust[bool](owner, `!!document.querySelector('header select[name="lang"]')`) {
			t.Errorf("the header has no language form")
			break
		}
		owner.navigatesBy("switch to "+lang, func() {
			owner.js(`(() => { const s = document.querySelector('header select[name="lang"]'); s.value = ` + uiJS(lang) + `;
				s.dispatchEvent(new Event('change', {bubbles: true})); })()`)
		})
		if got := uiMust[string](owner, `document.documentElement.lang`); got != lang {
			t.Errorf("after switching to %s the page's lang is %q", lang, got)
			continue
		}
		if lang != "en" {
			check(owner, "overview ("+lang+")", "/dashboard/", http.StatusOK)
		}
	}

	// An agent on the overview.
	agent := uiOpen(t, bctx, h.srv.URL)
	agent.signIn(agentEmail, agentPW)
	check(agent, "overview (agent)", "/dashboard/", http.StatusOK)

	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "\n  %-40s serious/critical %d, moderate/minor %d", r.page, len(r.serious), len(r.minor))
		if r.note != "" {
			fmt.Fprintf(&b, "  (%s)", r.note)
		}
		for _, v := range r.minor {
			fmt.Fprintf(&b, "\n      minor: %s [%s] %s", v.ID, v.Impact, v.Help)
		}
	}
	t.Logf("axe-core on %d pages:%s", len(results), b.String())
}

// axeInto runs axe on the tab's page and records (and reports) what it found.
func (u *uiTab) axeInto(t *testing.T, src string, r *uiAxeResult) {
	t.Helper()
	vs, err := u.axe(src)
	if err != nil {
		t.Errorf("%s: axe: %v", r.page, err)
		r.note = "axe failed"
		return
	}
	for _, v := range vs {
		if v.serious() {
			r.serious = append(r.serious, v)
			t.Errorf("%s (%s): %s", r.page, u.location(), v)
		} else {
			r.minor = append(r.minor, v)
		}
	}
}
