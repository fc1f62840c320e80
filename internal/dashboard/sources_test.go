package dashboard_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"svc/internal/kb"
)

// TestTranscriptShowsEachReplysSources: the transcript lists the documents each reply quoted,
// a page as a link that opens a new tab, a Q&A entry (no page) as text, and markup in a
// title as text.
func TestTranscriptShowsEachReplysSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Shop")
	recs, err := kb.ParseJSONL(strings.NewReader(`{"type":"qa","question":"Do you offer <b>gift wrapping</b> & cards?","answer":"Yes: gift wrapping costs 25 TL per order.","lang":"en"}` + "\n"))
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
	paid := cvAsk(t, h, key, "Which payment methods do you accept?")
	gift := cvAsk(t, h, key, "Do you offer gift wrapping & cards?")
	cvAsk(t, h, key, "hello")
	page := paid.reply().Sources
	if len(page) == 0 || page[0].URL == "" {
		t.Fatalf("the composed reply names no page: %+v", paid.reply())
	}
	if s := gift.reply().Sources; len(s) != 1 || s[0].URL != "" {
		t.Fatalf("the curated reply's sources: %+v", s)
	}
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/conversations/" + strconv.FormatInt(paid.ConversationID, 10))
	if p.Status != http.StatusOK {
		t.Fatalf("transcript: %d", p.Status)
	}
	mustContain(t, p.Body,
		`<a href="`+html.EscapeString(page[0].URL)+`" rel="noopener noreferrer nofollow" target="_blank">`+html.EscapeString(page[0].Title)+`</a>`,
		`<span>Do you offer &lt;b&gt;gift wrapping&lt;/b&gt; &amp; cards?</span>`)
	if n := strings.Count(p.Body, `class="msg-sources"`); n != 2 {
		t.Errorf("%d source lists, want 2 (the composed and the curated reply; small talk quotes nothing)", n)
	}
	if strings.Contains(p.Body, "<b>gift wrapping</b>") {
		t.Error("a source title became markup")
	}
}

// TestWidgetTokenFormSetsShowSources: the token form's "Show sources" box is checked for a
// new token, saved as sent, shown again on the edit page, and read by the widget's start.
func TestWidgetTokenFormSetsShowSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	mustContain(t, b.get("/dashboard/widget").Body, `name="show_sources" value="1" checked`)
	tok, id := b.createEmbedToken(url.Values{"domains": {"shop.example.com"}, "show_sources": {"1"}})
	sid := strconv.FormatInt(id, 10)
	startShows := func() bool {
		t.Helper()
		code, _, body := h.callWidget(http.MethodGet, "start", tok, "https://shop.example.com", "")
		if code != http.StatusOK {
			t.Fatalf("start: %d %s", code, body)
		}
		return strings.Contains(body, `"showSources":true`)
	}
	if !startShows() {
		t.Fatal("a token created with the box checked hides the sources")
	}
	mustContain(t, b.get("/dashboard/widget/tokens/"+sid+"/edit").Body, `name="show_sources" value="1" checked`)
	// A checkbox left unchecked is not sent at all.
	if p := b.post("/dashboard/widget/tokens/"+sid, url.Values{"domains": {"shop.example.com"}, "daily_budget_usd": {"1"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("update: %d %s", p.Status, p.Body)
	}
	if startShows() {
		t.Fatal("unchecking the box did not hide the sources")
	}
	if edit := b.get("/dashboard/widget/tokens/" + sid + "/edit").Body; strings.Contains(edit, `name="show_sources" value="1" checked`) ||
		!strings.Contains(edit, `name="show_sources"`) {
		t.Fatal("the edit page does not show the box unchecked")
	}
}
