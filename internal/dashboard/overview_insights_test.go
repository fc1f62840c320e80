package dashboard_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/storetest"
)

// inTurn is one question of the insights' seed: how long ago it was asked, in which
// language, the source of its reply, the reply's rating and what became of its review item.
type inTurn struct {
	ago                                    time.Duration
	lang, question, source, rating, review string
}

const (
	inHour = time.Hour
	inDay  = 24 * time.Hour
	inXSS  = `<img src=x onerror=alert(1)> order?`
)

// inTurns are a shop's month of questions in three languages: answered (by the engine and
// by a curated answer), declined (open, dismissed and answered in the review), one a system
// notice stood in for, small talk, one before the window, and ratings.
var inTurns = []inTurn{
	{20 * inDay, "tr", "İade nasıl yapılır?", store.SourceAI, store.RatingHelpful, ""},
	{10 * inDay, "tr", "İadesi ne kadar sürer?", store.SourceFallback, "", ""},
	{2 * inDay, "tr", "Ürünü iade edebilir miyim?", store.SourceAI, store.RatingNotHelpful, ""},
	{1 * inHour, "tr", "İadeyi nasıl yaparım?", store.SourceFallback, "", ""},
	{3 * inDay, "tr", "Kargom nerede?", store.SourceAI, "", ""},
	{1 * inHour, "tr", "Kargo ücreti ne kadar?", store.SourceCacheTenant, store.RatingHelpful, ""},
	{1 * inHour, "tr", "Merhaba", store.SourceCacheShared, "", ""},
	{5 * inDay, "en", "Where is my order?", store.SourceAI, store.RatingHelpful, ""},
	{1 * inHour, "en", "Can I cancel my order?", store.SourceFallback, "", store.QuestionReviewDismissed},
	{25 * inDay, "en", "How do I track my orders?", store.SourceFallback, "", store.QuestionReviewResolved},
	{2 * inHour, "en", inXSS, store.SourceFallback, "", ""},
	{3 * inHour, "en", "Are you open on Sunday?", store.SourceSystem, "", ""},
	{1 * inDay, "de", "Wie lange dauert die Lieferung?", store.SourceAI, "", ""},
	{4 * inDay, "de", "Wann wird geliefert?", store.SourceFallback, "", ""},
	{12 * inDay, "de", "Lieferzeit nach Österreich", store.SourceAI, store.RatingHelpful, ""},
	{40 * inDay, "de", "Alte Frage zur Lieferung", store.SourceAI, "", ""},
}

// inSeed saves inTurns into the account straight through the store, each at its time on
// clock (the harness's), rates their replies and closes their review items, and returns the
// turns by question.
func inSeed(t testing.TB, h *harness, clock *storetest.Clock, accountID int64) map[string]store.Turn {
	t.Helper()
	ctx := context.Background()
	c, err := h.st.OpenConversation(ctx, accountID, "tr")
	if err != nil {
		t.Fatal(err)
	}
	events := map[string]store.Charge{store.SourceAI: {EventType: store.EventAnswer, AmountMicro: 2_000},
		store.SourceCacheTenant: {EventType: store.EventCacheTenant}, store.SourceFallback: {EventType: store.EventFallback},
		store.SourceCacheShared: {EventType: store.EventCacheShared}, store.SourceSystem: {EventType: store.EventSystem}}
	turns := map[string]store.Turn{}
	for _, it := range inTurns {
		via := ""
		if it.source == store.SourceCacheTenant {
			via = store.ViaCurated
		}
		low := it.source == store.SourceFallback || it.source == store.SourceSystem
		tr := store.Turn{AccountID: accountID, ConversationID: c.ID, Lang: it.lang,
			User:   store.Message{Role: store.RoleUser, Body: it.question, Source: it.source, Lang: it.lang},
			Reply:  store.Message{Role: store.RoleAssistant, Body: "…", Source: it.source, Via: via, Lang: it.lang, LowConfidence: low},
			Charge: events[it.source]}
		clock.Advance(-it.ago)
		err := h.st.SaveTurn(ctx, &tr)
		clock.Advance(it.ago)
		if err != nil {
			t.Fatalf("save %q: %v", it.question, err)
		}
		if it.rating != "" {
			if err := h.st.SaveFeedback(ctx, &store.Feedback{AccountID: accountID, MessageID: tr.Reply.ID, Rating: it.rating}); err != nil {
				t.Fatal(err)
			}
		}
		switch it.review {
		case store.QuestionReviewResolved:
			doc, err := kb.CuratedAnswer(it.question, "Under Orders in your account.", it.lang)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.st.ResolveFallback(ctx, accountID, tr.User.ID, &doc); err != nil {
				t.Fatal(err)
			}
		case store.QuestionReviewDismissed:
			if err := h.st.DismissReview(ctx, accountID, store.ReviewFallback, tr.User.ID); err != nil {
				t.Fatal(err)
			}
		}
		turns[it.question] = tr
	}
	return turns
}

// inTopic is a topic card as the page shows it.
type inTopic struct {
	Lang     string            // the language heading it is under
	Name     string            // its heading
	Figures  map[string]string // dt → dd, tags stripped
	Counts   string            // the declined card's counts line
	Examples []string          // the questions, unescaped
	Links    []string          // the links' targets, unescaped
	Answered int               // "Answered in the review" notes
}

var (
	inTagRE     = regexp.MustCompile(`<[^>]+>`)
	inMarkRE    = regexp.MustCompile(`<h3 id="o-(?:topics|declined)-([a-z]+)">|<li class="topic">`)
	inH4RE      = regexp.MustCompile(`<h4[^>]*>([^<]*)</h4>`)
	inFigureRE  = regexp.MustCompile(`<dt>([^<]*)</dt><dd>(.*?)</dd>`)
	inCountsRE  = regexp.MustCompile(`<p class="topic-counts">([^<]*)</p>`)
	inExampleRE = regexp.MustCompile(`<q lang="[a-z]+">([^<]*)</q>`)
	inLinkRE    = regexp.MustCompile(`<a href="([^"]*)">`)
)

func inText(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(inTagRE.ReplaceAllString(s, ""))), " ")
}

// inSection reads the topic cards of the section whose heading has id (o-topics or
// o-declined); ok is false when the page has no such section.
func inSection(body, id string) (cards []inTopic, ok bool) {
	start := strings.Index(body, `aria-labelledby="`+id+`"`)
	if start < 0 {
		return nil, false
	}
	sec := body[start:]
	sec = sec[:strings.Index(sec, "</section>")]
	// The cards in order, each under the last language heading before it.
	marks := inMarkRE.FindAllStringSubmatchIndex(sec, -1)
	lang := ""
	for k, m := range marks {
		if m[2] >= 0 {
			lang = sec[m[2]:m[3]]
			continue
		}
		end := len(sec)
		if k+1 < len(marks) {
			end = marks[k+1][0]
		}
		part := sec[m[1]:end]
		h := inH4RE.FindStringSubmatch(part)
		if h == nil {
			continue
		}
		c := inTopic{Lang: lang, Name: html.UnescapeString(h[1]), Figures: map[string]string{}}
		for _, f := range inFigureRE.FindAllStringSubmatch(part, -1) {
			c.Figures[inText(f[1])] = inText(f[2])
		}
		if m := inCountsRE.FindStringSubmatch(part); m != nil {
			c.Counts = inText(m[1])
		}
		for _, e := range inExampleRE.FindAllStringSubmatch(part, -1) {
			c.Examples = append(c.Examples, html.UnescapeString(e[1]))
		}
		for _, l := range inLinkRE.FindAllStringSubmatch(part, -1) {
			c.Links = append(c.Links, html.UnescapeString(l[1]))
		}
		c.Answered = strings.Count(part, "Answered in the review")
		cards = append(cards, c)
	}
	return cards, true
}

func inCard(t *testing.T, cards []inTopic, lang, name string) inTopic {
	t.Helper()
	for _, c := range cards {
		if c.Lang == lang && c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s topic %q in %+v", lang, name, cards)
	return inTopic{}
}

func inTestLink(q, lang string) string {
	return "/dashboard/tests/new?" + url.Values{"q": {q}, "lang": {lang}}.Encode()
}

func inReviewLink(id int64) string { return "/dashboard/review/fallback/" + strconv.FormatInt(id, 10) }

// TestOverviewInsights: the overview groups the month's questions into topics per language
// with their counts over 30 and 7 days, answer and decline rates and ratings, and the
// declined questions the same way with "answer this" (the open review item, else a Q&A
// entry with the question filled in; nothing once answered in the review) and "add as a
// test"; visitors' text is escaped; an agent sees the same; another account sees nothing.
// On SQLite, and on PostgreSQL when one answers.
func TestOverviewInsights(t *testing.T) {
	t.Parallel()
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			clock := &storetest.Clock{}
			opts := []harnessOpt{withClock(clock.Now)}
			if pg {
				opts = append(opts, onPostgres())
			}
			h := newHarness(t, opts...)
			testOverviewInsights(t, h, clock)
		})
	}
}

func testOverviewInsights(t *testing.T, h *harness, clock *storetest.Clock) {
	a, _, email, pw := h.tenant("Shop")
	_, _, otherEmail, otherPw := h.tenant("Neighbour")
	turns := inSeed(t, h, clock, a.ID)
	owner := h.browser()
	owner.signIn(email, pw)
	// The overview shows its figures at once and loads the insights after it (htmx), or
	// links to them without JavaScript; htmx gets the fragment alone.
	ov := owner.get("/dashboard/")
	mustContain(t, ov.Body, `hx-get="/dashboard/insights"`, `<a href="/dashboard/insights">`)
	if frag := owner.hxGet("/dashboard/insights"); frag.Status != http.StatusOK || strings.Contains(frag.Body, "<html") ||
		!strings.Contains(frag.Body, `id="o-topics"`) {
		t.Fatalf("the insights fragment: %d %.200q", frag.Status, frag.Body)
	}
	p := owner.get("/dashboard/insights")
	if p.Status != http.StatusOK {
		t.Fatalf("insights: %d", p.Status)
	}
	if strings.Contains(p.Body, "<img src=x") {
		t.Fatal("a visitor's markup reached the page unescaped")
	}
	mustContain(t, p.Body, "What customers ask about", "Declined questions by topic", html.EscapeString(inXSS))

	topics, ok := inSection(p.Body, "o-topics")
	if !ok {
		t.Fatal("no topics section")
	}
	// The languages, most asked first, each with its topics, most asked first; small talk
	// and the question before the window are not counted.
	var order []string
	for _, c := range topics {
		order = append(order, c.Lang+" "+c.Name)
	}
	if got, want := strings.Join(order, " | "), "tr iade | tr kargo | en order | en Other questions | de Lieferung"; got != want {
		t.Errorf("topics %q, want %q", got, want)
	}
	for _, c := range []struct {
		lang, name string
		want       map[string]string
	}{
		{"tr", "iade", map[string]string{"30 days": "4", "7 days": "2", "Answered": "50.0%", "Declined": "50.0%",
			"Rated helpful": "50.0% of 2 ratings"}},
		{"tr", "kargo", map[string]string{"30 days": "2", "7 days": "2", "Answered": "100.0%", "Declined": "0.0%",
			"Rated helpful": "100.0% of 1 rating"}},
		{"en", "order", map[string]string{"30 days": "4", "7 days": "3", "Answered": "25.0%", "Declined": "75.0%",
			"Rated helpful": "100.0% of 1 rating"}},
		{"en", "Other questions", map[string]string{"30 days": "1", "7 days": "1", "Answered": "0.0%", "Declined": "0.0%",
			"Rated helpful": "No ratings"}},
		{"de", "Lieferung", map[string]string{"30 days": "3", "7 days": "2", "Answered": "66.7%", "Declined": "33.3%",
			"Rated helpful": "100.0% of 1 rating"}},
	} {
		card := inCard(t, topics, c.lang, c.name)
		for k, v := range c.want {
			if card.Figures[k] != v {
				t.Errorf("%s %s: %s is %q, want %q", c.lang, c.name, k, card.Figures[k], v)
			}
		}
	}
	if ex := inCard(t, topics, "tr", "iade").Examples; strings.Join(ex, " | ") != "İadeyi nasıl yaparım? | Ürünü iade edebilir miyim? | İadesi ne kadar sürer?" {
		t.Errorf("tr iade examples: %q", ex)
	}

	declined, _ := inSection(p.Body, "o-declined")
	order = order[:0]
	for _, c := range declined {
		order = append(order, c.Lang+" "+c.Name)
	}
	if got, want := strings.Join(order, " | "), "en order | tr iade | de Other declined questions"; got != want {
		t.Errorf("declined groups %q, want %q", got, want)
	}
	iade := inCard(t, declined, "tr", "iade")
	if iade.Counts != "2 in 30 days · 1 in 7 days" || strings.Join(iade.Examples, " | ") != "İadeyi nasıl yaparım? | İadesi ne kadar sürer?" {
		t.Errorf("tr declined iade: %+v", iade)
	}
	wantLinks := []string{
		inReviewLink(turns["İadeyi nasıl yaparım?"].User.ID), inTestLink("İadeyi nasıl yaparım?", "tr"),
		inReviewLink(turns["İadesi ne kadar sürer?"].User.ID), inTestLink("İadesi ne kadar sürer?", "tr"),
	}
	if strings.Join(iade.Links, " ") != strings.Join(wantLinks, " ") {
		t.Errorf("tr declined iade links:\n got %q\nwant %q", iade.Links, wantLinks)
	}
	// Dismissed: a new Q&A entry with the question; answered in the review: nothing to
	// answer; still open: its review item.
	order2 := inCard(t, declined, "en", "order")
	cancel := "/dashboard/kb/qa/new?" + url.Values{"question": {"Can I cancel my order?"}, "lang": {"en"}}.Encode()
	wantLinks = []string{cancel, inTestLink("Can I cancel my order?", "en"),
		inReviewLink(turns[inXSS].User.ID), inTestLink(inXSS, "en"), inTestLink("How do I track my orders?", "en")}
	if order2.Counts != "3 in 30 days · 2 in 7 days" || strings.Join(order2.Links, " ") != strings.Join(wantLinks, " ") ||
		order2.Answered != 1 || len(order2.Examples) != 3 || order2.Examples[1] != inXSS {
		t.Errorf("en declined order:\n got %+v\nwant links %q", order2, wantLinks)
	}
	if de := inCard(t, declined, "de", "Other declined questions"); de.Counts != "1 in 30 days · 1 in 7 days" ||
		len(de.Links) != 2 || de.Links[0] != inReviewLink(turns["Wann wird geliefert?"].User.ID) {
		t.Errorf("de declined: %+v", de)
	}

	// The actions lead where they say: the Q&A editor with the question filled in, the
	// review item with its answer form.
	qa := owner.get(cancel)
	if qa.Status != http.StatusOK {
		t.Fatalf("the Q&A editor: %d", qa.Status)
	}
	mustContain(t, qa.Body, `name="question" required maxlength="2000" value="Can I cancel my order?"`, `<option value="en" selected>`)
	item := owner.get(inReviewLink(turns[inXSS].User.ID))
	mustContain(t, item.Body, html.EscapeString(inXSS), `name="answer"`)

	// An agent sees the same, with the same actions.
	agentEmail, agentPw := h.user(a.ID, store.UserAgent)
	agent := h.browser()
	agent.signIn(agentEmail, agentPw)
	ap := agent.get("/dashboard/insights")
	agentDeclined, _ := inSection(ap.Body, "o-declined")
	if len(agentDeclined) != len(declined) || strings.Join(inCard(t, agentDeclined, "en", "order").Links, " ") != strings.Join(wantLinks, " ") {
		t.Errorf("the agent's declined groups: %+v", agentDeclined)
	}
	if qa := agent.get(cancel); qa.Status != http.StatusOK {
		t.Errorf("the agent's Q&A editor: %d", qa.Status)
	}

	// The neighbour sees nothing of it.
	other := h.browser()
	other.signIn(otherEmail, otherPw)
	op := other.get("/dashboard/insights")
	if topics, _ := inSection(op.Body, "o-topics"); strings.Contains(op.Body, "iade") || len(topics) != 0 {
		t.Error("another account's questions show on the overview")
	}

	// In Turkish, the same page in Turkish words and numbers.
	if r := owner.post("/dashboard/profile/lang", url.Values{"_csrf": {csrf(t, p.Body)}, "lang": {"tr"}, "back": {"/dashboard/"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("language: %d", r.Status)
	}
	tp := owner.get("/dashboard/insights")
	mustContain(t, tp.Body, "Müşterilerin sorduğu konular", "Yanıtlanamayan sorular, konulara göre", "Test olarak ekle",
		"<dt>Yanıtlanan</dt><dd>%50,0</dd>", "30 günde 2 · 7 günde 1")
}

// A question that asks nothing the page can group (stop words only) and an account without
// declines: the sections say so instead of showing empty lists.
func TestOverviewInsightsWithoutDeclines(t *testing.T) {
	t.Parallel()
	clock := &storetest.Clock{}
	h := newHarness(t, withClock(clock.Now))
	a, _, email, pw := h.tenant("Shop")
	c, err := h.st.OpenConversation(context.Background(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	cvSeed(t, h, c, "What is it?", "It is a shop.", store.SourceAI)
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/insights")
	mustContain(t, p.Body, "The assistant declined no question in the last 30 days.")
	topics, _ := inSection(p.Body, "o-topics")
	if len(topics) != 1 || topics[0].Name != "Other questions" || topics[0].Figures["Answered"] != "100.0%" {
		t.Errorf("topics: %+v", topics)
	}
}
