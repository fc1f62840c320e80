package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// llmBuckets cover one provider call, retries included: the per-attempt timeout defaults to
// 30 s and up to two retries may follow.
var llmBuckets = []float64{.1, .25, .5, 1, 2, 4, 8, 15, 30, 60, 120}

// llmMetrics are the provider call metrics, with each (provider, model)'s children cached:
// the models are the one or two the configuration names.
type llmMetrics struct {
	calls    *prometheus.CounterVec   // provider, model
	duration *prometheus.HistogramVec // provider, model
	errors   *prometheus.CounterVec   // provider, model, kind
	tokens   *prometheus.CounterVec   // provider, model, direction
	series   *seriesCache[providerModel, *llmSeries]
}

type providerModel struct{ provider, model string }

type llmSeries struct {
	calls         prometheus.Counter
	duration      prometheus.Observer
	input, output prometheus.Counter
}

func newLLMMetrics() *llmMetrics {
	pm := []string{"provider", "model"}
	l := &llmMetrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "llm_calls_total",
			Help: "Calls to the language-model provider (one per completion, however many attempts it took)."}, pm),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "llm_call_duration_seconds",
			Help: "Time of one provider call, retries and their waits included, failed calls too.", Buckets: llmBuckets}, pm),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "llm_errors_total",
			Help: "Failed provider calls, by kind: timeout, rate_limited, client_error, server_error, transport, circuit_open, canceled, other."},
			[]string{"provider", "model", "kind"}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "llm_tokens_total",
			Help: "Tokens the provider reported, by direction (input, output)."}, []string{"provider", "model", "direction"}),
	}
	l.series = newSeriesCache(func(k providerModel) *llmSeries {
		return &llmSeries{calls: l.calls.WithLabelValues(k.provider, k.model), duration: l.duration.WithLabelValues(k.provider, k.model),
			input: l.tokens.WithLabelValues(k.provider, k.model, "input"), output: l.tokens.WithLabelValues(k.provider, k.model, "output")}
	})
	return l
}

// ProviderCall records one completion: its time, the tokens the provider reported, and,
// when it failed, the kind of failure (errKind "" for a success).
func (m *Metrics) ProviderCall(provider, model string, d time.Duration, inputTokens, outputTokens int, errKind string) {
	if m == nil {
		return
	}
	s := m.llm.series.get(providerModel{provider, model})
	s.calls.Inc()
	s.duration.Observe(d.Seconds())
	if inputTokens > 0 {
		s.input.Add(float64(inputTokens))
	}
	if outputTokens > 0 {
		s.output.Add(float64(outputTokens))
	}
	if errKind != "" {
		m.llm.errors.WithLabelValues(provider, model, errKind).Inc()
	}
}
