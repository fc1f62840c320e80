package dashboard_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// uiChart is what a drawn chart writes, read through its uPlot instance (app.js keeps it on
// the chart's element): the legend's name of the x value, an amount or count and a day as
// the axes write them, a value as the legend writes it, and the legend's text.
type uiChart struct {
	DayLabel string
	Axis     []string // the y axis's labels of 0.03 and 1234.5
	Tick     []string // the x axis's label of 2026-11-27 00:00 UTC
	Day      string   // the legend's day of the same time
	Value    string   // the legend's value of the first series at 0.0021
	Legend   string
}

const uiChartJS = `[...document.querySelectorAll('[data-chart]')].map(e => { const u = e.uplot; return {
	DayLabel: u.series[0].label, Axis: u.axes[1].values(u, [0.03, 1234.5], 1, 0, 0),
	Tick: u.axes[0].values(u, [%[1]d], 0, 0, 0), Day: u.series[0].value(u, %[1]d), Value: u.series[1].value(u, 0.0021),
	Legend: e.querySelector('.u-legend').innerText}; })`

// TestBrowserChartsWriteThePagesLanguage: the overview's charts write amounts, counts, days
// and the legend's day as the page's language does, as the cards beside them do ("4,95 $"
// on a Turkish page, not "$4.95"), and count days in UTC whatever the browser's zone.
func TestBrowserChartsWriteThePagesLanguage(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	_, key, email, pw := h.tenant("Chart Shop")
	for _, q := range []string{"How long does delivery take?", "Which hiking boots do you have?", "Hello!"} {
		uiAsk(t, h, key, q)
	}
	u := uiOpen(t, bctx, h.srv.URL)
	// A zone far from UTC: a day drawn in the browser's zone would be the day before.
	if _, err := chromedp.Call(u.ctx, emulation.SetTimezoneOverride,
		emulation.SetTimezoneOverrideParams{TimezoneID: "America/Los_Angeles"}); err != nil {
		t.Fatalf("the browser's zone: %v", err)
	}
	u.signIn(email, pw)
	day := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC).Unix()
	for _, c := range []struct {
		lang, dayLabel, card string
		axis                 []string
		count                []string
		tick, day, value     string
	}{
		{"en", "Day (UTC)", "$", []string{"$0.03", "$1,234.50"}, []string{"0", "1,235"}, "11-27", "2026-11-27", "$0.0021"},
		{"tr", "Gün (UTC)", " $", []string{"0,03 $", "1.234,50 $"}, []string{"0", "1.235"}, "27.11.", "27.11.2026", "0,0021 $"},
		{"de", "Tag (UTC)", " $", []string{"0,03 $", "1.234,50 $"}, []string{"0", "1.235"}, "27.11.", "27.11.2026", "0,0021 $"},
	} {
		u.setLang(c.lang)
		if st := u.open("/dashboard/"); st != http.StatusOK {
			t.Fatalf("overview (%s): HTTP %d", c.lang, st)
		}
		u.wait("the charts", `[...document.querySelectorAll('[data-chart]')].length === 2 &&
			[...document.querySelectorAll('[data-chart]')].every(e => e.uplot && e.querySelector('.uplot canvas'))`)
		// The balance card, for comparison: the chart must put the dollar where it does.
		if card := u.text(".stat .value"); !strings.Contains(card, c.card) || (c.lang == "en") != strings.HasPrefix(card, "$") {
			t.Errorf("%s: the balance card reads %q", c.lang, card)
		}
		charts := uiMust[[]uiChart](u, fmt.Sprintf(uiChartJS, day))
		money, counts := charts[0], charts[1]
		for i, ch := range charts {
			if ch.DayLabel != c.dayLabel || !strings.Contains(ch.Legend, c.dayLabel) || strings.Contains(ch.Legend, "Time") {
				t.Errorf("%s chart %d: the legend's day is %q (legend %q), want %q", c.lang, i, ch.DayLabel, ch.Legend, c.dayLabel)
			}
			if len(ch.Tick) != 1 || ch.Tick[0] != c.tick || ch.Day != c.day {
				t.Errorf("%s chart %d: 2026-11-27 is %q on the axis and %q in the legend, want %q and %q", c.lang, i, ch.Tick, ch.Day, c.tick, c.day)
			}
		}
		if strings.Join(money.Axis, "|") != strings.Join(c.axis, "|") || money.Value != c.value {
			t.Errorf("%s cost chart: the axis writes %q, the legend %q; want %q and %q", c.lang, money.Axis, money.Value, c.axis, c.value)
		}
		if strings.Join(counts.Axis, "|") != strings.Join(c.count, "|") {
			t.Errorf("%s answers chart: the axis writes %q, want %q", c.lang, counts.Axis, c.count)
		}
	}
}
