package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"svc/internal/embed"
	"svc/internal/i18n"
	"svc/internal/store"
)

// updatePath is the API action that changes an embed token's budget.
const updatePath = "/api/v1/chat/embedTokenUpdate"

// budgetFacts are what a budget mail says.
type budgetFacts struct {
	TokenID     int64
	Name        string   // the token's label, or its prefix when it has none
	Domains     []string // allowed domains
	Day         time.Time
	LimitMicro  int64
	SpendMicro  int64
	ExampleUSD  string // a higher budget to show in the example; "" when none fits
	EndpointURL string // PublicURL + updatePath, or only the path
	HasBaseURL  bool
}

// composeBudget writes the NoticeBudgetReached mail from its payload and the token.
func composeBudget(ctx context.Context, w *Worker, a store.Account, n store.Notice) (Message, error) {
	var p store.BudgetPayload
	if err := json.Unmarshal([]byte(n.Payload), &p); err != nil || p.TokenID == 0 {
		return Message{}, Permanent(fmt.Errorf("budget notice payload %q is not valid", clip(n.Payload, 200)))
	}
	tok, err := w.store.GetEmbedToken(ctx, a.ID, p.TokenID)
	if errors.Is(err, store.ErrNotFound) {
		return Message{}, Permanent(fmt.Errorf("embed token %d of account %d does not exist", p.TokenID, a.ID))
	}
	if err != nil {
		return Message{}, fmt.Errorf("read embed token %d: %w", p.TokenID, err)
	}
	day, err := time.Parse(time.DateOnly, p.Day)
	if err != nil {
		day = n.CreatedAt.UTC()
	}
	f := budgetFacts{TokenID: tok.ID, Name: cleanLabel(tok.Label), Domains: tok.Domains,
		Day: time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC), LimitMicro: p.LimitMicro,
		SpendMicro: p.SpendMicro, EndpointURL: updatePath}
	if f.Name == "" {
		f.Name = tok.Prefix
	}
	if w.publicURL != "" {
		f.EndpointURL, f.HasBaseURL = w.publicURL+updatePath, true
	}
	// The example never suggests more than embedTokenUpdate accepts.
	if ex := min(2*p.LimitMicro, embed.MaxBudgetMicro); ex > p.LimitMicro {
		f.ExampleUSD = embed.FormatBudget(ex)
	}
	subject, text := w.texts.budgetMail(a.Lang, f)
	return Message{Subject: subject, Text: text}, nil
}

// cleanLabel keeps a label to one short line of printable text.
func cleanLabel(s string) string { return cleanLine(s, 80) }

// cleanLine keeps s to one line of printable text of at most n runes.
func cleanLine(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

// budgetText is one language's wording of the budget mail.
type budgetText struct {
	subject   string // %s: the token's name
	greeting  string
	reached   string // %s: name, %s: day
	token     string
	domains   string
	noDomains string
	budget    string
	spent     string
	paused    string // %s: the day of the reset, at 00:00 UTC
	raise     string // %s: example amount (or the placeholder)
	raiseAny  string // when no example fits
	newBudget string // placeholder for the amount
	curl      string
	immediate string
	once      string
	date      func(time.Time) string
	quote     func(string) string
}

// loadBudgetTexts reads the budget mail's words in each language: the sentences from the
// i18n catalog (mail.budget.*), the date and quotation rules here.
func loadBudgetTexts(cat *i18n.Catalog) map[string]budgetText {
	formats := map[string]struct {
		date  func(time.Time) string
		quote func(string) string
	}{
		"en": {date: func(t time.Time) string { return fmt.Sprintf("%d %s %d", t.Day(), t.Month(), t.Year()) }, quote: func(s string) string { return "“" + s + "”" }},
		"tr": {date: func(t time.Time) string { return fmt.Sprintf("%d %s %d", t.Day(), trMonths[t.Month()-1], t.Year()) }, quote: func(s string) string { return "“" + s + "”" }},
		"de": {date: func(t time.Time) string { return fmt.Sprintf("%d. %s %d", t.Day(), deMonths[t.Month()-1], t.Year()) }, quote: func(s string) string { return "„" + s + "“" }},
	}
	out := map[string]budgetText{}
	for lang, f := range formats {
		t := func(key string) string { return cat.T(lang, "mail.budget."+key) }
		out[lang] = budgetText{subject: t("subject"), greeting: t("greeting"), reached: t("reached"), token: t("token"),
			domains: t("domains"), noDomains: t("no_domains"), budget: t("budget"), spent: t("spent"), paused: t("paused"),
			raise: t("raise"), raiseAny: t("raise_any"), newBudget: t("new_budget"), curl: t("curl"),
			immediate: t("immediate"), once: t("once"), date: f.date, quote: f.quote}
	}
	return out
}

var (
	trMonths = [12]string{"Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül",
		"Ekim", "Kasım", "Aralık"}
	deMonths = [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
		"Oktober", "November", "Dezember"}
)

// budgetMail writes the subject and text in lang (tr, en or de; English otherwise).
func (m *mailTexts) budgetMail(lang string, f budgetFacts) (subject, text string) {
	t, ok := m.budget[lang]
	if !ok {
		t = m.budget["en"]
	}
	name := t.quote(f.Name)
	reset := f.Day.AddDate(0, 0, 1)
	domains := strings.Join(f.Domains, ", ")
	if domains == "" {
		domains = t.noDomains
	}

	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(t.greeting)
	line("")
	line(fmt.Sprintf(t.reached, name, t.date(f.Day)))
	line("")
	labels := []string{t.token, t.domains, t.budget, t.spent}
	width := 0
	for _, l := range labels {
		width = max(width, len([]rune(l)))
	}
	for i, v := range []string{f.Name, domains, embed.FormatBudget(f.LimitMicro) + " USD", embed.FormatBudget(f.SpendMicro) + " USD"} {
		pad := strings.Repeat(" ", width-len([]rune(labels[i])))
		line(labels[i] + ":" + pad + " " + v)
	}
	line("")
	line(fmt.Sprintf(t.paused, t.date(reset)))
	line("")
	amount := f.ExampleUSD
	if amount == "" {
		amount = t.newBudget
		line(t.raiseAny)
	} else {
		line(fmt.Sprintf(t.raise, amount+" USD"))
	}
	line("")
	line("  POST " + f.EndpointURL)
	line(fmt.Sprintf("  id=%d", f.TokenID))
	line("  daily_budget_usd=" + amount)
	if f.HasBaseURL {
		line("")
		line(t.curl)
		line("")
		line(fmt.Sprintf("  curl -X POST %s -H \"Authorization: Bearer $SVC_KEY\" -d id=%d -d daily_budget_usd=%s",
			f.EndpointURL, f.TokenID, amount))
	}
	line("")
	line(t.immediate)
	line(t.once)
	return fmt.Sprintf(t.subject, name), b.String()
}
