package storetest

import (
	"slices"
	"testing"
	"time"

	"svc/internal/store"
)

// toNextDays moves the clock to a few seconds before a UTC midnight at least a day away and
// returns the day that midnight ends and the one it starts.
func toNextDays(clock *Clock) (day1, day2 time.Time) {
	now := clock.Now().UTC()
	day2 = now.Truncate(24 * time.Hour).Add(48 * time.Hour)
	clock.Advance(day2.Add(-3 * time.Second).Sub(now))
	return day2.Add(-24 * time.Hour), day2
}

func testDashboardDailyCharts(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Charted", 10_000_000)
	b, _ := NewAccount(t, s, "Uncharted", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := s.OpenConversation(ctx(), b.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	// Before the window.
	ask(t, s, c, "en", "old", aiReply.costing(9_000))
	ask(t, s, c, "en", "old fallback", fallbackReply)

	day1, day2 := toNextDays(clock) // the clock is at 23:59:57 of day1
	degraded := replySpec{source: store.SourceAI, charge: store.Charge{EventType: store.EventDegraded}}
	for _, r := range []replySpec{aiReply.costing(4_000), degraded, curatedReply, reusedReply,
		{source: store.SourceCacheTenant, charge: store.Charge{EventType: store.EventCacheTenant}}, // before Via existed
		smallTalkReply, fallbackReply, systemReply, {source: store.SourceAI}} { // the last has no usage event
		ask(t, s, c, "en", "day one", r)
	}
	ask(t, s, bc, "en", "the other account", aiReply.costing(1_000))
	clock.Advance(6 * time.Second) // 00:00:03 of day2
	cacheOnly := replySpec{source: store.SourceSystem, low: true, charge: store.Charge{EventType: store.EventCacheOnly}}
	for _, r := range []replySpec{aiReply.costing(5_000).summarized(700), fallbackReply, fallbackReply, cacheOnly} {
		ask(t, s, c, "en", "day two", r)
	}
	ask(t, s, bc, "en", "the other account", fallbackReply)

	usage, err := s.DailyUsage(ctx(), a.ID, day1)
	if err != nil {
		t.Fatal(err)
	}
	wantUsage := []store.DayUsage{
		dayUsage(day1, store.EventAnswer, 1, 4_000),
		dayUsage(day1, store.EventCacheShared, 1, 0),
		dayUsage(day1, store.EventCacheTenant, 3, 0),
		dayUsage(day1, store.EventDegraded, 1, 0),
		dayUsage(day1, store.EventFallback, 1, 0),
		dayUsage(day1, store.EventSystem, 1, 0),
		dayUsage(day2, store.EventAnswer, 1, 5_000),
		dayUsage(day2, store.EventCacheOnly, 1, 0),
		dayUsage(day2, store.EventFallback, 2, 0),
		dayUsage(day2, store.EventSummary, 1, 700),
	}
	if !slices.EqualFunc(usage, wantUsage, sameDayUsage) {
		t.Fatalf("daily usage:\n got %+v\nwant %+v", usage, wantUsage)
	}
	if usage, _ := s.DailyUsage(ctx(), a.ID, day2); len(usage) != 4 || !usage[0].Day.Equal(day2) {
		t.Fatalf("daily usage since day2: %+v", usage)
	}
	// A window may start inside a day: that day counts from the window's start.
	for _, since := range []time.Time{day1.Add(12 * time.Hour), day2.Add(-4 * time.Second)} {
		if usage, err := s.DailyUsage(ctx(), a.ID, since); err != nil || !slices.EqualFunc(usage, wantUsage, sameDayUsage) {
			t.Fatalf("daily usage since %v: %v\n got %+v\nwant %+v", since, err, usage, wantUsage)
		}
	}
	if usage, _ := s.DailyUsage(ctx(), a.ID, day2.Add(time.Second)); !slices.EqualFunc(usage, wantUsage[6:], sameDayUsage) {
		t.Fatalf("daily usage since 00:00:01 of day2: %+v", usage)
	}
	if usage, _ := s.DailyUsage(ctx(), a.ID, day2.Add(10*time.Second)); len(usage) != 0 {
		t.Fatalf("daily usage since after the last turn: %+v", usage)
	}

	sources, err := s.DailySources(ctx(), a.ID, day1)
	if err != nil {
		t.Fatal(err)
	}
	wantSources := []store.DaySource{
		daySource(day1, store.DaySourceAI, 3), // the answer, the degraded one and the one without an event
		daySource(day1, store.DaySourceCache, 3),
		daySource(day1, store.DaySourceCurated, 1),
		daySource(day1, store.DaySourceFallback, 1),
		daySource(day1, store.DaySourceSystem, 1),
		daySource(day2, store.DaySourceAI, 1),
		daySource(day2, store.DaySourceFallback, 2),
		daySource(day2, store.DaySourceSystem, 1),
	}
	sameSource := func(x, y store.DaySource) bool {
		return x.Day.Equal(y.Day) && x.Day.Location() == time.UTC && x.Source == y.Source && x.Count == y.Count
	}
	if !slices.EqualFunc(sources, wantSources, sameSource) {
		t.Fatalf("daily sources:\n got %+v\nwant %+v", sources, wantSources)
	}
	if got, _ := s.DailySources(ctx(), a.ID, day1.Add(time.Hour)); !slices.EqualFunc(got, wantSources, sameSource) {
		t.Fatalf("daily sources since 01:00 of day1: %+v", got)
	}
	if got, _ := s.DailySources(ctx(), a.ID, day2.Add(time.Second)); !slices.EqualFunc(got, wantSources[5:], sameSource) {
		t.Fatalf("daily sources since 00:00:01 of day2: %+v", got)
	}

	for _, tc := range []struct {
		since time.Time
		want  store.ReplyStats
	}{
		{day1, store.ReplyStats{Replies: 13, Free: 11, LowConfidence: 5}},
		{day2, store.ReplyStats{Replies: 4, Free: 3, LowConfidence: 3}},
		{time.Time{}, store.ReplyStats{Replies: 15, Free: 12, LowConfidence: 6}},
		{day2.Add(time.Hour), store.ReplyStats{}},
		{day1.Add(12 * time.Hour), store.ReplyStats{Replies: 13, Free: 11, LowConfidence: 5}},
		{day2.Add(time.Second), store.ReplyStats{Replies: 4, Free: 3, LowConfidence: 3}},
	} {
		if got, err := s.ReplyStats(ctx(), a.ID, tc.since); err != nil || got != tc.want {
			t.Fatalf("reply stats since %v: %v %+v, want %+v", tc.since, err, got, tc.want)
		}
	}

	// The other account's charts hold its own replies only.
	if got, _ := s.ReplyStats(ctx(), b.ID, day1); got != (store.ReplyStats{Replies: 2, Free: 1, LowConfidence: 1}) {
		t.Fatalf("the other account's stats: %+v", got)
	}
	if got, _ := s.DailyUsage(ctx(), b.ID, day1); len(got) != 2 || got[0].CostMicro != 1_000 {
		t.Fatalf("the other account's usage: %+v", got)
	}
	if got, _ := s.DailySources(ctx(), b.ID, day1); len(got) != 2 {
		t.Fatalf("the other account's sources: %+v", got)
	}
}

func dayUsage(day time.Time, eventType string, count int, cost int64) store.DayUsage {
	return store.DayUsage{Day: day, EventType: eventType, Count: count, CostMicro: cost}
}

func daySource(day time.Time, source string, count int) store.DaySource {
	return store.DaySource{Day: day, Source: source, Count: count}
}

func sameDayUsage(x, y store.DayUsage) bool {
	return x.Day.Equal(y.Day) && x.Day.Location() == time.UTC && x.EventType == y.EventType && x.Count == y.Count &&
		x.CostMicro == y.CostMicro
}

func testDashboardUnanswered(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Unanswered", 10_000_000)
	b, _ := NewAccount(t, s, "Neighbour", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "tr")
	if err != nil {
		t.Fatal(err)
	}
	tok := newEmbedToken(t, s, a.ID, "widget", 1_000_000)
	v := openVisitor(t, s, a.ID, tok.ID, "visitor")
	bc, _ := s.OpenConversation(ctx(), b.ID, "tr")

	ask(t, s, c, "tr", "İade var mı?", fallbackReply)
	clock.Advance(time.Hour)
	since := clock.Now()
	clock.Advance(time.Hour)
	ask(t, s, c, "tr", "Kargo ne kadar sürer?", fallbackReply)
	ask(t, s, c, "tr", "Kargo ne kadar sürer?", aiReply) // answered: not a fallback
	clock.Advance(time.Minute)
	ask(t, s, v, "tr", "İADE VAR MI?", fallbackReply)
	clock.Advance(time.Minute)
	ask(t, s, c, "de", "Wo ist der Laden?", fallbackReply)
	clock.Advance(time.Minute)
	last := ask(t, s, v, "tr", "  iade var mı? ", fallbackReply)
	ask(t, s, bc, "tr", "iade var mı?", fallbackReply)

	got, err := s.Unanswered(ctx(), a.ID, since, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("unanswered: %+v", got)
	}
	if q := got[0]; q.Count != 2 || q.Question != "  iade var mı? " || q.MessageID != last.User.ID || q.Lang != "tr" ||
		!q.LastAskedAt.Equal(micro(last.User.CreatedAt)) {
		t.Fatalf("most asked (İ and I folded as Turkish text needs, the old one outside the window): %+v", q)
	}
	// Equal counts: the last asked first.
	if got[1].Question != "Wo ist der Laden?" || got[1].Lang != "de" || got[1].Count != 1 ||
		got[2].Question != "Kargo ne kadar sürer?" || got[2].Count != 1 {
		t.Fatalf("the rest: %+v", got[1:])
	}
	if all, _ := s.Unanswered(ctx(), a.ID, time.Time{}, 10); len(all) != 3 || all[0].Count != 3 {
		t.Fatalf("all time: %+v", all)
	}
	if top, _ := s.Unanswered(ctx(), a.ID, since, 1); len(top) != 1 || top[0].Count != 2 {
		t.Fatalf("limit 1: %+v", top)
	}
	if other, _ := s.Unanswered(ctx(), b.ID, time.Time{}, 10); len(other) != 1 || other[0].Count != 1 {
		t.Fatalf("the other account: %+v", other)
	}
}
