package metrics

import "sync"

// seriesCache keeps the children of a metric vector by their labels, each made once by
// newSeries on first use: the hot path is then a read-locked map lookup, with no label
// slice built or label values hashed.
type seriesCache[K comparable, V any] struct {
	newSeries func(K) V
	// max, when above 0, bounds the keys: past it, a new key is counted under overflow.
	max      int
	overflow K

	mu sync.RWMutex
	m  map[K]V
}

func newSeriesCache[K comparable, V any](newSeries func(K) V) *seriesCache[K, V] {
	return &seriesCache[K, V]{newSeries: newSeries, m: map[K]V{}}
}

func (c *seriesCache[K, V]) get(k K) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	if c.max > 0 && len(c.m) >= c.max {
		k = c.overflow
		if v, ok := c.m[k]; ok {
			return v
		}
	}
	v = c.newSeries(k)
	c.m[k] = v
	return v
}
