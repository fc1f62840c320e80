package metrics

import (
	"slices"

	"svc/internal/remote"
	"svc/internal/vecindex"

	"github.com/prometheus/client_golang/prometheus"
)

// Label values of the semantic-retrieval metrics (issue 25). Unknown values count as "other",
// so a caller's typo cannot grow the series.
var (
	// embeddingUses: a visitor's question, or KB chunks embedded in the background.
	embeddingUses = []string{"query", "document"}
	// degradedReasons: why a search went without vectors: "provider" (the question's
	// embedding failed or timed out), "index" (the account's index could not be loaded in
	// time, or exceeds the memory bound).
	degradedReasons = []string{"provider", "index"}
)

// semanticMetrics count the embedding and rerank providers' calls and what retrieval did
// without them.
type semanticMetrics struct {
	embedCalls  *prometheus.CounterVec // use
	embedErrors *prometheus.CounterVec // use, kind
	embedTokens *prometheus.CounterVec // use
	degraded    *prometheus.CounterVec // reason
	rerankCalls prometheus.Counter
	rerankErrs  *prometheus.CounterVec // kind
	indexLoads  *prometheus.CounterVec // result
	indexStale  prometheus.Counter
}

func newSemanticMetrics() *semanticMetrics {
	s := &semanticMetrics{
		embedCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "embedding_calls_total",
			Help: "Calls to the embedding provider, by use: query (a visitor's question; cache hits make none) or document (KB chunks, in the background)."},
			[]string{"use"}),
		embedErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "embedding_errors_total",
			Help: "Failed embedding calls, by use and kind: timeout, rate_limited, client_error, server_error, transport, circuit_open, canceled, other."},
			[]string{"use", "kind"}),
		embedTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "embedding_tokens_total",
			Help: "Input tokens embedded (as the provider reported, or counted when it reported none), by use."},
			[]string{"use"}),
		degraded: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "semantic_degraded_total",
			Help: "Searches answered by keywords alone although an embedding provider is configured, by reason: provider (the question's embedding failed or timed out), index (the account's vector index was not usable in time)."},
			[]string{"reason"}),
		rerankCalls: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "rerank_calls_total",
			Help: "Calls to the rerank provider."}),
		rerankErrs: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "rerank_errors_total",
			Help: "Failed rerank calls (the candidates keep their fused order), by kind."}, []string{"kind"}),
		indexLoads: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "vector_index_loads_total",
			Help: "Vector indexes read from the store (an account's first search, or after its vectors changed elsewhere), by result: ok or error."},
			[]string{"result"}),
		indexStale: prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "vector_index_stale_total",
			Help: "Vector indexes dropped because the store's vectors or KB changed in another process or replica (the next search reloads)."}),
	}
	for _, u := range embeddingUses {
		s.embedCalls.WithLabelValues(u)
		s.embedTokens.WithLabelValues(u)
	}
	for _, r := range degradedReasons {
		s.degraded.WithLabelValues(r)
	}
	for _, r := range []string{"ok", "error"} {
		s.indexLoads.WithLabelValues(r)
	}
	return s
}

func (s *semanticMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{s.embedCalls, s.embedErrors, s.embedTokens, s.degraded, s.rerankCalls, s.rerankErrs,
		s.indexLoads, s.indexStale}
}

func oneOf(v string, known []string) string {
	if slices.Contains(known, v) {
		return v
	}
	return other
}

// EmbeddingCall counts one call to the embedding provider for use ("query" or "document"):
// the tokens it used (those of the batches embedded before a failure too) and, when it
// failed, its remote.ErrorKind (errKind "" for a success).
func (m *Metrics) EmbeddingCall(use string, tokens int, errKind string) {
	if m == nil {
		return
	}
	use = oneOf(use, embeddingUses)
	m.semantic.embedCalls.WithLabelValues(use).Inc()
	if tokens > 0 {
		m.semantic.embedTokens.WithLabelValues(use).Add(float64(tokens))
	}
	if errKind != "" {
		m.semantic.embedErrors.WithLabelValues(use, oneOf(errKind, remote.ErrorKinds)).Inc()
	}
}

// SemanticDegraded counts one search that went without vectors: reason "provider" or
// "index".
func (m *Metrics) SemanticDegraded(reason string) {
	if m == nil {
		return
	}
	m.semantic.degraded.WithLabelValues(oneOf(reason, degradedReasons)).Inc()
}

// RerankCall counts one call to the rerank provider and, when it failed, its kind.
func (m *Metrics) RerankCall(errKind string) {
	if m == nil {
		return
	}
	m.semantic.rerankCalls.Inc()
	if errKind != "" {
		m.semantic.rerankErrs.WithLabelValues(oneOf(errKind, remote.ErrorKinds)).Inc()
	}
}

// VectorIndexLoad counts one index read from the store, ok or not.
func (m *Metrics) VectorIndexLoad(ok bool) {
	if m == nil {
		return
	}
	result := "ok"
	if !ok {
		result = "error"
	}
	m.semantic.indexLoads.WithLabelValues(result).Inc()
}

// VectorIndexStale counts one index dropped because the store changed under it.
func (m *Metrics) VectorIndexStale() {
	if m == nil {
		return
	}
	m.semantic.indexStale.Inc()
}

// vectorIndexKinds are the index kinds whose vectors the gauge reports, each always present.
var vectorIndexKinds = []string{"exact", "hnsw"}

// vectorIndexCollector reads the vector indexes held in memory at scrape time, as the store
// gauges are read: the figures change with every search that loads an index and every
// background build, which no counter could follow.
type vectorIndexCollector struct {
	stats                   func() []vecindex.IndexStats
	vectors, bytes, pending *prometheus.Desc
}

func newVectorIndexCollector(stats func() []vecindex.IndexStats) *vectorIndexCollector {
	return &vectorIndexCollector{stats: stats,
		vectors: prometheus.NewDesc(namespace+"_vector_index_vectors",
			"Vectors held in memory by the vector indexes, by the kind of index searched now: exact (a scan) or hnsw (a graph).",
			[]string{"kind"}, nil),
		bytes: prometheus.NewDesc(namespace+"_vector_index_bytes",
			"Estimated memory of the vector indexes held (bounded by the index memory limit).", nil, nil),
		pending: prometheus.NewDesc(namespace+"_vector_index_builds",
			"Vector indexes being loaded, or rebuilt in the background (a large account's graph takes minutes while its exact index serves); 0 when every held index is in its final form.",
			nil, nil),
	}
}

func (c *vectorIndexCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.vectors
	ch <- c.bytes
	ch <- c.pending
}

func (c *vectorIndexCollector) Collect(ch chan<- prometheus.Metric) {
	vectors := map[string]int{}
	var bytes int64
	pending := 0
	for _, st := range c.stats() {
		vectors[st.Kind] += st.Len
		bytes += st.Bytes
		if st.Building {
			pending++
		}
	}
	for _, k := range vectorIndexKinds {
		ch <- prometheus.MustNewConstMetric(c.vectors, prometheus.GaugeValue, float64(vectors[k]), k)
	}
	ch <- prometheus.MustNewConstMetric(c.bytes, prometheus.GaugeValue, float64(bytes))
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(pending))
}

// WatchVectorIndexes adds the vector indexes' gauges (svc_vector_index_vectors by kind,
// svc_vector_index_bytes, svc_vector_index_builds), read from stats at every scrape;
// semantic.Service.IndexStats is the one stats. Call it once, after New; a second call is
// refused.
func (m *Metrics) WatchVectorIndexes(stats func() []vecindex.IndexStats) error {
	if m == nil || stats == nil {
		return nil
	}
	return m.reg.Register(newVectorIndexCollector(stats))
}
