package dashboard

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"svc/internal/billing"
)

// funcs are the template helpers. Those that format take the page's language first, since
// number and date formats differ between tr, en and de.
func funcs(assets *assetSet) template.FuncMap {
	return template.FuncMap{
		"asset":    assets.url,
		"usd":      formatUSD,
		"usdExact": formatUSDExact,
		"num":      formatInt,
		"pct":      formatPct,
		"datetime": formatDateTime,
		"date":     formatDate,
		"iso":      func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"json":     toJSON,
		"clip":     clip,
		"dict":     dict,
	}
}

// numberStyle is how a language writes numbers, US dollars and days. The template helpers
// and the charts (chartFormat) both read it, so that a chart's axis and legend write an
// amount or a day as the cards and tables beside them do.
type numberStyle struct {
	thousands, decimal string
	// moneyPrefix and moneySuffix go around an amount of dollars: "$4.95", "4,95 $".
	moneyPrefix, moneySuffix string
	// day and dayShort are Go layouts of a day, with and without the year.
	day, dayShort string
}

func styleOf(lang string) numberStyle {
	if lang == "tr" || lang == "de" {
		return numberStyle{thousands: ".", decimal: ",", moneySuffix: " $", day: "02.01.2006", dayShort: "02.01."}
	}
	return numberStyle{thousands: ",", decimal: ".", moneyPrefix: "$", day: "2006-01-02", dayShort: "01-02"}
}

// separators of a language: thousands, decimal.
func separators(lang string) (string, string) {
	st := styleOf(lang)
	return st.thousands, st.decimal
}

// formatInt writes n with the language's thousands separator.
func formatInt(lang string, n any) string {
	var v int64
	switch x := n.(type) {
	case int:
		v = int64(x)
	case int64:
		v = x
	default:
		return fmt.Sprint(n)
	}
	th, _ := separators(lang)
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(th)
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatUSD shows micro-USD as dollars with two decimals, or four when the amount is below
// one cent and not zero (a single answer costs fractions of a cent).
func formatUSD(lang string, micro int64) string {
	decimals := 2
	if micro != 0 && micro > -10_000 && micro < 10_000 {
		decimals = 4
	}
	return usdText(lang, micro, decimals)
}

// formatUSDExact shows micro-USD with four decimals: ledger rows and per-answer costs.
func formatUSDExact(lang string, micro int64) string { return usdText(lang, micro, 4) }

func usdText(lang string, micro int64, decimals int) string {
	neg := micro < 0
	if neg {
		micro = -micro
	}
	unit := int64(billing.MicroPerUSD)
	whole, frac := micro/unit, micro%unit
	scale := int64(1)
	for i := 0; i < 6-decimals; i++ {
		scale *= 10
	}
	// Round half up to the shown decimals.
	frac = (frac + scale/2) / scale
	if frac >= unit/scale {
		whole++
		frac = 0
	}
	st := styleOf(lang)
	s := st.moneyPrefix + formatInt(lang, whole) + st.decimal + fmt.Sprintf("%0*d", decimals, frac) + st.moneySuffix
	if neg {
		// The sign goes before the currency: "-$1.00", "-1,00 $".
		s = "-" + s
	}
	return s
}

// formatPct shows part/whole as a percentage with one decimal ("–" when whole is 0).
func formatPct(lang string, part, whole int) string {
	if whole == 0 {
		return "–"
	}
	v := float64(part) * 100 / float64(whole)
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if _, dec := separators(lang); dec == "," {
		s = strings.Replace(s, ".", ",", 1)
	}
	if lang == "tr" {
		return "%" + s
	}
	if lang == "de" {
		return s + " %"
	}
	return s + "%"
}

// formatDateTime shows a time in UTC, the zone every figure of svc is counted in.
func formatDateTime(lang string, t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format(styleOf(lang).day+" 15:04") + " UTC"
}

func formatDate(lang string, t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format(styleOf(lang).day)
}

// chartFormat is what the chart script (app.js) needs to write amounts, counts and days in
// the page's language: the separators, the dollar's place, the days as uPlot.fmtDate
// templates, and the name of the x value in the legend.
type chartFormat struct {
	Thousands   string `json:"thousands"`
	Decimal     string `json:"decimal"`
	MoneyPrefix string `json:"moneyPrefix"`
	MoneySuffix string `json:"moneySuffix"`
	Day         string `json:"day"`      // the legend's day: "{YYYY}-{MM}-{DD}", "{DD}.{MM}.{YYYY}"
	DayShort    string `json:"dayShort"` // an axis tick: "{MM}-{DD}", "{DD}.{MM}."
	DayLabel    string `json:"dayLabel"` // the legend's name of the day ("Day (UTC)")
}

// newChartFormat is lang's chartFormat; dayLabel is already translated.
func newChartFormat(lang, dayLabel string) chartFormat {
	st := styleOf(lang)
	return chartFormat{Thousands: st.thousands, Decimal: st.decimal, MoneyPrefix: st.moneyPrefix, MoneySuffix: st.moneySuffix,
		Day: uplotLayout(st.day), DayShort: uplotLayout(st.dayShort), DayLabel: dayLabel}
}

// uplotLayout turns a Go layout of a day into a uPlot.fmtDate template.
func uplotLayout(layout string) string {
	return strings.NewReplacer("2006", "{YYYY}", "01", "{MM}", "02", "{DD}").Replace(layout)
}

// toJSON embeds data for the page's script in a <script type="application/json"> island:
// html/template escapes it for that context, and the script reads it with JSON.parse.
func toJSON(v any) (template.JS, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return template.JS(b), nil
}

// clip shortens s to n characters with an ellipsis.
func clip(n int, s string) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// dict builds a map from key, value pairs, to hand several values to a partial.
func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("dict: odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}
