package metrics

import (
	"slices"

	"svc/internal/i18n"
	"svc/internal/store"

	"github.com/prometheus/client_golang/prometheus"
)

// Label values of svc_answers_total. Anything else is counted as "other", so a new source
// or language shows up without growing the series unboundedly.
var (
	answerSources  = []string{store.SourceAI, store.SourceCacheTenant, store.SourceCacheShared, store.SourceSystem, store.SourceFallback}
	answerChannels = []string{ChannelAPI, ChannelWidget}
)

// Channels of an answer.
const (
	ChannelAPI    = "api"    // the account's own conversation (API and dashboard try-it box)
	ChannelWidget = "widget" // a widget visitor's conversation
)

const other = "other"

type answerKey struct{ source, lang, channel string }

// answerMetrics holds one counter per known (source, lang, channel), created up front: the
// series exist at 0 from the first scrape (so rate() works from the first answer), and
// counting is a map read with no lock.
type answerMetrics struct {
	vec      *prometheus.CounterVec
	counters map[answerKey]prometheus.Counter
}

func newAnswerMetrics() *answerMetrics {
	a := &answerMetrics{
		vec: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "answers_total",
			Help: "Replies committed by send, by source (ai, cache_tenant, cache_shared, system, fallback), language and channel (api, widget)."},
			[]string{"source", "lang", "channel"}),
		counters: map[answerKey]prometheus.Counter{},
	}
	for _, s := range slices.Concat(answerSources, []string{other}) {
		for _, l := range slices.Concat(i18n.Langs, []string{other}) {
			for _, c := range answerChannels {
				a.counters[answerKey{s, l, c}] = a.vec.WithLabelValues(s, l, c)
			}
		}
	}
	return a
}

// Answer counts one committed reply.
func (m *Metrics) Answer(source, lang, channel string) {
	if m == nil {
		return
	}
	if channel != ChannelWidget {
		channel = ChannelAPI
	}
	c, ok := m.answers.counters[answerKey{source, lang, channel}]
	if !ok {
		if !slices.Contains(answerSources, source) {
			source = other
		}
		if !slices.Contains(i18n.Langs, lang) {
			lang = other
		}
		c = m.answers.counters[answerKey{source, lang, channel}]
	}
	c.Inc()
}
