package metrics

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// httpBuckets reach 30 s: a model-backed send takes seconds, and the server's write timeout
// is 60 s.
var httpBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// httpMetrics is the request latency histogram, with its children cached per (route, status)
// so the hot path neither builds label slices nor hashes label values.
type httpMetrics struct {
	duration *prometheus.HistogramVec
	children *seriesCache[routeStatus, prometheus.Observer]
}

type routeStatus struct {
	route  string
	status int
}

func newHTTPMetrics() *httpMetrics {
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "http_request_duration_seconds",
		Help:    "Time to answer an HTTP request, by route (the routing pattern or the API action, never the raw path) and status code.",
		Buckets: httpBuckets}, []string{"route", "code"})
	return &httpMetrics{duration: duration, children: newSeriesCache(func(k routeStatus) prometheus.Observer {
		return duration.WithLabelValues(k.route, codeLabel(k.status))
	})}
}

// ObserveRequest records one answered request. route must come from a bounded set (the
// router's patterns and the action table), since every value is a series; the caller
// guarantees it. A status outside 100..599 is recorded as "other".
func (m *Metrics) ObserveRequest(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	if status < 100 || status > 599 {
		status = 0 // one "other" series, however many odd values arrive
	}
	m.http.children.get(routeStatus{route, status}).Observe(d.Seconds())
}

func codeLabel(status int) string {
	if status == 0 {
		return "other"
	}
	return strconv.Itoa(status)
}
