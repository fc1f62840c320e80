package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlite/sqlitetest"
)

// dashSize is the account the dashboard is built for: 100,000 messages in 5,000
// conversations, all within the charts' 30 days (the worst case for them), beside a
// neighbour account that the tenant filters must skip.
type dashSize struct {
	conversations, turnsPer int
	neighbourConversations  int
	days                    int
}

var benchSize = dashSize{conversations: 5_000, turnsPer: 10, neighbourConversations: 1_000, days: 30}

// dashFixture is a store holding a dashboard account built by dashData.
type dashFixture struct {
	s       *Store
	account int64
	tokens  []int64
	convs   []int64 // the account's conversations, the API one first
	now     time.Time
}

// dashData builds the fixture in dir: the accounts and their embed tokens through the store,
// their turns through sqlitetest.Fill on the store's writer.
func dashData(tb testing.TB, dir string, size dashSize) dashFixture {
	tb.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	s, err := Open(ctx, dir, Options{Now: func() time.Time { return now }})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	f := dashFixture{s: s, now: now}
	newAccount := func(name string) int64 {
		a := store.Account{Name: name, Plan: store.PlanGrowth, Lang: "en", BalanceMicro: 1_000_000_000,
			TonePreset: store.ToneProfessional, SendRatePerMin: 15, InputRate: 3_000_000, OutputRate: 25_000_000}
		if err := s.CreateAccount(ctx, &a, nil); err != nil {
			tb.Fatal(err)
		}
		return a.ID
	}
	newTokens := func(accountID int64, n int) []int64 {
		var ids []int64
		for i := range n {
			tok := store.EmbedToken{AccountID: accountID, Prefix: fmt.Sprintf("svc_emb_%08d", accountID*100+int64(i)),
				Hash: []byte(fmt.Sprint(accountID, i)), Label: fmt.Sprintf("site %d", i), Domains: []string{"shop.test"},
				DailyBudgetMicro: 5_000_000}
			if err := s.CreateEmbedToken(ctx, &tok, 10); err != nil {
				tb.Fatal(err)
			}
			ids = append(ids, tok.ID)
		}
		return ids
	}
	f.account = newAccount("Dashboard")
	f.tokens = newTokens(f.account, 5)
	neighbour := newAccount("Neighbour")
	// 500 fallback questions, each in a few spellings, so Unanswered has groups.
	sized := func(conversations int) sqlitetest.Size {
		return sqlitetest.Size{Conversations: conversations, TurnsPer: size.turnsPer, Days: size.days, Questions: 500}
	}
	convs, err := sqlitetest.Fill(ctx, s.w.DB, now,
		sqlitetest.Account{ID: f.account, Tokens: f.tokens, Size: sized(size.conversations)},
		sqlitetest.Account{ID: neighbour, Tokens: newTokens(neighbour, 2), Size: sized(size.neighbourConversations)})
	if err != nil {
		tb.Fatal(err)
	}
	f.convs = convs[0]
	return f
}

// measure runs fn b.N times and reports, beside the mean, the 95th percentile of one run: the
// page budget is a p95.
func measure(b *testing.B, fn func() error) {
	b.Helper()
	var took []time.Duration
	for b.Loop() {
		began := time.Now()
		if err := fn(); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(began))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Nanoseconds()), "p95-ns")
}

// BenchmarkDashboard measures the dashboard's pages on an account with 100,000 messages in
// 5,000 conversations. Run with: go test -run '^$' -bench Dashboard ./internal/store/sqlite/
func BenchmarkDashboard(b *testing.B) {
	began := time.Now()
	f := dashData(b, b.TempDir(), benchSize)
	b.Logf("fixture built in %v", time.Since(began).Round(time.Millisecond))
	ctx := context.Background()
	since := f.now.Add(-30 * 24 * time.Hour)

	list := func(name string, filter store.ConversationFilter) {
		b.Run("ListConversations/"+name, func(b *testing.B) {
			filter.Limit = 50
			measure(b, func() error {
				rows, err := f.s.ListConversations(ctx, f.account, filter)
				if err == nil && len(rows) == 0 {
					err = fmt.Errorf("no conversations")
				}
				return err
			})
		})
	}
	list("first_page", store.ConversationFilter{})
	first, err := f.s.ListConversations(ctx, f.account, store.ConversationFilter{Limit: 50})
	if err != nil {
		b.Fatal(err)
	}
	last := first[len(first)-1]
	list("second_page", store.ConversationFilter{BeforeAt: last.LastMessageAt, BeforeID: last.ID})
	list("token", store.ConversationFilter{EmbedTokenID: f.tokens[0]})
	list("lang", store.ConversationFilter{Lang: "tr"})
	list("last_week", store.ConversationFilter{Since: f.now.Add(-7 * 24 * time.Hour)})
	list("had_fallback", store.ConversationFilter{HadFallback: true})
	list("not_helpful", store.ConversationFilter{Rating: store.RatingNotHelpful})
	list("api_channel", store.ConversationFilter{Channel: store.ChannelAPI})

	b.Run("Transcript", func(b *testing.B) {
		measure(b, func() error {
			msgs, err := f.s.Transcript(ctx, f.account, first[0].ID, 0, 50)
			if err == nil && len(msgs) == 0 {
				err = fmt.Errorf("no messages")
			}
			return err
		})
	})
	b.Run("Overview", func(b *testing.B) {
		measure(b, func() error {
			if _, err := f.s.DailyUsage(ctx, f.account, since); err != nil {
				return err
			}
			if _, err := f.s.DailySources(ctx, f.account, since); err != nil {
				return err
			}
			if _, err := f.s.ReplyStats(ctx, f.account, since); err != nil {
				return err
			}
			_, err := f.s.Unanswered(ctx, f.account, since, 10)
			return err
		})
	})
	part := func(name string, fn func() error) {
		b.Run("Overview/"+name, func(b *testing.B) { measure(b, fn) })
	}
	part("DailyUsage", func() error { _, err := f.s.DailyUsage(ctx, f.account, since); return err })
	part("DailySources", func() error { _, err := f.s.DailySources(ctx, f.account, since); return err })
	part("ReplyStats", func() error { _, err := f.s.ReplyStats(ctx, f.account, since); return err })
	part("Unanswered", func() error { _, err := f.s.Unanswered(ctx, f.account, since, 10); return err })
	part("AskedQuestions", func() error {
		qs, err := f.s.AskedQuestions(ctx, f.account, since, 1000)
		if err == nil && len(qs) != 1000 {
			err = fmt.Errorf("%d questions", len(qs))
		}
		return err
	})
	// What the dashboard's bookkeeping adds to a turn is in here: the conversation's last
	// message time, the daily counts and, for a fallback, the review item.
	b.Run("SaveTurn", func(b *testing.B) {
		c, err := f.s.GetConversation(ctx, f.account, f.convs[len(f.convs)-1])
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		measure(b, func() error {
			i++
			return f.s.SaveTurn(ctx, &store.Turn{AccountID: f.account, ConversationID: c.ID, Lang: "tr",
				EmbedTokenID: c.EmbedTokenID,
				User: store.Message{Role: store.RoleUser, Body: fmt.Sprint("Kargo ne kadar sürer? ", i),
					Source: store.SourceFallback},
				Reply: store.Message{Role: store.RoleAssistant, Body: "Bilmiyorum.", Source: store.SourceFallback,
					LowConfidence: true},
				Charge: store.Charge{EventType: store.EventFallback}})
		})
	})
	b.Run("ReviewQueue", func(b *testing.B) {
		measure(b, func() error {
			_, _, err := f.s.ReviewQueue(ctx, f.account, "", 0, 20)
			return err
		})
	})
}
