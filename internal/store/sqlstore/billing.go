package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// UsageSummary aggregates the account's usage events since a time, and of all time.
func (s *Store) UsageSummary(ctx context.Context, accountID int64, since time.Time, recent int) (store.UsageSummary, error) {
	sum := store.UsageSummary{ByEvent: map[string]store.EventTotal{}, Recent: []store.UsageEvent{}}
	rows, err := s.r.QueryContext(ctx, `SELECT event_type, COUNT(*), COALESCE(SUM(cost_micro), 0) FROM usage_events
		WHERE account_id = ? AND created_at >= ? GROUP BY event_type`, accountID, TS(since))
	if err != nil {
		return sum, fmt.Errorf("usage by event: %w", err)
	}
	for rows.Next() {
		var t string
		var e store.EventTotal
		if err := rows.Scan(&t, &e.Count, &e.CostMicro); err != nil {
			rows.Close()
			return sum, fmt.Errorf("usage by event: %w", err)
		}
		sum.ByEvent[t] = e
		sum.WindowCount += e.Count
		sum.WindowCost += e.CostMicro
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return sum, fmt.Errorf("usage by event: %w", err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(cost_micro), 0) FROM usage_events WHERE account_id = ?`,
		accountID).Scan(&sum.AllTimeCount, &sum.AllTimeCost); err != nil {
		return sum, fmt.Errorf("usage all time: %w", err)
	}
	rows, err = s.r.QueryContext(ctx, `SELECT id, account_id, event_type, cost_micro, input_tokens, output_tokens,
		COALESCE(message_id, 0), created_at FROM usage_events WHERE account_id = ? ORDER BY id DESC LIMIT ?`, accountID, recent)
	if err != nil {
		return sum, fmt.Errorf("recent usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e store.UsageEvent
		var created string
		if err := rows.Scan(&e.ID, &e.AccountID, &e.EventType, &e.CostMicro, &e.InputTokens, &e.OutputTokens,
			&e.MessageID, &created); err != nil {
			return sum, fmt.Errorf("recent usage: %w", err)
		}
		e.CreatedAt = ParseTS(created)
		sum.Recent = append(sum.Recent, e)
	}
	return sum, rows.Err()
}

// AverageCost is the mean cost of the account's last n charged answers, rounded up.
//
// The newest come first by time, which walks usage_events_type backwards (on SQLite its last
// column is the rowid; on PostgreSQL it is (account, type, time)) and stops after n, rather
// than sorting every answer of the account by id.
func (s *Store) AverageCost(ctx context.Context, accountID int64, n int) (int64, bool, error) {
	var count, total int64
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(cost_micro), 0) FROM (SELECT cost_micro FROM usage_events
		WHERE account_id = ? AND event_type = ? AND cost_micro > 0 ORDER BY created_at DESC, id DESC LIMIT ?) AS last`,
		accountID, store.EventAnswer, n).Scan(&count, &total)
	if err != nil {
		return 0, false, fmt.Errorf("average cost: %w", err)
	}
	if count == 0 {
		return 0, false, nil
	}
	return (total + count - 1) / count, true, nil
}

// UsageCalls returns the provider calls of one of the account's usage events, in call order.
func (s *Store) UsageCalls(ctx context.Context, accountID, eventID int64) ([]store.CallUsage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT call, model, input_tokens, output_tokens, cost_micro FROM usage_calls
		WHERE event_id = ? AND account_id = ? ORDER BY ord`, eventID, accountID)
	if err != nil {
		return nil, fmt.Errorf("usage calls: %w", err)
	}
	defer rows.Close()
	out := []store.CallUsage{}
	for rows.Next() {
		var c store.CallUsage
		if err := rows.Scan(&c.Call, &c.Model, &c.InputTokens, &c.OutputTokens, &c.CostMicro); err != nil {
			return nil, fmt.Errorf("usage calls: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
