package metrics

import (
	"slices"
	"strings"
	"time"

	"svc/internal/ratelimit"

	"github.com/prometheus/client_golang/prometheus"
)

// maxLimitClasses bounds svc_ratelimit_refusals_total: past it, a new class counts as
// "other". The service's keys make about ten classes; the bound only guards against a key
// whose id part happens to look like words.
const maxLimitClasses = 32

// limitMetrics counts refusals per key class, with each class's counter cached.
type limitMetrics struct {
	vec      *prometheus.CounterVec
	counters *seriesCache[string, prometheus.Counter]
}

func newLimitMetrics() *limitMetrics {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "ratelimit_refusals_total",
		Help: "Requests a rate limit refused, by limiter key class (send:key, embed:ip, embed:token, embed:visitor, marketing:acct, ...: the key without its ids)."},
		[]string{"class"})
	counters := newSeriesCache(func(class string) prometheus.Counter { return vec.WithLabelValues(class) })
	counters.max, counters.overflow = maxLimitClasses, other
	return &limitMetrics{vec: vec, counters: counters}
}

// RateLimited counts one refusal under key, by its class (keyClass): the ids in the key
// (account, token, visitor, address) never become label values.
func (m *Metrics) RateLimited(key string) {
	if m == nil {
		return
	}
	m.limits.counters.get(keyClass(key)).Inc()
}

// keyClass is the class of a limiter key: its first two colon-separated words, stopping
// early at the first part that is not a plain lowercase word (an id, an address, a UUID).
// "send:key:12" → "send:key", "embed:visitor:3:6f1c…" → "embed:visitor", "embed:ip:2001:db8::/64"
// → "embed:ip"; a key that starts with an id is "other".
func keyClass(key string) string {
	end, words := 0, 0
	for words < 2 {
		part, _, _ := strings.Cut(key[end:], ":")
		if !isWord(part) {
			break
		}
		end += len(part)
		words++
		if end == len(key) {
			break
		}
		end++ // the colon
	}
	if words == 0 {
		return other
	}
	return strings.TrimSuffix(key[:end], ":")
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// Limiter wraps l so that every refusal is counted by its key's class; a nil m returns l
// itself.
func (m *Metrics) Limiter(l ratelimit.Limiter) ratelimit.Limiter {
	if m == nil || l == nil {
		return l
	}
	return &countingLimiter{next: l, m: m}
}

type countingLimiter struct {
	next ratelimit.Limiter
	m    *Metrics
}

func (c *countingLimiter) Allow(key string, perMinute int, now time.Time) (bool, time.Duration) {
	ok, wait := c.next.Allow(key, perMinute, now)
	if !ok {
		c.m.RateLimited(key)
	}
	return ok, wait
}

// fallbackComponents are the label values of svc_ratelimit_fallback_total: the shared
// limiter, the surge detector's shared state and the dashboard's sign-in throttle.
var fallbackComponents = []string{"limiter", "surge", "signin"}

// RateLimitFallback counts one decision of component ("limiter", "surge", "signin") made in this
// replica's memory because Redis did not answer. Any other component counts as "other", so a
// caller cannot create a label value.
func (m *Metrics) RateLimitFallback(component string) {
	if m == nil {
		return
	}
	if !slices.Contains(fallbackComponents, component) {
		component = other
	}
	m.fallback.WithLabelValues(component).Inc()
}
