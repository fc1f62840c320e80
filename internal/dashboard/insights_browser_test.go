package dashboard_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
	"svc/internal/store/storetest"
)

// uiTopicCard is a topic card of the overview as the browser shows it.
type uiTopicCard struct {
	Section, Lang, Name string
	Figures             map[string]string
	Counts              string
	Examples            []string
	Actions             []uiAction
	Notes               []string // what stands in for an action ("Answered in the review")
}

// uiAction is a link of a declined question: its visible words, where it leads, the
// question it belongs to, and whether it is on the screen's width.
type uiAction struct {
	Text, Href, Question string
	Visible              bool
}

const uiTopicsJS = `[...document.querySelectorAll('section.insights li.topic')].map(li => ({
	Section: li.closest('section').getAttribute('aria-labelledby'),
	Lang: li.closest('ul.topics').getAttribute('aria-labelledby').split('-').pop(),
	Name: li.querySelector('h4').innerText.trim(),
	Figures: Object.fromEntries([...li.querySelectorAll('dl div')].map(d => [d.querySelector('dt').innerText.trim(), d.querySelector('dd').innerText.trim()])),
	Counts: (li.querySelector('.topic-counts') || {innerText: ''}).innerText.trim(),
	Examples: [...li.querySelectorAll('q')].map(q => q.textContent),
	Actions: [...li.querySelectorAll('a')].map(a => { const r = a.getBoundingClientRect(); return {
		Text: [...a.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim(),
		Href: a.getAttribute('href'), Question: a.closest('li').querySelector('q').textContent,
		Visible: r.width > 0 && r.left >= 0 && r.right <= innerWidth}; }),
	Notes: [...li.querySelectorAll('.actions > .muted')].map(s => s.innerText.trim()),
}))`

// uiCardOf is the card named name of a language in a section (o-topics or o-declined).
func uiCardOf(t *testing.T, cards []uiTopicCard, section, lang, name string) uiTopicCard {
	t.Helper()
	for _, c := range cards {
		if c.Section == section && c.Lang == lang && c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s card %s %q among %+v", section, lang, name, cards)
	return uiTopicCard{}
}

// clickAction follows the link text of the declined question q, as a person would.
// openOverview opens the overview and waits for its insights, which htmx loads after the
// page.
func (u *uiTab) openOverview() int64 {
	st := u.open("/dashboard/")
	u.wait("the overview's insights", `document.getElementById("o-topics") !== null`)
	return st
}

func (u *uiTab) clickAction(text, q string) {
	u.t.Helper()
	u.navigatesBy(text+" of "+q, func() {
		u.js(fmt.Sprintf(`(() => { const a = [...document.querySelectorAll('section[aria-labelledby="o-declined"] a')]
			.find(a => a.closest('li').querySelector('q').textContent === %s && a.textContent.startsWith(%s));
			if (!a) throw new Error('no link'); a.click(); })()`, uiJS(q), uiJS(text)))
	})
}

// TestBrowserOverviewInsights seeds a month of answered, declined and rated questions in
// three languages and reads the overview in Chromium, as an owner and as an agent: the
// topics with their counts, rates and ratings, the declined questions by topic with their
// actions on the screen of a phone, visitors' markup shown as text. The owner answers a
// declined question through "Answer this" (a curated Q&A entry, filled in) and another
// through its review item, which the overview then shows as answered; the agent opens a
// review item the same way. axe-core finds nothing serious on the page at 390 and 1280 px.
func TestBrowserOverviewInsights(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	clock := &storetest.Clock{}
	h := newHarness(t, withClock(clock.Now))
	a, _, email, pw := h.tenant("Insight Shop")
	inSeed(t, h, clock, a.ID)
	agentEmail, agentPw := h.user(a.ID, store.UserAgent)

	// The agent first: the owner then answers questions.
	for _, who := range []struct{ role, email, pw string }{{"agent", agentEmail, agentPw}, {"owner", email, pw}} {
		u := uiOpen(t, bctx, h.srv.URL)
		u.signIn(who.email, who.pw)
		u.viewport(390)
		if st := u.openOverview(); st != http.StatusOK {
			t.Fatalf("%s: overview HTTP %d", who.role, st)
		}
		u.fits(who.role + "'s overview with insights (390 px)")
		cards := uiMust[[]uiTopicCard](u, uiTopicsJS)
		var names []string
		for _, c := range cards {
			names = append(names, c.Section+" "+c.Lang+" "+c.Name)
		}
		want := []string{"o-topics tr iade", "o-topics tr kargo", "o-topics en order", "o-topics en Other questions",
			"o-topics de Lieferung", "o-declined en order", "o-declined tr iade", "o-declined de Other declined questions"}
		if !slices.Equal(names, want) {
			t.Fatalf("%s: cards\n %q\nwant %q", who.role, names, want)
		}
		iade := uiCardOf(t, cards, "o-topics", "tr", "iade")
		for k, v := range map[string]string{"30 days": "4", "7 days": "2", "Answered": "50.0%", "Declined": "50.0%",
			"Rated helpful": "50.0% of 2 ratings"} {
			if iade.Figures[k] != v {
				t.Errorf("%s: tr iade %s is %q, want %q", who.role, k, iade.Figures[k], v)
			}
		}
		if o := uiCardOf(t, cards, "o-topics", "en", "order"); o.Figures["Declined"] != "75.0%" || o.Figures["7 days"] != "3" {
			t.Errorf("%s: en order %+v", who.role, o.Figures)
		}
		// Every declined question has its two actions (but the one answered in the review,
		// which says so), each on the phone's screen.
		declined := uiCardOf(t, cards, "o-declined", "en", "order")
		if declined.Counts != "3 in 30 days · 2 in 7 days" || !slices.Equal(declined.Notes, []string{"Answered in the review"}) {
			t.Errorf("%s: en declined order %+v", who.role, declined)
		}
		var acts []string
		for _, c := range cards {
			for _, ac := range c.Actions {
				acts = append(acts, ac.Text+": "+ac.Question)
				if !ac.Visible {
					t.Errorf("%s: %q of %q is off the screen", who.role, ac.Text, ac.Question)
				}
				if ac.Text == "Add as a test" && !strings.HasPrefix(ac.Href, "/dashboard/tests/new?lang=") {
					t.Errorf("%s: add as a test leads to %s", who.role, ac.Href)
				}
			}
		}
		wantActs := []string{"Answer this: Can I cancel my order?", "Add as a test: Can I cancel my order?",
			"Answer this: " + inXSS, "Add as a test: " + inXSS, "Add as a test: How do I track my orders?",
			"Answer this: İadeyi nasıl yaparım?", "Add as a test: İadeyi nasıl yaparım?",
			"Answer this: İadesi ne kadar sürer?", "Add as a test: İadesi ne kadar sürer?",
			"Answer this: Wann wird geliefert?", "Add as a test: Wann wird geliefert?"}
		if !slices.Equal(acts, wantActs) {
			t.Errorf("%s: actions\n %q\nwant %q", who.role, acts, wantActs)
		}
		// The visitor's markup is text: no element came of it.
		if n := uiMust[int](u, `document.querySelectorAll('main img').length`); n != 0 {
			t.Errorf("%s: %d img elements in the overview", who.role, n)
		}

		if who.role == "agent" {
			// "Answer this" of an open item is its review item, with its form.
			u.clickAction("Answer this", "Wann wird geliefert?")
			if p := u.location(); !strings.HasPrefix(p, "/dashboard/review/fallback/") || u.status() != http.StatusOK {
				t.Errorf("agent: answer this led to %s (HTTP %d)", p, u.status())
			}
			if !uiMust[bool](u, `!!document.querySelector('main textarea[name="answer"]')`) {
				t.Error("agent: the review item has no answer form")
			}
			continue
		}

		// The owner: a dismissed question is answered as a new curated entry, filled in.
		u.clickAction("Answer this", "Can I cancel my order?")
		if p := u.location(); !strings.HasPrefix(p, "/dashboard/kb/qa/new?") {
			t.Fatalf("answer this of a dismissed question led to %s", p)
		}
		if q := uiMust[string](u, `document.querySelector('#qa-question').value`); q != "Can I cancel my order?" {
			t.Errorf("the Q&A editor's question: %q", q)
		}
		if l := uiMust[string](u, `document.querySelector('#qa-lang').value`); l != "en" {
			t.Errorf("the Q&A editor's language: %q", l)
		}
		u.fill("#qa-answer", "Write to us within an hour of ordering.")
		u.submit("save the entry", `form[action="/dashboard/kb/qa"] button[type="submit"]`)
		if p := u.location(); p != "/dashboard/kb/qa" || !strings.Contains(u.text("main"), "Can I cancel my order?") {
			t.Errorf("after saving: %s %.200q", p, u.text("main"))
		}
		// An open one through its review item; the overview then shows it answered.
		u.openOverview()
		u.clickAction("Answer this", "İadeyi nasıl yaparım?")
		u.answerReview("İadeyi nasıl yaparım?", "Hesabınızdaki Siparişlerim sayfasından iade talebi oluşturun.")
		u.openOverview()
		cards = uiMust[[]uiTopicCard](u, uiTopicsJS)
		tr := uiCardOf(t, cards, "o-declined", "tr", "iade")
		if !slices.Equal(tr.Notes, []string{"Answered in the review"}) || len(tr.Actions) != 3 ||
			tr.Actions[0].Text != "Add as a test" || tr.Actions[0].Question != "İadeyi nasıl yaparım?" {
			t.Errorf("the answered question's card: %+v", tr)
		}
		// Accessible at a phone's width and a laptop's.
		src := uiAxeSource(t)
		for _, w := range uiWidths {
			u.viewport(w)
			u.openOverview()
			u.fits(fmt.Sprintf("the overview with insights (%d px)", w))
			u.axeInto(t, src, &uiAxeResult{page: fmt.Sprintf("overview with insights (%d px)", w)})
		}
	}
}
