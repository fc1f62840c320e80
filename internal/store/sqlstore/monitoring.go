package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// OpsStats implements store.Monitoring. Reservations are few (only answers in flight hold
// one), and the outbox counts come from its (status, next_attempt_at) index, so a scrape stays
// cheap however large the tenants' data grows. Both reads run on the read pool, never
// waiting for the writer.
func (s *Store) OpsStats(ctx context.Context, now time.Time) (store.OpsStats, error) {
	var o store.OpsStats
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(amount_micro), 0),
		COUNT(*) FILTER (WHERE expires_at <= ?) FROM reservations`, TS(now)).
		Scan(&o.Reservations, &o.ReservedMicro, &o.LapsedReservations); err != nil {
		return o, fmt.Errorf("reservation stats: %w", err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM notices WHERE status = ?),
		(SELECT COUNT(*) FROM notices WHERE status = ?)`, store.NoticePending, store.NoticeFailed).
		Scan(&o.PendingNotices, &o.FailedNotices); err != nil {
		return o, fmt.Errorf("outbox stats: %w", err)
	}
	return o, nil
}
