package metrics

import (
	"context"
	"time"

	"svc/internal/store"

	"github.com/prometheus/client_golang/prometheus"
)

// Stats reads the whole-service figures behind the scrape-time gauges; store.Store
// implements it.
type Stats interface {
	OpsStats(ctx context.Context, now time.Time) (store.OpsStats, error)
}

// statsTimeout bounds the store read of one scrape, well inside a scraper's usual 10 s.
const statsTimeout = 5 * time.Second

// statsCollector reads the store at scrape time rather than keeping gauges up to date on
// every reservation and notice: the figures are then exact whichever process (another
// serve, an operator's CLI) moved them.
type statsCollector struct {
	stats                              Stats
	now                                func() time.Time
	reservations, held, lapsed, queued *prometheus.Desc
}

func newStatsCollector(s Stats, now func() time.Time) *statsCollector {
	return &statsCollector{stats: s, now: now,
		reservations: prometheus.NewDesc(namespace+"_reservations_open",
			"Reservations holding part of a balance for answers in progress, live or lapsed.", nil, nil),
		held: prometheus.NewDesc(namespace+"_reservations_held_micro_usd",
			"Micro-USD held by open reservations, over every account.", nil, nil),
		lapsed: prometheus.NewDesc(namespace+"_reservations_lapsed",
			"Open reservations past their expiry that nothing has released yet (they still hold money).", nil, nil),
		queued: prometheus.NewDesc(namespace+"_outbox_notices",
			"Owner notices in the outbox, by status: pending (waiting or retrying), failed (given up).", []string{"status"}, nil),
	}
}

func (c *statsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.reservations
	ch <- c.held
	ch <- c.lapsed
	ch <- c.queued
}

func (c *statsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), statsTimeout)
	defer cancel()
	s, err := c.stats.OpsStats(ctx, c.now().UTC())
	if err != nil {
		// An invalid metric makes the handler log the error and serve everything else.
		ch <- prometheus.NewInvalidMetric(c.reservations, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.reservations, prometheus.GaugeValue, float64(s.Reservations))
	ch <- prometheus.MustNewConstMetric(c.held, prometheus.GaugeValue, float64(s.ReservedMicro))
	ch <- prometheus.MustNewConstMetric(c.lapsed, prometheus.GaugeValue, float64(s.LapsedReservations))
	ch <- prometheus.MustNewConstMetric(c.queued, prometheus.GaugeValue, float64(s.PendingNotices), store.NoticePending)
	ch <- prometheus.MustNewConstMetric(c.queued, prometheus.GaugeValue, float64(s.FailedNotices), store.NoticeFailed)
}
