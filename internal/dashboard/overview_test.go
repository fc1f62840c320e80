package dashboard_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/store"
)

// The demo knowledge base answers ovKnown with an AI answer and falls back on ovNonsense.
const (
	ovKnown    = "Do you have a store in Istanbul?"
	ovNonsense = "zzqx blorf"
	ovXSS      = `<img src=x onerror=alert(1)>`
)

// ovSend asks the API a question and fails unless the reply came from source.
func ovSend(t *testing.T, h *harness, key, message, source string) {
	t.Helper()
	status, body := h.api(http.MethodPost, "/api/v1/chat/send", key, url.Values{"message": {message}})
	if status != http.StatusOK || !strings.Contains(body, `"role":"assistant"`) ||
		!strings.Contains(body, `"source":"`+source+`"`) {
		t.Fatalf("send %q: %d %s, want a %s reply", message, status, body, source)
	}
}

// ovStat is the value of the overview's stat card labelled label.
func ovStat(t *testing.T, body, label string) string {
	t.Helper()
	re := regexp.MustCompile(`>` + regexp.QuoteMeta(label) + `</span>\s*<span class="value">([^<]*)</span>`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no stat %q in the page", label)
	}
	return html.UnescapeString(m[1])
}

// ovChartData is what app.js reads from a chart's JSON island.
type ovChartData struct {
	Labels []int64 `json:"labels"`
	Series []struct {
		Label  string    `json:"label"`
		Values []float64 `json:"values"`
		Color  string    `json:"color"`
	} `json:"series"`
	Money bool `json:"money"`
}

// ovChart decodes the JSON island of the chart id, and checks that its element is there,
// described for screen readers.
func ovChart(t *testing.T, body, id string) ovChartData {
	t.Helper()
	if !regexp.MustCompile(`<div class="chart" data-chart="` + id + `" role="img" aria-label="[^"]+">`).MatchString(body) {
		t.Errorf("no accessible chart element for %s", id)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="` + id + `">(.*?)</script>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no data for chart %s", id)
	}
	var c ovChartData
	if err := json.Unmarshal([]byte(m[1]), &c); err != nil {
		t.Fatalf("chart %s: %v in %s", id, err, m[1])
	}
	return c
}

// series returns the values of the series labelled label.
func (c ovChartData) series(t *testing.T, label string) []float64 {
	t.Helper()
	for _, s := range c.Series {
		if s.Label == label {
			return s.Values
		}
	}
	t.Fatalf("no series %q in %+v", label, c.Series)
	return nil
}

func utcToday() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

func TestOverviewShowsTheFiguresOfRealAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	day := utcToday()
	ovSend(t, h, key, ovKnown, "ai")
	ovSend(t, h, key, ovNonsense, "fallback")
	ovSend(t, h, key, "  ZZQX   blorf ", "fallback")
	ovSend(t, h, key, ovXSS, "fallback")
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/")
	if p.Status != http.StatusOK {
		t.Fatalf("overview: %d", p.Status)
	}
	if utcToday() != day {
		t.Skip("the UTC day changed during the test: today's figures moved")
	}

	if got := ovStat(t, p.Body, "AI answers today"); got != "1" {
		t.Errorf("AI answers today: %q, want 1", got)
	}
	// 4 replies: one charged AI answer, three free fallbacks, all three unsure.
	if got := ovStat(t, p.Body, "Free answers (30 days)"); got != "75.0%" {
		t.Errorf("free share: %q", got)
	}
	if got := ovStat(t, p.Body, "Low confidence (30 days)"); got != "75.0%" {
		t.Errorf("low-confidence rate: %q", got)
	}
	mustContain(t, p.Body, "3 of 4 answers cost nothing", `href="/dashboard/billing"`)

	// Both charts span 30 UTC days ending today, one point a day.
	src := ovChart(t, p.Body, "chart-sources")
	cost := ovChart(t, p.Body, "chart-cost")
	for name, c := range map[string]ovChartData{"sources": src, "cost": cost} {
		if len(c.Labels) != 30 || c.Labels[29] != day.Unix() {
			t.Fatalf("%s chart days: %v", name, c.Labels)
		}
		for i := 1; i < 30; i++ {
			if c.Labels[i]-c.Labels[i-1] != 86400 {
				t.Errorf("%s chart: day %d is not the day after %d", name, c.Labels[i], c.Labels[i-1])
			}
		}
		for _, s := range c.Series {
			if len(s.Values) != 30 || !regexp.MustCompile(`^#[0-9a-f]{6}$`).MatchString(s.Color) {
				t.Errorf("%s series %q: %d values, colour %q", name, s.Label, len(s.Values), s.Color)
			}
		}
	}
	want := map[string]float64{"AI": 1, "Cache": 0, "Curated": 0, "Fallback": 3, "System": 0}
	for label, n := range want {
		v := src.series(t, label)
		if v[29] != n {
			t.Errorf("answers by source %s today: %v, want %v", label, v[29], n)
		}
		for _, x := range v[:29] {
			if x != 0 {
				t.Errorf("answers by source %s before today: %v", label, v)
				break
			}
		}
	}
	if src.Money || !cost.Money {
		t.Errorf("money flags: sources %v, cost %v", src.Money, cost.Money)
	}
	// Only types that cost something are drawn: the answer, not the free fallbacks.
	if len(cost.Series) != 1 || cost.Series[0].Label != "AI answer" || cost.Series[0].Values[29] <= 0 {
		t.Errorf("cost chart: %+v", cost.Series)
	}
	// The same figures as tables, for screen readers and without JavaScript.
	mustContain(t, p.Body, "<summary>Show as table</summary>", `<th scope="col" class="num">Fallback</th>`,
		`<th scope="row" class="date">`+day.Format("2006-01-02")+`</th>`)

	// Unanswered questions: grouped by their folded text, most asked first, escaped.
	rows := regexp.MustCompile(`(?s)<td lang="[a-z]*">([^<]*)</td>\s*<td class="num">(\d+)</td>`).FindAllStringSubmatch(p.Body, -1)
	if len(rows) != 2 || rows[0][2] != "2" || !strings.EqualFold(strings.Join(strings.Fields(rows[0][1]), " "), ovNonsense) ||
		rows[1][1] != "&lt;img src=x onerror=alert(1)&gt;" || rows[1][2] != "1" {
		t.Errorf("unanswered rows: %q", rows)
	}
	if strings.Contains(p.Body, "<img src=x") {
		t.Error("the question's markup reached the page unescaped")
	}
	mustContain(t, p.Body, `<a href="/dashboard/review?kind=fallback">`)
}

func TestOverviewQuotaAndLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Shop")
	if _, err := h.accounts.Update(context.Background(), a.ID, account.Settings{DailyAnswers: ptr(3)}); err != nil {
		t.Fatal(err)
	}
	day := utcToday()
	ovSend(t, h, key, ovKnown, "ai")
	b := h.browser()
	b.signIn(email, pw)
	p := b.get("/dashboard/")
	if utcToday() != day {
		t.Skip("the UTC day changed during the test")
	}
	mustContain(t, p.Body, `<progress class="progress" max="3" value="1"`, "Daily limit 3 · 2 left today (UTC)")

	// The same page in Turkish, with Turkish number formats.
	if r := b.post("/dashboard/profile/lang", url.Values{"_csrf": {csrf(t, p.Body)}, "lang": {"tr"}, "back": {"/dashboard/"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("language: %d", r.Status)
	}
	p = b.get("/dashboard/")
	if got := ovStat(t, p.Body, "Bugünkü yapay zekâ yanıtları"); got != "1" {
		t.Errorf("Turkish answers today: %q", got)
	}
	if got := ovStat(t, p.Body, "Ücretsiz yanıtlar (30 gün)"); got != "%0,0" {
		t.Errorf("Turkish free share: %q", got)
	}
	mustContain(t, p.Body, `<html lang="tr">`, "Günlük sınır 3 · bugün 2 kaldı (UTC)", "Tablo olarak göster")

	// No limit.
	if _, err := h.accounts.Update(context.Background(), a.ID, account.Settings{DailyAnswers: ptr(0)}); err != nil {
		t.Fatal(err)
	}
	p = b.get("/dashboard/")
	mustContain(t, p.Body, "Günlük sınır yok")
	if strings.Contains(p.Body, "<progress") {
		t.Error("a quota bar without a quota")
	}
}

func TestOverviewEmptyState(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	owner := h.browser()
	owner.signIn(email, pw)
	p := owner.get("/dashboard/")
	// The empty state's own links (the navigation links to both pages anyway).
	mustContain(t, p.Body, "No conversations yet", `<a class="btn primary" href="/dashboard/widget">`,
		`<a class="btn" href="/dashboard/assistant">`, "Every question of the last 30 days found an answer.")
	if strings.Contains(p.Body, `data-chart=`) {
		t.Error("empty charts on an account without conversations")
	}
	// An agent cannot open the widget or assistant pages: no links there.
	agentEmail, agentPw := h.user(a.ID, store.UserAgent)
	agent := h.browser()
	agent.signIn(agentEmail, agentPw)
	p = agent.get("/dashboard/")
	mustContain(t, p.Body, "No conversations yet.")
	for _, link := range []string{`href="/dashboard/widget"`, `href="/dashboard/assistant"`, `href="/dashboard/billing"`} {
		if strings.Contains(p.Body, link) {
			t.Errorf("the agent's overview links to an owner page: %s", link)
		}
	}
}

func TestOverviewForAnAgentAndOnlyOfTheirAccount(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, _, _ := h.tenant("Shop")
	_, _, otherEmail, otherPw := h.tenant("Neighbour")
	day := utcToday()
	ovSend(t, h, key, ovKnown, "ai")
	ovSend(t, h, key, "zzqx secret neighbour question", "fallback")

	agentEmail, agentPw := h.user(a.ID, store.UserAgent)
	agent := h.browser()
	agent.signIn(agentEmail, agentPw)
	p := agent.get("/dashboard/")
	if p.Status != http.StatusOK {
		t.Fatalf("agent overview: %d", p.Status)
	}
	if utcToday() != day {
		t.Skip("the UTC day changed during the test")
	}
	if got := ovStat(t, p.Body, "AI answers today"); got != "1" {
		t.Errorf("agent: AI answers today %q", got)
	}
	mustContain(t, p.Body, "zzqx secret neighbour question")
	// Read-only: the overview holds no form of its own (the header's language and sign-out
	// forms aside).
	if n := strings.Count(p.Body, "<form"); n != 2 {
		t.Errorf("the agent's overview has %d forms", n)
	}
	for _, path := range []string{"/dashboard/billing", "/dashboard/billing/ledger.csv"} {
		if r := agent.get(path); r.Status != http.StatusForbidden || strings.Contains(r.Header.Get("Content-Type"), "csv") {
			t.Errorf("agent on %s: %d %s", path, r.Status, r.Header.Get("Content-Type"))
		}
	}

	// The neighbour sees none of it.
	other := h.browser()
	other.signIn(otherEmail, otherPw)
	p = other.get("/dashboard/")
	mustContain(t, p.Body, "No conversations yet")
	if strings.Contains(p.Body, "zzqx secret") {
		t.Error("another account's question shows on the overview")
	}
	if got := ovStat(t, p.Body, "AI answers today"); got != "0" {
		t.Errorf("neighbour: AI answers today %q", got)
	}
}
