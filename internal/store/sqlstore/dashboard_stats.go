package sqlstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"svc/internal/store"
)

// dayLayout is a UTC day as daily_replies and daily_usage key it: the first characters of a
// stored time (timeLayout), so migration 8 derived it with substr().
const dayLayout = "2006-01-02"

// The charts' queries: the daily rows of whole days, and the rows themselves for the part of
// a day a window starts with.
const (
	UsageDaysQuery = `SELECT day, event_type, events, cost_micro FROM daily_usage
		WHERE account_id = ? AND day >= ? ORDER BY day, event_type`
	UsagePartQuery = `SELECT event_type, COUNT(*), COALESCE(SUM(cost_micro), 0) FROM usage_events
		WHERE account_id = ? AND created_at >= ? AND created_at < ? GROUP BY event_type ORDER BY event_type`
	RepliesDaysQuery = `SELECT day, source, via, replies, low_confidence, charged FROM daily_replies
		WHERE account_id = ? AND day >= ?`
	// A turn's usage events carry its reply's id and time, so the replies of the part day that
	// cost something are the messages its charged events name.
	RepliesPartQuery = `SELECT m.source, m.via, COUNT(*), COALESCE(SUM(m.low_confidence), 0),
		COALESCE(SUM(CASE WHEN m.id IN (SELECT u.message_id FROM usage_events u WHERE u.account_id = ?
			AND u.created_at >= ? AND u.created_at < ? AND u.cost_micro > 0) THEN 1 ELSE 0 END), 0)
		FROM messages m WHERE m.account_id = ? AND m.role = 'assistant' AND m.created_at >= ? AND m.created_at < ?
		GROUP BY m.source, m.via`
)

// UnansweredQuery groups the window's fallback questions by their key.
const (
	UnansweredQuery = `SELECT g.n, g.last_at, g.last_id, m.body, m.lang
		FROM (SELECT COUNT(*) AS n, MAX(created_at) AS last_at, MAX(message_id) AS last_id FROM fallback_questions
			WHERE account_id = ? AND created_at >= ? GROUP BY question_key
			ORDER BY n DESC, last_at DESC, last_id DESC LIMIT ?) AS g
		JOIN messages m ON m.id = g.last_id
		ORDER BY g.n DESC, g.last_at DESC, g.last_id DESC`
)

func dayOf(t time.Time) string { return t.UTC().Format(dayLayout) }

// ParseDay reads a day as daily_replies and daily_usage key it.
func ParseDay(v string) (time.Time, error) {
	d, err := time.Parse(dayLayout, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("day %q: %w", v, err)
	}
	return d.UTC(), nil
}

// CountReply counts an assistant reply in its day's daily_replies row; charged tells whether
// a usage event of its turn cost something. In a batch of turns (tx.Tally set) the count is
// kept and written with the batch's others. (The upserts name the table in their SET: bare
// names are ambiguous with excluded's on PostgreSQL, and SQLite reads both forms alike.)
func CountReply(ctx context.Context, tx *Tx, m *store.Message, charged bool) error {
	k := replyKey{account: m.AccountID, day: dayOf(m.CreatedAt), source: m.Source, via: m.Via}
	n := replyCount{replies: 1, low: BoolInt(m.LowConfidence), charged: BoolInt(charged)}
	if tx.Tally != nil {
		tx.Tally.addReply(k, n)
		return nil
	}
	return writeReplyCount(ctx, tx, k, n)
}

func writeReplyCount(ctx context.Context, tx *Tx, k replyKey, n replyCount) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO daily_replies (account_id, day, source, via, replies, low_confidence,
		charged) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, day, source, via) DO UPDATE SET
		replies = daily_replies.replies + excluded.replies,
		low_confidence = daily_replies.low_confidence + excluded.low_confidence,
		charged = daily_replies.charged + excluded.charged`,
		k.account, k.day, k.source, k.via, n.replies, n.low, n.charged); err != nil {
		return fmt.Errorf("count reply: %w", err)
	}
	return nil
}

// CountUsage counts a usage event in its day's daily_usage row (kept for the batch's write
// when tx.Tally is set, as CountReply).
func CountUsage(ctx context.Context, tx *Tx, accountID int64, c *store.Charge, at time.Time) error {
	k := usageKey{account: accountID, day: dayOf(at), event: c.EventType}
	n := usageCount{events: 1, cost: c.AmountMicro}
	if tx.Tally != nil {
		tx.Tally.addUsage(k, n)
		return nil
	}
	return writeUsageCount(ctx, tx, k, n)
}

func writeUsageCount(ctx context.Context, tx *Tx, k usageKey, n usageCount) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO daily_usage (account_id, day, event_type, events, cost_micro)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, day, event_type) DO UPDATE SET
		events = daily_usage.events + excluded.events, cost_micro = daily_usage.cost_micro + excluded.cost_micro`,
		k.account, k.day, k.event, n.events, n.cost); err != nil {
		return fmt.Errorf("count usage: %w", err)
	}
	return nil
}

// window is a chart's time window split where the daily rows can serve it: the whole days
// from fromDay on come from daily_replies and daily_usage; when since is not a midnight, the
// rest of its day, [since, partEnd), is counted from the rows themselves (one day at most,
// read through an index on (account_id, created_at)).
type window struct {
	fromDay        string
	partial        bool
	partDay        time.Time
	since, partEnd string
}

func splitWindow(since time.Time) window {
	day := since.UTC().Truncate(24 * time.Hour)
	if day.Equal(since) {
		return window{fromDay: dayOf(day)}
	}
	next := day.Add(24 * time.Hour)
	return window{fromDay: dayOf(next), partial: true, partDay: day, since: TS(since), partEnd: TS(next)}
}

// DailyUsage sums the account's usage events of the window by day and type.
func (s *Store) DailyUsage(ctx context.Context, accountID int64, since time.Time) ([]store.DayUsage, error) {
	w := splitWindow(since)
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("daily usage: %w", err)
	}
	defer tx.Rollback()
	out := []store.DayUsage{}
	if w.partial {
		rows, err := tx.QueryContext(ctx, UsagePartQuery, accountID, w.since, w.partEnd)
		if err != nil {
			return nil, fmt.Errorf("daily usage: %w", err)
		}
		for rows.Next() {
			u := store.DayUsage{Day: w.partDay}
			if err := rows.Scan(&u.EventType, &u.Count, &u.CostMicro); err != nil {
				rows.Close()
				return nil, fmt.Errorf("daily usage: %w", err)
			}
			out = append(out, u)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("daily usage: %w", err)
		}
	}
	rows, err := tx.QueryContext(ctx, UsageDaysQuery, accountID, w.fromDay)
	if err != nil {
		return nil, fmt.Errorf("daily usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u store.DayUsage
		var day string
		if err := rows.Scan(&day, &u.EventType, &u.Count, &u.CostMicro); err != nil {
			return nil, fmt.Errorf("daily usage: %w", err)
		}
		if u.Day, err = ParseDay(day); err != nil {
			return nil, fmt.Errorf("daily usage: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("daily usage: %w", err)
	}
	return out, nil
}

// replyCounts is one (day, source, via) group of replies.
type replyCounts struct {
	day          time.Time
	source, via  string
	replies, low int
	charged      int
}

// replyGroups reads the account's replies of the window by day, source and via.
func replyGroups(ctx context.Context, tx *Tx, accountID int64, since time.Time) ([]replyCounts, error) {
	w := splitWindow(since)
	var out []replyCounts
	if w.partial {
		rows, err := tx.QueryContext(ctx, RepliesPartQuery, accountID, w.since, w.partEnd, accountID, w.since, w.partEnd)
		if err != nil {
			return nil, fmt.Errorf("replies: %w", err)
		}
		for rows.Next() {
			g := replyCounts{day: w.partDay}
			if err := rows.Scan(&g.source, &g.via, &g.replies, &g.low, &g.charged); err != nil {
				rows.Close()
				return nil, fmt.Errorf("replies: %w", err)
			}
			out = append(out, g)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("replies: %w", err)
		}
	}
	rows, err := tx.QueryContext(ctx, RepliesDaysQuery, accountID, w.fromDay)
	if err != nil {
		return nil, fmt.Errorf("replies: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g replyCounts
		var day string
		if err := rows.Scan(&day, &g.source, &g.via, &g.replies, &g.low, &g.charged); err != nil {
			return nil, fmt.Errorf("replies: %w", err)
		}
		if g.day, err = ParseDay(day); err != nil {
			return nil, fmt.Errorf("replies: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("replies: %w", err)
	}
	return out, nil
}

// DailySources counts the account's replies of the window by day and kind.
func (s *Store) DailySources(ctx context.Context, accountID int64, since time.Time) ([]store.DaySource, error) {
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("daily sources: %w", err)
	}
	defer tx.Rollback()
	groups, err := replyGroups(ctx, tx, accountID, since)
	if err != nil {
		return nil, fmt.Errorf("daily sources: %w", err)
	}
	type bucket struct {
		day  time.Time
		kind string
	}
	counts := map[bucket]int{}
	for _, g := range groups {
		if kind, ok := store.DaySourceOf(g.source, g.via); ok {
			counts[bucket{g.day, kind}] += g.replies
		}
	}
	out := make([]store.DaySource, 0, len(counts))
	for b, n := range counts {
		out = append(out, store.DaySource{Day: b.day, Source: b.kind, Count: n})
	}
	slices.SortFunc(out, func(a, b store.DaySource) int {
		return cmp.Or(a.Day.Compare(b.Day), cmp.Compare(a.Source, b.Source))
	})
	return out, nil
}

// ReplyStats counts the account's replies of the window; those with no usage event that cost
// something are free.
func (s *Store) ReplyStats(ctx context.Context, accountID int64, since time.Time) (store.ReplyStats, error) {
	var st store.ReplyStats
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return st, fmt.Errorf("reply stats: %w", err)
	}
	defer tx.Rollback()
	groups, err := replyGroups(ctx, tx, accountID, since)
	if err != nil {
		return st, fmt.Errorf("reply stats: %w", err)
	}
	for _, g := range groups {
		st.Replies += g.replies
		st.LowConfidence += g.low
		st.Free += g.replies - g.charged
	}
	return st, nil
}

// Unanswered groups the account's fallback questions of the window by question_key (every
// row has one: SaveTurn writes it, migration 9 filled the backfilled ones).
func (s *Store) Unanswered(ctx context.Context, accountID int64, since time.Time, limit int) ([]store.UnansweredQuestion, error) {
	if limit <= 0 {
		limit = 10
	}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("unanswered: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, UnansweredQuery, accountID, TS(since), limit)
	if err != nil {
		return nil, fmt.Errorf("unanswered: %w", err)
	}
	defer rows.Close()
	out := []store.UnansweredQuestion{}
	for rows.Next() {
		var q store.UnansweredQuestion
		var last string
		if err := rows.Scan(&q.Count, &last, &q.MessageID, &q.Question, &q.Lang); err != nil {
			return nil, fmt.Errorf("unanswered: %w", err)
		}
		q.LastAskedAt = ParseTS(last)
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("unanswered: %w", err)
	}
	return out, nil
}
