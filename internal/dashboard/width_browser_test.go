package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"svc/internal/kb"
	"svc/internal/store"
)

// uiWidths are the viewport widths every page must fit: a phone's and a laptop's.
var uiWidths = []int64{390, 1280}

// TestBrowserNoPageIsWiderThanThePhone opens every page of the dashboard, in each language,
// at 390 and 1280 px and fails any that is wider than the viewport
// (document.documentElement.scrollWidth > innerWidth): on a phone that hides what is past
// the edge (the widget page's Edit, Preview and Revoke were 872 px out). The pages: signed
// out (sign-in, forgot, an invite link, a spent link), every navigation entry and the
// profile, what their lists link to two deep, and the pages a form answers with (a new
// widget token, a new key, an invite link, the try-it box). The account has rows
// everywhere, with long names, so the tables are as wide as they get.
func TestBrowserNoPageIsWiderThanThePhone(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	a, key, email, pw := h.tenant("Outdoor & Camping Supplies International GmbH")
	extra := uiSeedWideData(t, h, a, key)
	_, invite, err := h.users.AddUser(context.Background(), a.ID, "a.rather.long.address.for.a.new.colleague@example.test", store.UserAgent, "")
	if err != nil {
		t.Fatal(err)
	}
	invitePath := strings.TrimPrefix(invite, h.srv.URL)

	anon := uiOpen(t, bctx, h.srv.URL)
	owner := uiOpen(t, bctx, h.srv.URL)
	owner.signIn(email, pw)
	pages := append(uiOwnerPages(t, owner), extra...)
	t.Logf("%d pages: %v", len(pages), pages)

	var checked int
	for _, lang := range []string{"en", "tr", "de"} {
		owner.setLang(lang)
		for _, w := range uiWidths {
			anon.viewport(w)
			owner.viewport(w)
			for _, p := range []string{"/dashboard/login", "/dashboard/forgot", "/dashboard/reset/not-a-valid-token", invitePath} {
				anon.open(p + "?lang=" + lang)
				anon.fits(fmt.Sprintf("%s (%s, %d px, signed out)", p, lang, w))
				checked++
			}
			for _, p := range pages {
				owner.open(p)
				owner.fits(fmt.Sprintf("%s (%s, %d px)", p, lang, w))
				checked++
			}
			// The pages a form answers with, which no link leads to.
			owner.open("/dashboard/widget")
			owner.fill(`form[action="/dashboard/widget/tokens"] [name="domains"]`, "shop.example\nwww.a-long-domain-name-for-the-shop.example")
			owner.submit("create a widget token", `form[action="/dashboard/widget/tokens"] button[type="submit"]`)
			owner.fits(fmt.Sprintf("the new widget token (%s, %d px)", lang, w))
			owner.open("/dashboard/team")
			owner.fill(`form[action="/dashboard/team/users"] [name="email"]`, fmt.Sprintf("invited-%s-%d@a-long-domain-name.example", lang, w))
			owner.submit("invite a user", `form[action="/dashboard/team/users"] button[type="submit"]`)
			owner.fits(fmt.Sprintf("the invite link (%s, %d px)", lang, w))
			owner.open("/dashboard/assistant")
			owner.fill(`#try-message`, "How long does delivery take?")
			owner.click("try the assistant", `form[action="/dashboard/assistant/try"] button[type="submit"]`)
			owner.wait("the try-it answer", `document.querySelector('#try-result .msg-assistant')`)
			owner.fits(fmt.Sprintf("the try-it answer (%s, %d px)", lang, w))
			// The studio's results, with their tables: a full marketing plan and a data table.
			owner.open("/dashboard/studio")
			owner.fill(`#m-brief`, "A summer campaign for our lightweight two-person tents and sleeping bags")
			owner.fill(`#m-depth`, "full")
			owner.click("generate marketing copy", `form[action="/dashboard/studio/marketing"] button[type="submit"]`)
			owner.wait("the marketing result", `document.querySelector('#marketing-result h3')`)
			owner.fill(`#i-op`, "data")
			owner.fill(`#i-format`, "table")
			owner.click("ask for data", `form[action="/dashboard/studio/intelligence"] button[type="submit"]`)
			owner.wait("the data result", `document.querySelector('#intel-result table')`)
			owner.fits(fmt.Sprintf("the studio's results (%s, %d px)", lang, w))
			checked += 4
		}
	}
	// The key's rotation last but one: it signs out the key the data above was made with.
	owner.setLang("en")
	owner.viewport(390)
	owner.open("/dashboard/developer")
	owner.acceptDialogs(true)
	owner.submit("rotate the key", `form[action="/dashboard/developer/rotate"] button[type="submit"]`)
	owner.fits("the new key (en, 390 px)")
	t.Logf("%d pages checked", checked+1)

	// The tables that turn into cards on a phone keep to the accessibility rules there too
	// (last: without axe-core the test skips from here).
	src := uiAxeSource(t)
	for _, p := range []string{"/dashboard/widget", "/dashboard/team", "/dashboard/kb/qa"} {
		owner.open(p)
		owner.axeInto(t, src, &uiAxeResult{page: p + " (390 px)"})
	}
}

// uiSeedWideData gives the account rows on every page: conversations over the API and the
// widget (sources, ratings with comments, fallbacks for the review queue), widget tokens with
// long labels and domains, a Q&A entry, a colleague and ledger rows. It returns pages no list
// leads to one of each of: the API conversation's transcript and a review item.
func uiSeedWideData(t *testing.T, h *harness, a store.Account, key string) []string {
	t.Helper()
	var replies []int64
	for _, q := range []string{"How long does delivery take?", "What is your return policy?", "Hello!",
		"Can I pay by invoice?", "Do you sell spare parts for the Trailblazer Ultralight 2-person tent?"} {
		replies = append(replies, uiAsk(t, h, key, q))
	}
	for _, id := range replies[3:] {
		if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/feedback", key, url.Values{"messageId": {fmt.Sprint(id)},
			"rating": {"not_helpful"}, "comment": {"Not what I asked: I wanted to know about the Trailblazer's spare poles."}}, nil); st != http.StatusOK {
			t.Fatalf("feedback: HTTP %d", st)
		}
	}
	token, _ := cvToken(t, h, key, "The shop's long-named storefront widget for the summer campaign")
	for i, q := range []string{"Do you ship abroad?", "What does shipping to Germany cost?"} {
		s := cvWidgetAsk(t, h, token, cvVisitor(i+1), q)
		cvWidgetRate(t, h, token, cvVisitor(i+1), s.reply().ID, "helpful", "")
	}
	if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/embedTokenCreate", key, url.Values{
		"domains": {"shop.example\nwww.a-very-long-subdomain-of-the-outdoor-shop.example"}}, nil); st != http.StatusOK {
		t.Fatalf("embedTokenCreate: HTTP %d", st)
	}
	if _, err := h.accounts.AddBalance(context.Background(), a.ID, 20_000_000, "balance add"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.users.AddUser(context.Background(), a.ID, "agent.with.a.long.name@outdoor-supplies.example", store.UserAgent, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	recs, err := kb.ParseJSONL(strings.NewReader(`{"type":"qa","question":"Do you offer gift wrapping for orders with several items?","answer":"Yes: gift wrapping costs 2 USD per order.","lang":"en"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := kb.BuildAll(recs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.ImportDocuments(context.Background(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	var sent uiSent
	if st := uiAPI(t, h, http.MethodGet, "/api/v1/chat/sync", key, nil, &sent); st != http.StatusOK || sent.ConversationID == 0 {
		t.Fatalf("sync: HTTP %d, conversation %d", st, sent.ConversationID)
	}
	return []string{fmt.Sprintf("/dashboard/conversations/%d", sent.ConversationID),
		fmt.Sprintf("/dashboard/review/rated/%d", replies[3])}
}

// uiOwnerPages lists the pages an owner reaches: the navigation's entries, the profile, and
// one page of each kind their pages link to (a list's detail pages, tabs, a preview's
// frame), two links deep; downloads left out.
func uiOwnerPages(t *testing.T, u *uiTab) []string {
	t.Helper()
	u.open("/dashboard/")
	pages := append(u.links(`nav.sidebar a`), "/dashboard/profile")
	seen := map[string]bool{}
	for _, p := range pages {
		seen[uiShape(p)] = true
	}
	for i := 0; i < len(pages) && i < 80; i++ {
		p := pages[i]
		if p == "/dashboard/" || strings.Count(strings.TrimSuffix(p, "/"), "/") > 5 {
			continue
		}
		if st := u.open(p); st != http.StatusOK {
			t.Errorf("%s: HTTP %d", p, st)
			continue
		}
		for _, l := range u.links(`main a[href^="/dashboard/"], main iframe[src^="/dashboard/"]`) {
			if s := uiShape(l); !seen[s] && !strings.HasSuffix(l, ".csv") && !strings.Contains(l, "visitor-data") {
				seen[s] = true
				pages = append(pages, l)
			}
		}
	}
	for _, want := range []string{"/dashboard/conversations/{n}", "/dashboard/kb/documents/{n}", "/dashboard/widget/tokens/{n}/edit",
		"/dashboard/widget/tokens/{n}/preview?color&lang"} {
		if !seen[want] {
			t.Errorf("no page links to %s", want)
		}
	}
	return pages
}

// viewport sets the tab's viewport width (and a phone's or a laptop's height).
func (u *uiTab) viewport(width int64) {
	u.t.Helper()
	height := int64(900)
	if width < 600 {
		height = 844
	}
	u.must(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, height))
}

// setLang switches the signed-in user's language with the header's form.
func (u *uiTab) setLang(lang string) {
	u.t.Helper()
	u.open("/dashboard/profile")
	u.navigatesBy("switch to "+lang, func() {
		u.js(`(() => { const s = document.querySelector('header select[name="lang"]'); s.value = ` + uiJS(lang) + `;
			s.dispatchEvent(new Event('change', {bubbles: true})); })()`)
	})
	if got := uiMust[string](u, `document.documentElement.lang`); got != lang {
		u.t.Fatalf("after switching to %s the page's lang is %q", lang, got)
	}
}

// uiOverflow is what uiFitsJS finds: the document's and the viewport's width, and the
// elements whose box ends past the viewport's right edge: outside any box that scrolls, or
// positioned (a box that scrolls does not hold an absolute element it does not contain).
type uiOverflow struct {
	ScrollWidth, InnerWidth int
	Past                    []string
}

const uiFitsJS = `(() => {
	const w = innerWidth, out = [];
	const scrolls = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
		const s = getComputedStyle(p); if (s.overflowX !== 'visible' && p.getBoundingClientRect().right <= w + 1) return true; } return false; };
	for (const e of document.body.querySelectorAll('*')) {
		const r = e.getBoundingClientRect();
		const pos = getComputedStyle(e).position;
		if (r.right > w + 1 && r.width > 0 && (pos === 'absolute' || pos === 'fixed' || !scrolls(e)) && out.length < 8) {
			out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
				' right=' + Math.round(r.right) + ' ' + JSON.stringify((e.innerText || '').slice(0, 40)));
		}
	}
	return {ScrollWidth: document.documentElement.scrollWidth, InnerWidth: w, Past: out};
})()`

// uiCutSelectsJS lists the selects whose shown text does not fit their box: the chosen
// option's, and for a language choice every option's (each is the text of someone's
// choice). A copy of the select sized to its text alone says how wide it needs to be.
const uiCutSelectsJS = `(() => {
	const out = [];
	for (const s of document.querySelectorAll('select')) {
		if (!s.offsetParent) continue;
		const opts = s.name === 'lang' ? [...s.options] : [...s.selectedOptions];
		for (const o of opts) {
			const c = s.cloneNode(false);
			c.removeAttribute('id');
			c.append(new Option(o.text));
			c.style.cssText = 'width:auto;min-width:0;max-width:none;position:absolute;visibility:hidden';
			s.parentElement.append(c);
			const need = c.getBoundingClientRect().width, has = s.getBoundingClientRect().width;
			c.remove();
			if (need > has + 0.5) out.push((s.id || s.name) + ': ' + JSON.stringify(o.text) + ' needs ' + Math.ceil(need) + ' px, has ' + Math.floor(has));
		}
	}
	return out;
})()`

// uiHiddenButtonsJS lists the buttons of main (and links drawn as buttons) that are not on
// the screen: past the viewport's edge, or past the edge of a box that scrolls sideways, so
// that a person would have to find and scroll that box to reach them.
const uiHiddenButtonsJS = `(() => {
	const out = [];
	for (const b of document.querySelectorAll('main button, main .btn')) {
		const r = b.getBoundingClientRect();
		if (!b.offsetParent || r.width === 0 || b.closest('.sr-only')) continue;
		let left = 0, right = innerWidth;
		for (let p = b.parentElement; p; p = p.parentElement) {
			if (getComputedStyle(p).overflowX !== 'visible') {
				const pr = p.getBoundingClientRect();
				left = Math.max(left, pr.left); right = Math.min(right, pr.right);
			}
		}
		if (r.left < left - 1 || r.right > right + 1) {
			out.push(JSON.stringify(b.innerText.trim().slice(0, 40)) + ' at ' + Math.round(r.left) + '–' + Math.round(r.right) +
				', the visible part ' + Math.round(left) + '–' + Math.round(right));
		}
	}
	return out.slice(0, 8);
})()`

// uiWrappedDatesJS lists the dates of tables (td.date, th.date) that take more than one
// line: a day broken at its hyphen ("2026-11-" over "27") is hard to read.
const uiWrappedDatesJS = `(() => {
	const out = [];
	for (const e of document.querySelectorAll('td.date, th.date')) {
		if (!e.offsetParent) continue;
		const r = document.createRange();
		r.selectNodeContents(e);
		const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
		if (tops.size > 1) out.push(JSON.stringify(e.innerText));
	}
	return out.slice(0, 8);
})()`

// fits fails the test when the tab's page is wider than the viewport, naming what sticks out.
func (u *uiTab) fits(what string) {
	u.t.Helper()
	o := uiMust[uiOverflow](u, uiFitsJS)
	if o.ScrollWidth > o.InnerWidth {
		u.t.Errorf("%s at %s: the page is %d px wide in a %d px viewport; past the edge:\n  %s",
			what, u.location(), o.ScrollWidth, o.InnerWidth, strings.Join(o.Past, "\n  "))
	}
	if off := uiMust[[]string](u, uiHiddenButtonsJS); len(off) > 0 {
		u.t.Errorf("%s at %s: buttons are off the screen:\n  %s", what, u.location(), strings.Join(off, "\n  "))
	}
	if wrapped := uiMust[[]string](u, uiWrappedDatesJS); len(wrapped) > 0 {
		u.t.Errorf("%s at %s: dates take two lines: %s", what, u.location(), strings.Join(wrapped, ", "))
	}
	if cut := uiMust[[]string](u, uiCutSelectsJS); len(cut) > 0 {
		u.t.Errorf("%s at %s: a select's text is cut off:\n  %s", what, u.location(), strings.Join(cut, "\n  "))
	}
	if !slices.Contains(uiWidths, int64(o.InnerWidth)) {
		u.t.Errorf("%s: the viewport is %d px wide, not one of %v", what, o.InnerWidth, uiWidths)
	}
}
