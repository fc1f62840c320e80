package dashboard

import (
	"testing"
	"time"
)

// The money, number and day formats of each language: the cards and tables use them, and
// the charts get the same through chartFormat.
func TestFormatsFollowTheLanguage(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 27, 22, 53, 0, 0, time.UTC)
	for _, c := range []struct {
		lang, usd, neg, big, exact, date, datetime string
		chart                                      chartFormat
	}{
		{"en", "$4.95", "-$1.00", "$1,234,567.89", "$0.0021", "2026-11-27", "2026-11-27 22:53 UTC",
			chartFormat{Thousands: ",", Decimal: ".", MoneyPrefix: "$", Day: "{YYYY}-{MM}-{DD}", DayShort: "{MM}-{DD}", DayLabel: "Day"}},
		{"tr", "4,95 $", "-1,00 $", "1.234.567,89 $", "0,0021 $", "27.11.2026", "27.11.2026 22:53 UTC",
			chartFormat{Thousands: ".", Decimal: ",", MoneySuffix: " $", Day: "{DD}.{MM}.{YYYY}", DayShort: "{DD}.{MM}.", DayLabel: "Day"}},
		{"de", "4,95 $", "-1,00 $", "1.234.567,89 $", "0,0021 $", "27.11.2026", "27.11.2026 22:53 UTC",
			chartFormat{Thousands: ".", Decimal: ",", MoneySuffix: " $", Day: "{DD}.{MM}.{YYYY}", DayShort: "{DD}.{MM}.", DayLabel: "Day"}},
	} {
		got := []string{formatUSD(c.lang, 4_950_000), formatUSD(c.lang, -1_000_000), formatUSD(c.lang, 1_234_567_890_000),
			formatUSDExact(c.lang, 2_100), formatDate(c.lang, day), formatDateTime(c.lang, day)}
		want := []string{c.usd, c.neg, c.big, c.exact, c.date, c.datetime}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: %q, want %q", c.lang, got[i], want[i])
			}
		}
		if f := newChartFormat(c.lang, "Day"); f != c.chart {
			t.Errorf("%s chart format: %+v, want %+v", c.lang, f, c.chart)
		}
	}
}
