package dashboard_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"svc/internal/store"
)

// rvItem finds the review item asking question on a review page and returns its kind and
// id: those of the last item opened before the question's heading.
func rvItem(t testing.TB, body, question string) (kind, id string) {
	t.Helper()
	at := strings.Index(body, "</span>"+html.EscapeString(question)+"</h3>")
	if at < 0 {
		t.Fatalf("the review page has no item asking %q", question)
	}
	m := rvItemRE.FindAllStringSubmatch(body[:at], -1)
	if m == nil {
		t.Fatalf("the question %q is in no review item", question)
	}
	return m[len(m)-1][1], m[len(m)-1][2]
}

var rvItemRE = regexp.MustCompile(`<li id="review-(\w+)-(\d+)" class="review-item">`)

// rvServedFree asks q again and checks that the curated answer replies, free of charge.
func rvServedFree(t testing.TB, h *harness, key, q, answer string) {
	t.Helper()
	balance := cvBalance(t, h, key)
	again := cvAsk(t, h, key, q)
	if r := again.reply(); r.Source != store.SourceCacheTenant || r.Body != answer {
		t.Errorf("asked again: %s %q", r.Source, r.Body)
	}
	if now := cvBalance(t, h, key); now != balance {
		t.Errorf("the curated answer cost %f USD", balance-now)
	}
}

// The acceptance check: a question the assistant fell back on, answered on the review page
// without JavaScript, is then answered from the curated entry, free of charge.
func TestReviewedFallbackIsThenServedFree(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	const q = "Do you sell gift cards for the holidays?"
	const answer = "Yes: gift cards from 25 € are sold in both of our stores."
	if s := cvAsk(t, h, key, q).reply().Source; s != store.SourceFallback {
		t.Fatalf("the question was answered from %s, want a fallback", s)
	}
	b := h.browser()
	b.signIn(email, pw)
	list := b.get("/dashboard/review?kind=fallback")
	kind, id := rvItem(t, list.Body, q)
	if kind != store.ReviewFallback {
		t.Fatalf("the item is of kind %s", kind)
	}
	p := b.post("/dashboard/review/fallback/"+id+"/answer",
		url.Values{"answer": {answer}, "lang": {"en"}, "back": {"/dashboard/review?kind=fallback"}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/review?kind=fallback" {
		t.Fatalf("answer: %d %q %.300s", p.Status, p.Header.Get("Location"), p.Body)
	}
	after := b.get("/dashboard/review?kind=fallback")
	mustContain(t, after.Body, "Answer saved.", "Nothing to review.")
	if strings.Contains(after.Body, q) {
		t.Error("the answered item is still in the queue")
	}
	rvServedFree(t, h, key, q, answer)
	// The same id again is no longer open.
	if p := b.post("/dashboard/review/fallback/"+id+"/answer", url.Values{"answer": {answer}, "lang": {"en"}}); p.Status != http.StatusNotFound {
		t.Errorf("answering a closed item: %d", p.Status)
	}
}

// The same for a reply rated not helpful, answered with htmx: the item is replaced in place.
func TestReviewedRatingIsThenServedFree(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	const q = "Which hiking boots do you have?"
	const answer = "The Kaçkar Pro Trekking Boot, 129 $, in sizes 38 to 47."
	first := cvAsk(t, h, key, q)
	if first.reply().Source != store.SourceAI {
		t.Fatalf("the question was answered from %s, want ai", first.reply().Source)
	}
	cvRateNotHelpful(t, h, key, first.reply().ID, "Which sizes?")
	b := h.browser()
	b.signIn(email, pw)
	list := b.get("/dashboard/review?kind=not_helpful")
	mustContain(t, list.Body, "Which sizes?", `<a href="/dashboard/review?kind=not_helpful" aria-current="page">`)
	kind, id := rvItem(t, list.Body, q)
	if kind != store.ReviewNotHelpful {
		t.Fatalf("the item is of kind %s", kind)
	}
	p := b.hxPost("/dashboard/review/not_helpful/"+id+"/answer",
		url.Values{"answer": {answer}, "lang": {"en"}, "back": {"/dashboard/review?kind=not_helpful"}, "_csrf": {csrf(t, list.Body)}})
	if p.Status != http.StatusOK || strings.Contains(p.Body, "<html") {
		t.Fatalf("htmx answer: %d %.300s", p.Status, p.Body)
	}
	mustContain(t, p.Body, `<li id="review-not_helpful-`+id+`" class="review-item done" role="status">`, "Answer saved.")
	if after := b.get("/dashboard/review"); strings.Contains(after.Body, q) {
		t.Error("the answered item is still in the queue")
	}
	if p := b.get("/dashboard/review/rated/" + strconv.FormatInt(first.reply().ID, 10)); p.Status != http.StatusNotFound ||
		!strings.Contains(p.Body, "This review item is not open") {
		t.Errorf("the transcript's link to the answered item: %d", p.Status)
	}
	rvServedFree(t, h, key, q, answer)
}

func TestReviewAnswerIsValidated(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	const q = "Do you sell gift cards for the holidays?"
	gift := cvAsk(t, h, key, q)
	b := h.browser()
	b.signIn(email, pw)
	path := "/dashboard/review/fallback/" + strconv.FormatInt(gift.question().ID, 10) + "/answer"
	for name, tc := range map[string]struct {
		form url.Values
		want string
	}{
		"empty":      {url.Values{"answer": {"   "}, "lang": {"en"}}, "Write an answer of 1 to 2000 characters."},
		"too long":   {url.Values{"answer": {strings.Repeat("ä", 2001)}, "lang": {"en"}}, "Write an answer of 1 to 2000 characters."},
		"bad lang":   {url.Values{"answer": {"Yes."}, "lang": {"fr"}}, "Choose the answer&#39;s language from the list."},
		"no text":    {url.Values{"answer": {"<p></p>"}, "lang": {"en"}}, "This answer has no text left"},
		"keeps text": {url.Values{"answer": {strings.Repeat("x", 2001)}, "lang": {"de"}}, `<option value="de" selected>`},
	} {
		p := b.post(path, tc.form)
		if p.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", name, p.Status)
		}
		mustContain(t, p.Body, tc.want, q, `aria-invalid="true"`)
	}
	// Exactly 2000 characters are fine.
	if p := b.post(path, url.Values{"answer": {strings.Repeat("ä", 2000)}, "lang": {"en"}}); p.Status != http.StatusSeeOther {
		t.Errorf("2000 characters: %d", p.Status)
	}
}

func TestReviewHTMXErrorsStayInPlace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	gift := cvAsk(t, h, key, "Do you sell gift cards for the holidays?")
	b := h.browser()
	b.signIn(email, pw)
	tok := csrf(t, b.get("/dashboard/review").Body)
	id := strconv.FormatInt(gift.question().ID, 10)
	p := b.hxPost("/dashboard/review/fallback/"+id+"/answer", url.Values{"answer": {""}, "lang": {"en"}, "_csrf": {tok}})
	if p.Status != http.StatusOK || strings.Contains(p.Body, "<html") {
		t.Fatalf("htmx empty answer: %d", p.Status)
	}
	mustContain(t, p.Body, `<li id="review-fallback-`+id+`" class="review-item">`, "Write an answer of 1 to 2000 characters.")
	p = b.hxPost("/dashboard/review/fallback/"+id+"/dismiss", url.Values{"_csrf": {tok}})
	mustContain(t, p.Body, `<li id="review-fallback-`+id+`" class="review-item done" role="status">`, "Item dismissed.")
	// A second dismissal finds the item gone and says so in its place.
	p = b.hxPost("/dashboard/review/fallback/"+id+"/dismiss", url.Values{"_csrf": {tok}})
	mustContain(t, p.Body, `<li id="review-fallback-`+id+`" class="review-item done" role="status">`, "This review item is not open")
}

func TestAnotherAccountsReviewItemIsNotFound(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Mine")
	_, otherKey, _, _ := h.tenant("Theirs")
	theirs := cvAsk(t, h, otherKey, "Do you sell gift cards for the holidays?")
	rated := cvAsk(t, h, otherKey, "Which hiking boots do you have?")
	cvRateNotHelpful(t, h, otherKey, rated.reply().ID, "")
	b := h.browser()
	b.signIn(email, pw)
	if p := b.get("/dashboard/review"); strings.Contains(p.Body, "gift cards") || strings.Contains(p.Body, "hiking boots") {
		t.Error("the queue shows another account's items")
	}
	fallback := "/dashboard/review/fallback/" + strconv.FormatInt(theirs.question().ID, 10)
	for _, path := range []string{fallback, "/dashboard/review/not_helpful/1", "/dashboard/review/nope/1", "/dashboard/review/fallback/x",
		"/dashboard/review/rated/" + strconv.FormatInt(rated.reply().ID, 10)} {
		if p := b.get(path); p.Status != http.StatusNotFound || !strings.Contains(p.Body, "This review item is not open") {
			t.Errorf("GET %s: %d", path, p.Status)
		}
	}
	for _, path := range []string{fallback + "/answer", fallback + "/dismiss", "/dashboard/review/not_helpful/1/answer",
		"/dashboard/review/not_helpful/1/dismiss", "/dashboard/review/nope/1/answer", "/dashboard/review/nope/1/dismiss"} {
		if p := b.post(path, url.Values{"answer": {"Mine now."}, "lang": {"en"}}); p.Status != http.StatusNotFound {
			t.Errorf("POST %s: %d", path, p.Status)
		}
	}
	// Their items are still open.
	st, body := h.api(http.MethodPost, "/api/v1/chat/send", otherKey, url.Values{"message": {"Do you sell gift cards for the holidays?"}})
	if st != http.StatusOK || !strings.Contains(body, `"source":"fallback"`) {
		t.Errorf("their question after the attempts: %d %s", st, body)
	}
}

func TestReviewQueuePagesAndTabs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Busy shop")
	c := cvOpen(t, h, a.ID)
	const n = 60
	for i := 1; i <= n; i++ {
		cvSeed(t, h, c, fmt.Sprintf("Unanswerable question %02d?", i), "Sorry.", store.SourceFallback)
	}
	b := h.browser()
	b.signIn(email, pw)
	first := b.get("/dashboard/review")
	mustContain(t, first.Body, "60 items are open.", "Unanswerable question 60?", "Unanswerable question 36?",
		`<a href="/dashboard/review" aria-current="page">All</a>`,
		`<a href="/dashboard/review" aria-current="page" aria-label="Page 1 of 3">1</a>`,
		`href="/dashboard/review?page=3" aria-label="Page 3 of 3">3</a>`, `href="/dashboard/review?page=2" rel="next"`)
	if strings.Contains(first.Body, "Unanswerable question 35?") {
		t.Error("the first page shows more than 25 items")
	}
	last := b.get("/dashboard/review?page=3&kind=fallback")
	mustContain(t, last.Body, "Unanswerable question 01?", "Unanswerable question 10?", `href="/dashboard/review?kind=fallback&amp;page=2" rel="prev"`,
		`<a href="/dashboard/review?kind=fallback" aria-current="page">Unanswered</a>`)
	if strings.Contains(last.Body, "Unanswerable question 11?") {
		t.Error("the last page repeats an item of the page before")
	}
	// Past the end shows the last page; nonsense is explained.
	mustContain(t, b.get("/dashboard/review?page=9").Body, "Unanswerable question 01?")
	if p := b.get("/dashboard/review?kind=praise"); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "There is no such kind of review item.") {
		t.Errorf("unknown kind: %d", p.Status)
	}
	if p := b.get("/dashboard/review?page=-1"); p.Status != http.StatusBadRequest {
		t.Errorf("bad page: %d", p.Status)
	}
	// Answering on page 3 returns there; the form's back field cannot leave the queue.
	_, id := rvItem(t, last.Body, "Unanswerable question 01?")
	p := b.post("/dashboard/review/fallback/"+id+"/dismiss", url.Values{"back": {"/dashboard/review?kind=fallback&page=3"}})
	if p.Header.Get("Location") != "/dashboard/review?kind=fallback&page=3" {
		t.Errorf("dismiss returns to %q", p.Header.Get("Location"))
	}
	_, id = rvItem(t, last.Body, "Unanswerable question 02?")
	p = b.post("/dashboard/review/fallback/"+id+"/dismiss", url.Values{"back": {"https://evil.example/dashboard/review"}})
	if p.Header.Get("Location") != "/dashboard/review" {
		t.Errorf("a forged back field sends the browser to %q (%d)", p.Header.Get("Location"), p.Status)
	}
}
