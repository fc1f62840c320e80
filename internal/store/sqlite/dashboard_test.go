package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// The charts read daily_replies and daily_usage for whole days and the rows for the part of
// a day a window starts with; whatever the window, they must say what the rows say. The
// fixture's daily rows are made by migration 8's backfill statements, so this also checks
// those.
func TestDailyCountsMatchTheRows(t *testing.T) {
	f := dashData(t, t.TempDir(), dashSize{conversations: 300, turnsPer: 6, neighbourConversations: 30, days: 4})
	ctx := context.Background()
	midnight := f.now.Truncate(24 * time.Hour)
	windows := []time.Time{{}, f.now.Add(-30 * 24 * time.Hour), f.now, f.now.Add(time.Hour)}
	for d := range 5 {
		day := midnight.Add(-time.Duration(d) * 24 * time.Hour)
		windows = append(windows, day, day.Add(time.Microsecond), day.Add(-time.Microsecond), day.Add(13*time.Hour+17*time.Minute))
	}
	for _, since := range windows {
		usage, err := f.s.DailyUsage(ctx, f.account, since)
		if err != nil {
			t.Fatal(err)
		}
		if want := rawDailyUsage(t, f, since); !slices.Equal(usage, want) {
			t.Fatalf("daily usage since %v:\n got %+v\nwant %+v", since, usage, want)
		}
		sources, err := f.s.DailySources(ctx, f.account, since)
		if err != nil {
			t.Fatal(err)
		}
		if want := rawDailySources(t, f, since); !slices.Equal(sources, want) {
			t.Fatalf("daily sources since %v:\n got %+v\nwant %+v", since, sources, want)
		}
		stats, err := f.s.ReplyStats(ctx, f.account, since)
		if err != nil {
			t.Fatal(err)
		}
		if want := rawReplyStats(t, f, since); stats != want {
			t.Fatalf("reply stats since %v: %+v, want %+v", since, stats, want)
		}
	}
}

// rawDailyUsage is DailyUsage computed from the usage events themselves.
func rawDailyUsage(t *testing.T, f dashFixture, since time.Time) []store.DayUsage {
	t.Helper()
	rows, err := f.s.r.Query(`SELECT substr(created_at, 1, 10), event_type, COUNT(*), SUM(cost_micro) FROM usage_events
		WHERE account_id = ? AND created_at >= ? GROUP BY 1, 2 ORDER BY 1, 2`, f.account, sqlstore.TS(since))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := []store.DayUsage{}
	for rows.Next() {
		var u store.DayUsage
		var day string
		if err := rows.Scan(&day, &u.EventType, &u.Count, &u.CostMicro); err != nil {
			t.Fatal(err)
		}
		u.Day, _ = sqlstore.ParseDay(day)
		out = append(out, u)
	}
	return out
}

// rawDailySources is DailySources computed from the messages themselves.
func rawDailySources(t *testing.T, f dashFixture, since time.Time) []store.DaySource {
	t.Helper()
	rows, err := f.s.r.Query(`SELECT substr(created_at, 1, 10), source, via, COUNT(*) FROM messages
		WHERE account_id = ? AND role = 'assistant' AND created_at >= ? GROUP BY 1, 2, 3`, f.account, sqlstore.TS(since))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var day, source, via string
		var n int
		if err := rows.Scan(&day, &source, &via, &n); err != nil {
			t.Fatal(err)
		}
		if kind, ok := store.DaySourceOf(source, via); ok {
			counts[day+" "+kind] += n
		}
	}
	out := []store.DaySource{}
	for k, n := range counts {
		var day, kind string
		fmt.Sscan(k, &day, &kind)
		d, _ := sqlstore.ParseDay(day)
		out = append(out, store.DaySource{Day: d, Source: kind, Count: n})
	}
	slices.SortFunc(out, func(a, b store.DaySource) int {
		return cmp.Or(a.Day.Compare(b.Day), cmp.Compare(a.Source, b.Source))
	})
	return out
}

// rawReplyStats is ReplyStats computed from the replies and their events.
func rawReplyStats(t *testing.T, f dashFixture, since time.Time) store.ReplyStats {
	t.Helper()
	var st store.ReplyStats
	if err := f.s.r.QueryRow(`SELECT COUNT(*), COALESCE(SUM(low_confidence), 0),
		COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM usage_events u WHERE u.message_id = m.id AND u.cost_micro > 0)
			THEN 0 ELSE 1 END), 0)
		FROM messages m WHERE account_id = ? AND role = 'assistant' AND created_at >= ?`, f.account, sqlstore.TS(since)).Scan(
		&st.Replies, &st.LowConfidence, &st.Free); err != nil {
		t.Fatal(err)
	}
	return st
}

// Conversations whose last messages share a time page by id, without a duplicate or a gap
// (the conformance suite's clock cannot stand still, this store's can).
func TestConversationPagingThroughTies(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	s, err := Open(ctx, t.TempDir(), Options{Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := store.Account{Name: "Ties", Plan: store.PlanStarter, Lang: "en", TonePreset: store.ToneProfessional}
	if err := s.CreateAccount(ctx, &a, nil); err != nil {
		t.Fatal(err)
	}
	tok := store.EmbedToken{AccountID: a.ID, Prefix: "svc_emb_00000000", Hash: []byte("h"), Domains: []string{"x.test"},
		DailyBudgetMicro: 1}
	if err := s.CreateEmbedToken(ctx, &tok, 5); err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i := range 8 {
		c, err := s.OpenVisitorConversation(ctx, a.ID, tok.ID, fmt.Sprint("visitor ", i), "en")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveTurn(ctx, &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en", EmbedTokenID: tok.ID,
			User:  store.Message{Role: store.RoleUser, Body: "q"},
			Reply: store.Message{Role: store.RoleAssistant, Body: "a", Source: store.SourceCacheShared}}); err != nil {
			t.Fatal(err)
		}
		want = append([]int64{c.ID}, want...)
	}
	var got []int64
	f := store.ConversationFilter{Limit: 3}
	for range 10 {
		page, err := s.ListConversations(ctx, a.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			got = append(got, r.ID)
			if !r.LastMessageAt.Equal(at) {
				t.Fatalf("last message at %v, want %v", r.LastMessageAt, at)
			}
		}
		last := page[len(page)-1]
		f.BeforeAt, f.BeforeID = last.LastMessageAt, last.ID
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paged %v, want %v", got, want)
	}
}
