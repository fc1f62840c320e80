package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
)

// cvMessage is a message of an API or widget answer, as far as these tests read it.
type cvMessage struct {
	ID        int64           `json:"id"`
	Role      string          `json:"role"`
	Body      string          `json:"body"`
	Source    string          `json:"source"`
	CreatedAt string          `json:"created_at"`
	Products  []store.Product `json:"products"`
	Sources   []store.Source  `json:"sources"`
}

// cvSent is what a send answers.
type cvSent struct {
	ConversationID int64       `json:"conversationId"`
	Messages       []cvMessage `json:"messages"`
}

// reply is the assistant's message of the turn.
func (s cvSent) reply() cvMessage { return s.Messages[len(s.Messages)-1] }

// question is the visitor's message of the turn.
func (s cvSent) question() cvMessage { return s.Messages[0] }

func cvDecode(t testing.TB, body string, out any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), &struct{ Data any }{out}); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
}

// cvAsk sends a question through the API with the secret key.
func cvAsk(t testing.TB, h *harness, key, question string) cvSent {
	t.Helper()
	st, body := h.api(http.MethodPost, "/api/v1/chat/send", key, url.Values{"message": {question}})
	if st != http.StatusOK {
		t.Fatalf("send %q: %d %s", question, st, body)
	}
	var s cvSent
	cvDecode(t, body, &s)
	return s
}

// cvBalance is the account's balance as the API reports it.
func cvBalance(t testing.TB, h *harness, key string) float64 {
	t.Helper()
	st, body := h.api(http.MethodGet, "/api/v1/chat/apiKey", key, nil)
	if st != http.StatusOK {
		t.Fatalf("apiKey: %d %s", st, body)
	}
	var k struct{ Balance float64 }
	cvDecode(t, body, &k)
	return k.Balance
}

// cvRateNotHelpful rates a reply not helpful through the API, with a comment ("" sends none).
func cvRateNotHelpful(t testing.TB, h *harness, key string, messageID int64, comment string) {
	t.Helper()
	form := url.Values{"messageId": {strconv.FormatInt(messageID, 10)}, "rating": {"not_helpful"}}
	if comment != "" {
		form.Set("comment", comment)
	}
	if st, body := h.api(http.MethodPost, "/api/v1/chat/feedback", key, form); st != http.StatusOK {
		t.Fatalf("feedback: %d %s", st, body)
	}
}

// cvToken creates an embed token for the test server's host and returns it with its id.
func cvToken(t testing.TB, h *harness, key, label string) (string, int64) {
	t.Helper()
	st, body := h.api(http.MethodPost, "/api/v1/chat/embedTokenCreate", key,
		url.Values{"domains": {"127.0.0.1"}, "label": {label}})
	if st != http.StatusOK {
		t.Fatalf("embedTokenCreate: %d %s", st, body)
	}
	var tok struct {
		Token string
		ID    int64
	}
	cvDecode(t, body, &tok)
	return tok.Token, tok.ID
}

// cvVisitor is a widget visitor's UUID (v4); n shows in its first characters, the page's
// short visitor id.
func cvVisitor(n int) string { return fmt.Sprintf("%08d-9dc0-41d4-a716-446655440000", n) }

// cvEmbed calls the widget's surface as the widget on the test server's own page would.
func cvEmbed(t testing.TB, h *harness, action, token, visitor string, body any) (int, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/api/v1/embed/"+action, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SVC-Embed-Token", token)
	req.Header.Set("X-SVC-Visitor", visitor)
	req.Header.Set("Origin", h.srv.URL)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// cvWidgetAsk sends a question as a widget visitor.
func cvWidgetAsk(t testing.TB, h *harness, token, visitor, question string) cvSent {
	t.Helper()
	st, body := cvEmbed(t, h, "send", token, visitor, map[string]any{"message": question})
	if st != http.StatusOK {
		t.Fatalf("embed send %q: %d %s", question, st, body)
	}
	var s cvSent
	cvDecode(t, body, &s)
	return s
}

// cvWidgetRate rates a reply as the visitor whose conversation it is in.
func cvWidgetRate(t testing.TB, h *harness, token, visitor string, messageID int64, rating, comment string) {
	t.Helper()
	st, body := cvEmbed(t, h, "feedback", token, visitor, map[string]any{"messageId": messageID, "rating": rating, "comment": comment})
	if st != http.StatusOK {
		t.Fatalf("embed feedback: %d %s", st, body)
	}
}

// cvOpen opens an English API conversation of the account for cvSeed.
func cvOpen(t testing.TB, h *harness, accountID int64) store.Conversation {
	t.Helper()
	c, err := h.st.OpenConversation(context.Background(), accountID, "en")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cvSeed saves a turn straight into the store: for tests that need more turns than the
// API's rate limits let through in a minute.
func cvSeed(t testing.TB, h *harness, c store.Conversation, question, answer, source string) store.Turn {
	t.Helper()
	event := map[string]string{store.SourceCacheShared: store.EventCacheShared, store.SourceFallback: store.EventFallback}[source]
	tr := store.Turn{AccountID: c.AccountID, ConversationID: c.ID, Lang: "en", EmbedTokenID: c.EmbedTokenID,
		User:   store.Message{Role: store.RoleUser, Body: question, Source: source, Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: answer, Source: source, Lang: "en", LowConfidence: source == store.SourceFallback},
		Charge: store.Charge{EventType: event}}
	if err := h.st.SaveTurn(context.Background(), &tr); err != nil {
		t.Fatalf("save turn %q: %v", question, err)
	}
	return tr
}

var cvRowRE = regexp.MustCompile(`<td class="preview"><a href="/dashboard/conversations/(\d+)">([^<]*)</a>`)

// cvRows lists the previews of a list page's rows, in order, as the page escaped them.
func cvRows(body string) []string {
	var out []string
	for _, m := range cvRowRE.FindAllStringSubmatch(body, -1) {
		out = append(out, html.UnescapeString(m[2]))
	}
	return out
}

var cvOlderRE = regexp.MustCompile(`<a class="btn" href="([^"]+)" rel="next">`)

// cvOlder is the list page's "Older" link, "" when there is none.
func cvOlder(body string) string {
	m := cvOlderRE.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

func TestConversationFiltersEachNarrowTheList(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Filters")
	one, oneID := cvToken(t, h, key, "Shop one")
	two, twoID := cvToken(t, h, key, "Shop two")
	const (
		boots = "Which hiking boots do you have?"
		de    = "Wie lange dauert die Lieferung?"
		gift  = "Do you sell gift cards for the holidays?"
		tr    = "Kargo ne kadar sürer?"
	)
	cvAsk(t, h, key, boots)
	deTurn := cvWidgetAsk(t, h, one, cvVisitor(1), de)
	if s := cvWidgetAsk(t, h, two, cvVisitor(2), gift).reply().Source; s != store.SourceFallback {
		t.Fatalf("the gift card question was answered from %s, want a fallback", s)
	}
	trTurn := cvWidgetAsk(t, h, one, cvVisitor(3), tr)
	cvWidgetRate(t, h, one, cvVisitor(3), trTurn.reply().ID, "helpful", "")
	cvWidgetRate(t, h, one, cvVisitor(1), deTurn.reply().ID, "not_helpful", "too short")
	day, err := time.Parse(time.RFC3339, trTurn.reply().CreatedAt)
	if err != nil {
		t.Fatal(err)
	}
	today := day.Format(time.DateOnly)

	b := h.browser()
	b.signIn(email, pw)
	first := b.get("/dashboard/conversations")
	if first.Status != http.StatusOK {
		t.Fatalf("list: %d", first.Status)
	}
	mustContain(t, first.Body, "Shop one", "Shop two", ">API<", "00000001…", "00000003…", "1 helpful", "1 not helpful",
		`<option value="`+strconv.FormatInt(oneID, 10)+`">Shop one</option>`)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{tr, gift, de, boots}},
		{"token=api", []string{boots}},
		{"token=widget", []string{tr, gift, de}},
		{"token=" + strconv.FormatInt(oneID, 10), []string{tr, de}},
		{"token=" + strconv.FormatInt(twoID, 10), []string{gift}},
		{"lang=de", []string{de}},
		{"lang=tr", []string{tr}},
		{"rating=helpful", []string{tr}},
		{"rating=not_helpful", []string{de}},
		{"fallback=1", []string{gift}},
		{"from=" + today + "&to=" + today, []string{tr, gift, de, boots}},
		{"from=" + day.AddDate(0, 0, 1).Format(time.DateOnly), nil},
		{"to=" + day.AddDate(0, 0, -1).Format(time.DateOnly), nil},
		{"token=" + strconv.FormatInt(oneID, 10) + "&lang=tr&rating=helpful", []string{tr}},
	} {
		p := b.get("/dashboard/conversations?" + tc.query)
		if p.Status != http.StatusOK {
			t.Errorf("%q: %d", tc.query, p.Status)
			continue
		}
		if got := cvRows(p.Body); !slices.Equal(got, tc.want) {
			t.Errorf("%q lists %q, want %q", tc.query, got, tc.want)
		}
	}
	// The form shows the filters it applied.
	p := b.get("/dashboard/conversations?lang=de&fallback=1&from=" + today)
	mustContain(t, p.Body, `<option value="de" selected>`, `name="fallback" value="1" checked`, `value="`+today+`"`,
		"No conversations match these filters.")
}

func TestConversationBadFiltersAreExplained(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	_, otherKey, _, _ := h.tenant("Other shop")
	_, otherToken := cvToken(t, h, otherKey, "Theirs")
	b := h.browser()
	b.signIn(email, pw)
	cvAsk(t, h, key, "hello")
	for query, want := range map[string]string{
		"from=2026-13-01":                            `&#34;2026-13-01&#34; is not a date.`,
		"to=yesterday":                               `&#34;yesterday&#34; is not a date.`,
		"from=2026-05-02&to=2026-05-01":              "The start date is after the end date.",
		"token=999999":                               "This channel does not exist.",
		"token=" + strconv.FormatInt(otherToken, 10): "This channel does not exist.",
		"token=shop":                                 "This channel does not exist.",
		"lang=fr":                                    "Choose a language from the list.",
		"rating=great":                               "Choose a rating from the list.",
		"before_at=soon&before_id=3":                 "This page link is broken.",
		"before_at=2026-05-01T00:00:00Z":             "This page link is broken.",
	} {
		p := b.get("/dashboard/conversations?" + query)
		if p.Status != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", query, p.Status)
		}
		mustContain(t, p.Body, want, `action="/dashboard/conversations"`)
		if rows := cvRows(p.Body); len(rows) != 0 {
			t.Errorf("%s: rows listed despite the error: %q", query, rows)
		}
	}
}

func TestConversationPagesFollowWithoutGapsAndKeepTheFilters(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Busy shop")
	_, tokID := cvToken(t, h, key, "Busy")
	ctx := context.Background()
	const n = 120
	for i := 1; i <= n; i++ {
		c, err := h.st.OpenVisitorConversation(ctx, a.ID, tokID, cvVisitor(i), "en")
		if err != nil {
			t.Fatal(err)
		}
		cvSeed(t, h, c, fmt.Sprintf("Question %03d", i), "Hello!", store.SourceCacheShared)
	}
	b := h.browser()
	b.signIn(email, pw)
	var got []string
	next, pages := "/dashboard/conversations?lang=en&token=widget", 0
	for next != "" {
		p := b.get(next)
		if p.Status != http.StatusOK {
			t.Fatalf("%s: %d", next, p.Status)
		}
		rows := cvRows(p.Body)
		if len(rows) > 50 {
			t.Fatalf("%s: %d rows on a page", next, len(rows))
		}
		got = append(got, rows...)
		if next = cvOlder(p.Body); next != "" {
			q, _ := url.Parse(next)
			if q.Query().Get("lang") != "en" || q.Query().Get("token") != "widget" || q.Query().Get("before_id") == "" {
				t.Fatalf("the Older link %q lost the filters or the cursor", next)
			}
		}
		if pages++; pages > 3 {
			t.Fatal("more pages than 120 rows need")
		}
		if pages > 1 {
			mustContain(t, p.Body, `href="/dashboard/conversations?lang=en&amp;token=widget">← Newest`)
		}
	}
	if pages != 3 || len(got) != n {
		t.Fatalf("%d rows on %d pages, want %d on 3", len(got), pages, n)
	}
	for i, q := range got {
		if want := fmt.Sprintf("Question %03d", n-i); q != want {
			t.Fatalf("row %d is %q, want %q (newest first, no gaps)", i, q, want)
		}
	}
}

func TestTranscriptShowsSourcesCostsAndFeedback(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	before := cvBalance(t, h, key)
	boots := cvAsk(t, h, key, "Which hiking boots do you have?")
	cost := int64(math.Round((before - cvBalance(t, h, key)) * 1e6))
	if boots.reply().Source != store.SourceAI || cost <= 0 {
		t.Fatalf("boots: source %s, cost %d µUSD", boots.reply().Source, cost)
	}
	curated := cvAsk(t, h, key, "How long does delivery take?")
	cvAsk(t, h, key, "hello")
	gift := cvAsk(t, h, key, "Do you sell gift cards for the holidays?")
	cvRateNotHelpful(t, h, key, boots.reply().ID, "No prices <b>at all</b>")
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/conversations/" + strconv.FormatInt(boots.ConversationID, 10))
	if p.Status != http.StatusOK {
		t.Fatalf("transcript: %d", p.Status)
	}
	mustContain(t, p.Body,
		`class="badge src-ai">AI answer<`, `class="badge src-cache_tenant">Saved answer<`, `<span class="badge">curated</span>`,
		`class="badge src-cache_shared">Small talk<`, `class="badge src-fallback">Fallback<`, "low confidence",
		fmt.Sprintf("Cost: $%d.%04d", cost/1_000_000, (cost%1_000_000+50)/100), "Cost: $0.0000",
		`<span class="badge bad">Not helpful</span> <q>No prices &lt;b&gt;at all&lt;/b&gt;</q>`,
		html.EscapeString(curated.reply().Body),
		`href="/dashboard/review/rated/`+strconv.FormatInt(boots.reply().ID, 10)+`"`,
		`href="/dashboard/review/fallback/`+strconv.FormatInt(gift.question().ID, 10)+`"`)
	for _, pr := range boots.reply().Products {
		mustContain(t, p.Body, "<strong>"+html.EscapeString(pr.Name)+"</strong>")
		if pr.URL != "" {
			mustContain(t, p.Body, `href="`+html.EscapeString(pr.URL)+`"`)
		}
	}
	// The review links lead to their items.
	r := b.get("/dashboard/review/rated/" + strconv.FormatInt(boots.reply().ID, 10))
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/dashboard/review/not_helpful/") {
		t.Fatalf("rated review link: %d %q", r.Status, r.Header.Get("Location"))
	}
	if r := b.get(r.Header.Get("Location")); r.Status != http.StatusOK || !strings.Contains(r.Body, "Which hiking boots do you have?") {
		t.Errorf("the not-helpful item: %d", r.Status)
	}
	if r := b.get("/dashboard/review/fallback/" + strconv.FormatInt(gift.question().ID, 10)); r.Status != http.StatusOK ||
		!strings.Contains(r.Body, "Do you sell gift cards for the holidays?") {
		t.Errorf("the fallback item: %d", r.Status)
	}
}

func TestTranscriptPagesBackThroughEarlierMessages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Chatty shop")
	c := cvOpen(t, h, a.ID)
	for i := 1; i <= 60; i++ { // 120 messages: a full page of 100 and 20 earlier ones
		cvSeed(t, h, c, fmt.Sprintf("Q%03d?", i), fmt.Sprintf("A%03d.", i), store.SourceCacheShared)
	}
	b := h.browser()
	b.signIn(email, pw)
	base := "/dashboard/conversations/" + strconv.FormatInt(c.ID, 10)
	latest := b.get(base)
	earlierRE := regexp.MustCompile(`<a class="btn" href="([^"]+)" hx-get="([^"]+)" hx-target="#earlier"`)
	m := earlierRE.FindStringSubmatch(latest.Body)
	if m == nil {
		t.Fatal("the latest page has no link to earlier messages")
	}
	mustContain(t, latest.Body, "Q011?", "A060.")
	if strings.Contains(latest.Body, "A010.") {
		t.Error("the latest page shows more than 100 messages")
	}
	earlier := b.get(html.UnescapeString(m[1]))
	mustContain(t, earlier.Body, "Q001?", "A010.", `href="`+base+`">Latest messages`)
	if earlierRE.MatchString(earlier.Body) || strings.Contains(earlier.Body, "Q011?") {
		t.Error("the earliest page links further back or repeats messages")
	}
	// htmx asks for the messages alone, to put them above those shown.
	frag := b.hxGet(html.UnescapeString(m[2]))
	if frag.Status != http.StatusOK || strings.Contains(frag.Body, "<html") || !strings.Contains(frag.Body, "Q001?") ||
		!strings.HasPrefix(strings.TrimSpace(frag.Body), "<li") {
		t.Errorf("htmx earlier messages: %d %.200s", frag.Status, frag.Body)
	}
	if p := b.get(base + "?before=x"); p.Status != http.StatusBadRequest {
		t.Errorf("a malformed before: %d", p.Status)
	}
}

func TestAnotherAccountsConversationIsNotFound(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Mine")
	_, otherKey, _, _ := h.tenant("Theirs")
	theirs := cvAsk(t, h, otherKey, "Secret plans of the other shop?")
	b := h.browser()
	b.signIn(email, pw)
	for _, path := range []string{"/dashboard/conversations/" + strconv.FormatInt(theirs.ConversationID, 10),
		"/dashboard/conversations/" + strconv.FormatInt(theirs.ConversationID, 10) + "?before=999999",
		"/dashboard/conversations/0", "/dashboard/conversations/nope"} {
		p := b.get(path)
		if p.Status != http.StatusNotFound || strings.Contains(p.Body, "Secret plans") {
			t.Errorf("%s: %d", path, p.Status)
		}
	}
	if p := b.get("/dashboard/conversations"); strings.Contains(p.Body, "Secret plans") {
		t.Error("the list shows another account's conversation")
	}
}

func TestXSSInAMessageIsShownAsText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	const attack = "<img src=x onerror=alert(1)>"
	sent := cvAsk(t, h, key, attack)
	cvRateNotHelpful(t, h, key, sent.reply().ID, attack)
	b := h.browser()
	b.signIn(email, pw)
	for _, path := range []string{"/dashboard/conversations", "/dashboard/conversations/" + strconv.FormatInt(sent.ConversationID, 10),
		"/dashboard/review", "/dashboard/review?kind=fallback", "/dashboard/review?kind=not_helpful"} {
		p := b.get(path)
		if p.Status != http.StatusOK {
			t.Errorf("%s: %d", path, p.Status)
			continue
		}
		mustContain(t, p.Body, "&lt;img src=x onerror=alert(1)&gt;")
		if strings.Contains(p.Body, "<img src=x") {
			t.Errorf("%s: the message became markup", path)
		}
	}
}

func TestAnAgentUsesConversationsAndReview(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, _, _ := h.tenant("Shop")
	gift := cvAsk(t, h, key, "Do you sell gift cards for the holidays?")
	email, pw := h.user(a.ID, store.UserAgent)
	b := h.browser()
	b.signIn(email, pw)
	for _, path := range []string{"/dashboard/conversations", "/dashboard/conversations/" + strconv.FormatInt(gift.ConversationID, 10),
		"/dashboard/review", "/dashboard/review/fallback/" + strconv.FormatInt(gift.question().ID, 10)} {
		if p := b.get(path); p.Status != http.StatusOK {
			t.Errorf("agent %s: %d", path, p.Status)
		}
	}
	p := b.post("/dashboard/review/fallback/"+strconv.FormatInt(gift.question().ID, 10)+"/dismiss", url.Values{"back": {"/dashboard/review"}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/review" {
		t.Fatalf("agent dismisses: %d %q", p.Status, p.Header.Get("Location"))
	}
	mustContain(t, b.get("/dashboard/review").Body, "Item dismissed.", "Nothing to review.")
}
