// Package sqlitetest builds the large dashboard accounts that the SQLite store's and the
// dashboard's benchmarks (and a few store tests) run on. It is imported by tests only. It
// writes through database/sql rather than the store, so that the store's own internal tests
// can use it without an import cycle.
package sqlitetest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Account is one account to fill: its id, the embed tokens its widget conversations are
// spread over, and how much to write.
type Account struct {
	ID     int64
	Tokens []int64
	Size   Size
}

// Size is how much Fill writes for one account.
type Size struct {
	Conversations int // the first is the API one, the others widget visitors'
	TurnsPer      int // turns (a question and its reply) in each conversation
	Days          int // the conversations begin within the last Days-1 days, so every turn is within Days
	Questions     int // distinct fallback questions, each asked in a few spellings, so Unanswered has groups
}

// mix are the reply kinds of the generated turns with their weights (in 100), as chat
// records them: the reply's source and via, its usage event, whether it was unsure.
var mix = []struct {
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

// ts is the store's time layout: fixed-width UTC text that sorts as it compares.
func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// turn is one generated question and reply, before it is written.
type turn struct {
	account     int64
	conv, token int64
	at          time.Time
	lang        string
}

// Fill gives each account Size.Conversations conversations of Size.TurnsPer turns over the
// Size.Days days before now, spread over its embed tokens, in one transaction on db (the
// store's writer or a second connection to its file). The accounts' turns are interleaved
// by time, as they are when they share a server, so a tenant's rows lie among its
// neighbours'. It writes what SaveTurn writes (SaveTurn stamps every turn "now" and would
// take minutes): both messages, the reply's usage event and ledger charge, the fallback
// question (some dismissed), the conversation's last message time and the daily totals;
// beside them some ratings (some resolved) and a top-up that pays for every charge. The
// generator has a fixed seed, so a fixture is the same every run. It returns each account's
// conversations in the order they were made, the API one first.
func Fill(ctx context.Context, db *sql.DB, now time.Time, accounts ...Account) ([][]int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("fill: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	rng := rand.New(rand.NewPCG(1, 2))
	start := now.UTC().Add(-time.Duration(slices.MaxFunc(accounts, func(x, y Account) int {
		return x.Size.Days - y.Size.Days
	}).Size.Days) * 24 * time.Hour)
	convs := make([][]int64, len(accounts))
	var turns []turn
	for i, a := range accounts {
		if convs[i], turns, err = conversations(ctx, tx, rng, a, now, turns); err != nil {
			return nil, fmt.Errorf("fill account %d: conversations: %w", a.ID, err)
		}
	}
	// Ids follow time, as they do when turns are saved as they happen.
	slices.SortFunc(turns, func(x, y turn) int { return x.at.Compare(y.at) })
	if err := writeTurns(ctx, tx, rng, accounts, turns, start); err != nil {
		return nil, fmt.Errorf("fill: turns: %w", err)
	}
	for _, a := range accounts {
		if err := rollups(ctx, tx, a.ID); err != nil {
			return nil, fmt.Errorf("fill account %d: daily totals: %w", a.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("fill: %w", err)
	}
	return convs, nil
}

// conversations writes the account's conversations and returns their ids, with their turns
// appended to turns.
func conversations(ctx context.Context, tx *sql.Tx, rng *rand.Rand, a Account, now time.Time,
	turns []turn) ([]int64, []turn, error) {
	if len(a.Tokens) == 0 && a.Size.Conversations > 1 {
		return nil, nil, fmt.Errorf("widget conversations need an embed token")
	}
	conv, err := tx.PrepareContext(ctx, `INSERT INTO conversations (account_id, scope, embed_token_id, visitor, lang,
		created_at, updated_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	if err != nil {
		return nil, nil, err
	}
	defer conv.Close()
	start := now.UTC().Add(-time.Duration(a.Size.Days) * 24 * time.Hour)
	span := int64(max(a.Size.Days-1, 1)) * int64(24*time.Hour)
	var ids []int64
	for i := range a.Size.Conversations {
		first := start.Add(time.Duration(rng.Int64N(span)))
		lang := []string{"en", "de", "tr"}[rng.IntN(3)]
		scope, visitor, token := "api", "", int64(0)
		if i > 0 {
			token = a.Tokens[rng.IntN(len(a.Tokens))]
			visitor = fmt.Sprintf("visitor-%d-%d", a.ID, i)
			scope = fmt.Sprintf("embed:%d:%s", token, visitor)
		}
		var id int64
		if err := conv.QueryRowContext(ctx, a.ID, scope, nullInt(token), visitor, lang, ts(first), ts(first),
			ts(first)).Scan(&id); err != nil {
			return nil, nil, err
		}
		ids = append(ids, id)
		at := first
		for range a.Size.TurnsPer {
			turns = append(turns, turn{account: a.ID, conv: id, token: token, at: at, lang: lang})
			at = at.Add(time.Duration(10+rng.IntN(600)) * time.Second)
		}
	}
	return ids, turns, nil
}

// writeTurns writes the turns' rows and, at start, the top-ups that pay for them, and brings
// the accounts' balances and their conversations' last message times up to date.
func writeTurns(ctx context.Context, tx *sql.Tx, rng *rand.Rand, accounts []Account, turns []turn,
	start time.Time) error {
	questions := map[int64][]string{}
	// A top-up large enough for every charge, after whatever the account already holds, so
	// that the ledger's running balance stays whole.
	balance := map[int64]int64{}
	const topup = int64(1_000_000_000)
	for _, a := range accounts {
		qs := make([]string, max(a.Size.Questions, 1))
		for i := range qs {
			qs[i] = fmt.Sprintf("Kargo %d ne kadar sürer?", i)
		}
		questions[a.ID] = qs
		var b int64
		if err := tx.QueryRowContext(ctx, `SELECT balance_micro FROM accounts WHERE id = ?`, a.ID).Scan(&b); err != nil {
			return err
		}
		balance[a.ID] = b + topup
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note,
			created_at) VALUES (?, 'topup', ?, ?, 'bench', ?)`, a.ID, topup, b+topup, ts(start)); err != nil {
			return err
		}
	}
	var stmts [5]*sql.Stmt
	for i, q := range []string{
		`INSERT INTO messages (conversation_id, account_id, role, body, source, lang, low_confidence, via, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		`INSERT INTO usage_events (account_id, event_type, cost_micro, input_tokens, output_tokens, message_id,
		embed_token_id, created_at) VALUES (?, ?, ?, 900, 120, ?, ?, ?)`,
		`INSERT INTO ledger (account_id, kind, amount_micro, balance_after, message_id, note, created_at)
		VALUES (?, 'charge', ?, ?, ?, ?, ?)`,
		`INSERT INTO fallback_questions (message_id, account_id, conversation_id, reply_id, question_key, status,
		created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		`INSERT INTO feedback (account_id, message_id, rating, comment, resolved, created_at) VALUES (?, ?, ?, '', ?, ?)`,
	} {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		defer st.Close()
		stmts[i] = st
	}
	msg, event, ledger, fallback, rating := stmts[0], stmts[1], stmts[2], stmts[3], stmts[4]
	lastAt := map[int64]time.Time{}
	for _, t := range turns {
		pick := rng.IntN(100)
		k := mix[0]
		for _, m := range mix {
			if pick < m.weight {
				k = m
				break
			}
			pick -= m.weight
		}
		q := fmt.Sprintf("Where is order %d? I ordered it last week and it has not arrived yet.", rng.IntN(1_000_000))
		if k.source == store.SourceFallback {
			qs := questions[t.account]
			q = spell(rng, qs[rng.IntN(len(qs))])
		}
		var userID, replyID int64
		if err := msg.QueryRowContext(ctx, t.conv, t.account, store.RoleUser, q, k.source, t.lang, 0, "",
			ts(t.at)).Scan(&userID); err != nil {
			return err
		}
		if err := msg.QueryRowContext(ctx, t.conv, t.account, store.RoleAssistant,
			"Orders ship within two days; you can track yours under Orders in your account.", k.source, t.lang,
			k.low, k.via, ts(t.at)).Scan(&replyID); err != nil {
			return err
		}
		cost := int64(0)
		if k.event == store.EventAnswer {
			cost = 2_000 + rng.Int64N(3_000)
			balance[t.account] -= cost
			if _, err := ledger.ExecContext(ctx, t.account, -cost, balance[t.account], replyID, k.event, ts(t.at)); err != nil {
				return err
			}
		}
		if _, err := event.ExecContext(ctx, t.account, k.event, cost, replyID, nullInt(t.token), ts(t.at)); err != nil {
			return err
		}
		if k.source == store.SourceFallback {
			status := "open"
			if rng.IntN(4) == 0 {
				status = "dismissed"
			}
			// The key as the store derives it: spaces collapsed, case-folded as the index folds.
			key := textindex.Fold(strings.Join(strings.Fields(q), " "))
			if _, err := fallback.ExecContext(ctx, userID, t.account, t.conv, replyID, key, status, ts(t.at)); err != nil {
				return err
			}
		}
		if rng.IntN(20) == 0 {
			r := []string{store.RatingHelpful, store.RatingNotHelpful}[rng.IntN(2)]
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
	// Keep balance = ledger sum, as the ledger check expects.
	for _, a := range accounts {
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance_micro = (SELECT SUM(amount_micro) FROM ledger
			WHERE account_id = ?) WHERE id = ?`, a.ID, a.ID); err != nil {
			return err
		}
	}
	return nil
}

// spell writes a question the way visitors do, in one of a few spellings that share a key.
func spell(rng *rand.Rand, q string) string {
	switch rng.IntN(3) {
	case 0:
		return strings.ToUpper(q)
	case 1:
		return "  " + strings.ToLower(q) + " "
	}
	return q
}

// rollups rebuilds the account's daily totals, which SaveTurn keeps beside the rows it writes,
// from its rows with migration 8's backfill statements (TestDailyCountsMatchTheRows checks
// they agree with the rows).
func rollups(ctx context.Context, tx *sql.Tx, accountID int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'
		AND name IN ('daily_replies', 'daily_usage')`).Scan(&n); err != nil {
		return err
	}
	if n != 2 {
		return fmt.Errorf("the store has %d of the daily total tables this fixture fills: update sqlitetest", n)
	}
	for _, q := range []string{
		`DELETE FROM daily_replies WHERE account_id = ?`,
		`INSERT INTO daily_replies (account_id, day, source, via, replies, low_confidence, charged)
		SELECT m.account_id, substr(m.created_at, 1, 10), m.source, m.via, COUNT(*), SUM(m.low_confidence),
			SUM(CASE WHEN EXISTS (SELECT 1 FROM usage_events u WHERE u.message_id = m.id AND u.cost_micro > 0)
				THEN 1 ELSE 0 END)
		FROM messages m WHERE m.account_id = ? AND m.role = 'assistant'
		GROUP BY m.account_id, substr(m.created_at, 1, 10), m.source, m.via`,
		`DELETE FROM daily_usage WHERE account_id = ?`,
		`INSERT INTO daily_usage (account_id, day, event_type, events, cost_micro)
		SELECT account_id, substr(created_at, 1, 10), event_type, COUNT(*), SUM(cost_micro)
		FROM usage_events WHERE account_id = ? GROUP BY account_id, substr(created_at, 1, 10), event_type`,
	} {
		if _, err := tx.ExecContext(ctx, q, accountID); err != nil {
			return err
		}
	}
	return nil
}

// nullInt stores 0, the Go side's "none", as NULL.
func nullInt(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}
