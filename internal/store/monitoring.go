package store

import (
	"context"
	"time"
)

// OpsStats are whole-service figures an operator watches (the gauges of /metrics): what is
// held and what waits, across every account.
type OpsStats struct {
	// Reservations is the number of reservation rows, live or lapsed; ReservedMicro their
	// sum, which equals the sum of accounts.reserved_micro.
	Reservations  int
	ReservedMicro int64
	// LapsedReservations are the rows past their expiry that nothing has released yet: they
	// still hold money, so a growing number means the sweep is not running.
	LapsedReservations int
	// PendingNotices wait in the outbox (due now or retrying later); FailedNotices were given
	// up after their last attempt.
	PendingNotices int
	FailedNotices  int
}

// Monitoring reads whole-service figures for monitoring. It is read at every scrape, so an
// implementation answers from indexes, never by scanning tenant data.
type Monitoring interface {
	OpsStats(ctx context.Context, now time.Time) (OpsStats, error)
}
