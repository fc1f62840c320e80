package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
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

// Reply kinds of the generated turns, with how often each is drawn (in 100).
var dashMix = []struct {
	source, via, event string
	low                bool
	weight             int
}{
	{store.SourceAI, "", store.EventAnswer, false, 55},
	{store.SourceAI, "", store.EventDegraded, false, 3},
	{store.SourceCacheTenant, store.ViaCurated, store.EventCacheTenant, false, 6},
	{store.SourceCacheTenant, store.ViaCache, store.EventCacheTenant, false, 10},
	{store.SourceCacheShared, "", store.EventCacheShared, false, 8},
	{store.SourceFallback, "", store.EventFallback, true, 12},
	{store.SourceSystem, "", store.EventCacheOnly, true, 6},
}

// dashData builds the fixture in dir through SQL in one transaction (SaveTurn would take
// minutes), writing what SaveTurn writes: both messages, the reply's usage event, the
// fallback question and the conversation's last message time; and some ratings.
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
	rng := rand.New(rand.NewPCG(1, 2))
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
	neighbourTokens := newTokens(neighbour, 2)

	// 500 questions asked in fallbacks, each in a few spellings, so Unanswered has groups.
	questions := make([]string, 500)
	for i := range questions {
		questions[i] = fmt.Sprintf("Kargo %d ne kadar sürer?", i)
	}
	spell := func(q string) string {
		switch rng.IntN(3) {
		case 0:
			return strings.ToUpper(q)
		case 1:
			return "  " + strings.ToLower(q) + " "
		}
		return q
	}

	type turn struct {
		conv, token int64
		account     int64
		at          time.Time
		lang        string
	}
	var turns []turn
	lastAt := map[int64]time.Time{}
	start := now.Add(-time.Duration(size.days) * 24 * time.Hour)
	span := time.Duration(size.days-1) * 24 * time.Hour
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		conv, err := tx.PrepareContext(ctx, `INSERT INTO conversations (account_id, scope, embed_token_id, visitor, lang,
			created_at, updated_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		defer conv.Close()
		addConversations := func(accountID int64, tokens []int64, n int) {
			for i := range n {
				first := start.Add(time.Duration(rng.Int64N(int64(span))))
				lang := []string{"en", "de", "tr"}[rng.IntN(3)]
				scope, visitor, token := "api", "", int64(0)
				if i > 0 {
					token = tokens[rng.IntN(len(tokens))]
					visitor = fmt.Sprintf("visitor-%d-%d", accountID, i)
					scope = visitorScope(token, visitor)
				}
				var id int64
				if err := conv.QueryRowContext(ctx, accountID, scope, nullInt(token), visitor, lang, ts(first), ts(first),
					ts(first)).Scan(&id); err != nil {
					tb.Fatal(err)
				}
				if accountID == f.account {
					f.convs = append(f.convs, id)
				}
				at := first
				for range size.turnsPer {
					turns = append(turns, turn{conv: id, token: token, account: accountID, at: at, lang: lang})
					at = at.Add(time.Duration(10+rng.IntN(600)) * time.Second)
				}
			}
		}
		addConversations(f.account, f.tokens, size.conversations)
		addConversations(neighbour, neighbourTokens, size.neighbourConversations)
		// Ids follow time, as they do when turns are saved as they happen.
		slices.SortFunc(turns, func(a, b turn) int { return a.at.Compare(b.at) })

		msg, err := tx.PrepareContext(ctx, `INSERT INTO messages (conversation_id, account_id, role, body, source, lang,
			low_confidence, via, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		defer msg.Close()
		event, err := tx.PrepareContext(ctx, `INSERT INTO usage_events (account_id, event_type, cost_micro, input_tokens,
			output_tokens, message_id, embed_token_id, created_at) VALUES (?, ?, ?, 900, 120, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer event.Close()
		fallback, err := tx.PrepareContext(ctx, `INSERT INTO fallback_questions (message_id, account_id, conversation_id,
			reply_id, question_key, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer fallback.Close()
		rating, err := tx.PrepareContext(ctx, `INSERT INTO feedback (account_id, message_id, rating, comment, resolved,
			created_at) VALUES (?, ?, ?, '', ?, ?)`)
		if err != nil {
			return err
		}
		defer rating.Close()
		for _, t := range turns {
			pick := rng.IntN(100)
			k := dashMix[0]
			for _, m := range dashMix {
				if pick < m.weight {
					k = m
					break
				}
				pick -= m.weight
			}
			q := fmt.Sprintf("Where is order %d? I ordered it last week and it has not arrived yet.", rng.IntN(1_000_000))
			if k.source == store.SourceFallback {
				q = spell(questions[rng.IntN(len(questions))])
			}
			var userID, replyID int64
			if err := msg.QueryRowContext(ctx, t.conv, t.account, store.RoleUser, q, k.source, t.lang, 0, "",
				ts(t.at)).Scan(&userID); err != nil {
				return err
			}
			if err := msg.QueryRowContext(ctx, t.conv, t.account, store.RoleAssistant,
				"Orders ship within two days; you can track yours under Orders in your account.", k.source, t.lang,
				boolInt(k.low), k.via, ts(t.at)).Scan(&replyID); err != nil {
				return err
			}
			cost := int64(0)
			if k.event == store.EventAnswer {
				cost = 3_000 + rng.Int64N(3_000)
			}
			if _, err := event.ExecContext(ctx, t.account, k.event, cost, replyID, nullInt(t.token), ts(t.at)); err != nil {
				return err
			}
			if k.source == store.SourceFallback {
				status := fallbackOpen
				if rng.IntN(4) == 0 {
					status = fallbackDismissed
				}
				if _, err := fallback.ExecContext(ctx, userID, t.account, t.conv, replyID, questionKey(q), status,
					ts(t.at)); err != nil {
					return err
				}
			}
			if rng.IntN(20) == 0 {
				r := store.RatingHelpful
				if rng.IntN(2) == 0 {
					r = store.RatingNotHelpful
				}
				if _, err := rating.ExecContext(ctx, t.account, replyID, r, rng.IntN(2), ts(t.at)); err != nil {
					return err
				}
			}
			lastAt[t.conv] = t.at
		}
		up, err := tx.PrepareContext(ctx, `UPDATE conversations SET last_message_at = ?, updated_at = ? WHERE id = ?`)
		if err != nil {
			return err
		}
		defer up.Close()
		for id, at := range lastAt {
			if _, err := up.ExecContext(ctx, ts(at), ts(at), id); err != nil {
				return err
			}
		}
		// The daily counts as migration 8 backfills them (TestDailyCountsMatchTheRows checks
		// they agree with the rows).
		for _, q := range []string{
			`INSERT INTO daily_replies (account_id, day, source, via, replies, low_confidence, charged)
			SELECT m.account_id, substr(m.created_at, 1, 10), m.source, m.via, COUNT(*), SUM(m.low_confidence),
				SUM(CASE WHEN EXISTS (SELECT 1 FROM usage_events u WHERE u.message_id = m.id AND u.cost_micro > 0)
					THEN 1 ELSE 0 END)
			FROM messages m WHERE m.role = 'assistant' GROUP BY m.account_id, substr(m.created_at, 1, 10), m.source, m.via`,
			`INSERT INTO daily_usage (account_id, day, event_type, events, cost_micro)
			SELECT account_id, substr(created_at, 1, 10), event_type, COUNT(*), SUM(cost_micro)
			FROM usage_events GROUP BY account_id, substr(created_at, 1, 10), event_type`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
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
