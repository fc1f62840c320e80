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

// TestTranscriptNamesASourceOnceInTheReadersWords: a reply that quotes a page ends with
// the engine's source line ("Source: Payment (https://…)"); the transcript lists the source
// as a link under the reply and leaves that line out of the text, so the source is named
// once. The badges name the reply's source in the reader's language, never as its code
// (ai, cache_tenant, cache_shared).
func TestTranscriptNamesASourceOnceInTheReadersWords(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	paid := cvAsk(t, h, key, "Which payment methods do you accept?")
	cvAsk(t, h, key, "How long does delivery take?")
	cvAsk(t, h, key, "hello")
	reply := paid.reply()
	if len(reply.Sources) == 0 || reply.Sources[0].URL == "" {
		t.Fatalf("the composed reply names no page: %+v", reply)
	}
	src := reply.Sources[0]
	line := "Source: " + src.Title + " (" + src.URL + ")"
	text, found := strings.CutSuffix(reply.Body, "\n"+line)
	if !found {
		t.Fatalf("the reply does not end with its source line %q: %q", line, reply.Body)
	}
	b := h.browser()
	b.signIn(email, pw)
	path := "/dashboard/conversations/" + strconv.FormatInt(paid.ConversationID, 10)
	for _, lang := range []string{"en", "tr", "de"} {
		if p := b.post("/dashboard/profile/lang", url.Values{"lang": {lang}}); p.Status != http.StatusSeeOther {
			t.Fatalf("set language %s: %d", lang, p.Status)
		}
		p := b.get(path)
		if p.Status != http.StatusOK {
			t.Fatalf("%s transcript: %d", lang, p.Status)
		}
		mustContain(t, p.Body, `<p class="msg-body">`+html.EscapeString(text)+`</p>`,
			`<a href="`+html.EscapeString(src.URL)+`" rel="noopener noreferrer nofollow" target="_blank">`+html.EscapeString(src.Title)+`</a>`)
		if strings.Contains(p.Body, html.EscapeString(line)) {
			t.Errorf("%s: the transcript shows the source line as well as the sources list", lang)
		}
		for _, code := range []string{"ai", "cache_tenant", "cache_shared"} {
			if strings.Contains(p.Body, `">`+code+`</span>`) {
				t.Errorf("%s: a badge shows the source code %q", lang, code)
			}
		}
		want := map[string][]string{
			"en": {`src-ai">AI answer<`, `src-cache_tenant">Saved answer<`, `src-cache_shared">Small talk<`},
			"tr": {`src-ai">Yapay zekâ yanıtı<`, `src-cache_tenant">Kayıtlı yanıt<`, `src-cache_shared">Sohbet<`},
			"de": {`src-ai">KI-Antwort<`, `src-cache_tenant">Gespeicherte Antwort<`, `src-cache_shared">Smalltalk<`},
		}[lang]
		mustContain(t, p.Body, want...)
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
