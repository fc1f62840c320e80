package dashboard

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"time"

	"svc/internal/billing"
	"svc/internal/store"
	"svc/internal/studio"
)

var pageOverview = page{name: "overview", title: "nav.overview", nav: "overview"}

// overviewStore is what the overview reads: four grouped reads of the last 30 days, each
// answered from a covering index, and the newest questions (at most overviewQuestions, read
// from an index from the newest), so the page costs the same at 100 or 100,000 messages.
type overviewStore interface {
	DailyUsage(ctx context.Context, accountID int64, since time.Time) ([]store.DayUsage, error)
	DailySources(ctx context.Context, accountID int64, since time.Time) ([]store.DaySource, error)
	ReplyStats(ctx context.Context, accountID int64, since time.Time) (store.ReplyStats, error)
	Unanswered(ctx context.Context, accountID int64, since time.Time, limit int) ([]store.UnansweredQuestion, error)
	AskedQuestions(ctx context.Context, accountID int64, since time.Time, limit int) ([]store.AskedQuestion, error)
}

// overviewDays is the charts' window in UTC days, today included.
const overviewDays = 30

// overviewUnanswered is how many unanswered questions the overview lists.
const overviewUnanswered = 10

func (s *Server) overviewRoutes(rt router) {
	// Agents see the same figures as owners: nothing on the page changes anything.
	rt.handle("GET /dashboard/{$}", member, s.overviewPage)
	rt.handle("GET /dashboard/insights", member, s.insightsPage)
}

type overviewData struct {
	// TestsBroken is the test set's regression that still stands (tests_overview.go); nil
	// when there is none.
	TestsBroken       *testsRegression
	Balance, Reserved int64
	// AnswersToday counts the day's answer events, the ones the daily quota counts.
	AnswersToday int
	DailyQuota   int // 0: unlimited
	Stats        store.ReplyStats
	Days         []time.Time // the charts' days, oldest first
	Cost         chart
	Sources      chart
	Unanswered   []store.UnansweredQuestion
}

// Empty reports whether the window holds no conversation at all.
func (d overviewData) Empty() bool { return d.Stats.Replies == 0 }

// QuotaUsed is the quota bar's value: the answers of the day, at most the quota.
func (d overviewData) QuotaUsed() int { return min(d.AnswersToday, d.DailyQuota) }

// QuotaLeft is what is left of the daily quota (never below zero).
func (d overviewData) QuotaLeft() int { return max(d.DailyQuota-d.AnswersToday, 0) }

// chart is one chart of app.js ({labels, series, money, format}) and the table beside it.
type chart struct {
	Labels []int64  `json:"labels"` // unix seconds of each day, 00:00 UTC
	Series []series `json:"series"`
	Money  bool     `json:"money"`
	// Format is how the chart writes amounts, counts and days: as the page does.
	Format chartFormat `json:"format"`
}

// series is one line of a chart. Values are what uPlot draws (dollars for money charts);
// Raw are the same figures as integers (micro-USD or counts) for the table.
type series struct {
	Label  string    `json:"label"`
	Values []float64 `json:"values"`
	Color  string    `json:"color"`
	Raw    []int64   `json:"-"`
}

// Total sums the series.
func (s series) Total() int64 {
	var t int64
	for _, v := range s.Raw {
		t += v
	}
	return t
}

// DayTotal sums the chart's series on day i.
func (c chart) DayTotal(i int) int64 {
	var t int64
	for _, s := range c.Series {
		t += s.Raw[i]
	}
	return t
}

// Total sums every series.
func (c chart) Total() int64 {
	var t int64
	for _, s := range c.Series {
		t += s.Total()
	}
	return t
}

// Colours of the series: each is at least 3:1 against the white chart background.
var (
	eventColors = map[string]string{
		store.EventAnswer: "#1d4e89", store.EventSummary: "#7a4d00", studio.EventMarketing: "#6a3d9a",
		studio.EventIntelligence: "#1e6b34",
	}
	otherColors  = []string{"#a4161a", "#005f73", "#545c66", "#8a3b12"}
	sourceColors = map[string]string{
		store.DaySourceAI: "#1d4e89", store.DaySourceCache: "#1e6b34", store.DaySourceCurated: "#6a3d9a",
		store.DaySourceFallback: "#a4161a", store.DaySourceSystem: "#545c66",
	}
	// daySources is the order of the sources chart.
	daySources = []string{store.DaySourceAI, store.DaySourceCache, store.DaySourceCurated, store.DaySourceFallback,
		store.DaySourceSystem}
)

func (s *Server) overviewPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	ctx := r.Context()
	today := s.now().UTC().Truncate(24 * time.Hour)
	since := today.AddDate(0, 0, -(overviewDays - 1))
	id := c.Account.ID
	usage, err := s.st.DailyUsage(ctx, id, since)
	if err != nil {
		return err
	}
	sources, err := s.st.DailySources(ctx, id, since)
	if err != nil {
		return err
	}
	stats, err := s.st.ReplyStats(ctx, id, since)
	if err != nil {
		return err
	}
	unanswered, err := s.st.Unanswered(ctx, id, since, overviewUnanswered)
	if err != nil {
		return err
	}
	d := overviewData{Balance: c.Account.BalanceMicro, Reserved: c.Account.ReservedMicro,
		DailyQuota: c.Account.DailyAnswers, Stats: stats, Unanswered: unanswered}
	if d.TestsBroken, err = s.overviewTests(ctx, id); err != nil {
		return err
	}
	d.Days = make([]time.Time, overviewDays)
	labels := make([]int64, overviewDays)
	for i := range d.Days {
		d.Days[i] = since.AddDate(0, 0, i)
		labels[i] = d.Days[i].Unix()
	}
	// Today's answers come from the same grouped read as the chart: the quota counts answer
	// events since 00:00 UTC, which is exactly today's bucket.
	for _, u := range usage {
		if u.EventType == store.EventAnswer && u.Day.Equal(today) {
			d.AnswersToday = u.Count
		}
	}
	d.Cost = s.costChart(c.Lang, usage, since, labels)
	d.Sources = s.sourcesChart(c.Lang, sources, since, labels)
	format := newChartFormat(c.Lang, s.cat.T(c.Lang, "overview.day"))
	d.Cost.Format, d.Sources.Format = format, format
	s.render(w, r, c, pageOverview, 0, d)
	return nil
}

// dayIndex is day's position in the window, or -1 outside it.
func dayIndex(since, day time.Time) int {
	i := int(day.Sub(since) / (24 * time.Hour))
	if day.Before(since) || i >= overviewDays {
		return -1
	}
	return i
}

func newSeries(label, color string) series {
	return series{Label: label, Color: color, Values: make([]float64, overviewDays), Raw: make([]int64, overviewDays)}
}

// costChart is the cost per day of every event type that cost anything in the window; free
// types would only draw flat lines at zero.
func (s *Server) costChart(lang string, usage []store.DayUsage, since time.Time, labels []int64) chart {
	byType := map[string]*series{}
	var types []string
	for _, u := range usage {
		i := dayIndex(since, u.Day)
		if u.CostMicro == 0 || i < 0 {
			continue
		}
		sr := byType[u.EventType]
		if sr == nil {
			x := newSeries(s.eventLabel(lang, u.EventType), "")
			sr = &x
			byType[u.EventType] = sr
			types = append(types, u.EventType)
		}
		sr.Raw[i] += u.CostMicro
	}
	// Answers first, then the rest by name, so colours and columns stay put between visits.
	rank := func(t string) int {
		if t == store.EventAnswer {
			return 0
		}
		return 1
	}
	slices.SortFunc(types, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	ch := chart{Labels: labels, Money: true, Series: []series{}}
	other := 0
	for _, t := range types {
		sr := byType[t]
		if sr.Color = eventColors[t]; sr.Color == "" {
			sr.Color = otherColors[other%len(otherColors)]
			other++
		}
		for i, v := range sr.Raw {
			sr.Values[i] = billing.USD(v)
		}
		ch.Series = append(ch.Series, *sr)
	}
	return ch
}

// sourcesChart is the replies per day of every source, all five always shown so a source
// that did nothing is visibly zero.
func (s *Server) sourcesChart(lang string, rows []store.DaySource, since time.Time, labels []int64) chart {
	ch := chart{Labels: labels, Series: make([]series, len(daySources))}
	pos := map[string]int{}
	for k, src := range daySources {
		ch.Series[k] = newSeries(s.cat.T(lang, "overview.source."+src), sourceColors[src])
		pos[src] = k
	}
	for _, row := range rows {
		k, ok := pos[row.Source]
		i := dayIndex(since, row.Day)
		if !ok || i < 0 {
			continue
		}
		ch.Series[k].Raw[i] += int64(row.Count)
		ch.Series[k].Values[i] += float64(row.Count)
	}
	return ch
}

// eventLabel names a usage event type in lang; a type the catalog does not know yet shows
// as its identifier rather than as a missing key.
func (s *Server) eventLabel(lang, eventType string) string {
	key := "billing.event." + eventType
	if !s.cat.Has(key) {
		return eventType
	}
	return s.cat.T(lang, key)
}
