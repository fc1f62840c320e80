package vecindex

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// The benchmarks measure what BENCHMARKS.md "Vector search" reports:
//
//	go test -run '^$' -bench . -benchtime 1x -timeout 60m ./internal/vecindex/
//
// Each configuration builds its index once (build time, bytes per vector and
// the heap it adds are reported by BenchmarkBuild), then BenchmarkSearch runs
// a fixed set of queries and reports p50 and p99 latency and recall@10 against
// float32 exact search. The vectors are clustered (n/50 topics, noise weight
// 0.7), closer to a model's embeddings than uniform ones; "ref" is a plain
// float32 dot-product loop over the same vectors, the floor any index is
// compared with.

type benchSet struct {
	n, dim  int
	data    [][]float32
	queries [][]float32
	truth   [][]Hit // float32 exact top 10
}

type builtIndex struct {
	idx       Index
	build     time.Duration
	heap      int64
	bytesPerV float64
	recall    float64
	p50, p99  time.Duration
	measured  bool
}

// benchCache keeps data sets and indexes across the benchmarks of one run.
type benchCache struct {
	mu      sync.Mutex
	sets    map[[2]int]*benchSet
	indexes map[string]*builtIndex
}

var benchState = &benchCache{sets: map[[2]int]*benchSet{}, indexes: map[string]*builtIndex{}}

const benchQueries = 400

func (c *benchCache) set(n, dim int) *benchSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sets[[2]int{n, dim}]; ok {
		return s
	}
	vs := clustered(uint64(n+dim), n+benchQueries, dim, n/50, 0.7)
	s := &benchSet{n: n, dim: dim, data: vs[:n], queries: vs[n:]}
	ref, _ := NewExact(dim, Float32)
	for i, v := range s.data {
		ref.Add(int64(i), int64(i), "en", v)
	}
	for _, q := range s.queries {
		h, _ := ref.Search(q, 10, Filter{})
		s.truth = append(s.truth, h)
	}
	c.sets[[2]int{n, dim}] = s
	return s
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func (c *benchCache) index(b *testing.B, kind string, enc Encoding, s *benchSet) *builtIndex {
	key := fmt.Sprintf("%s/%s/%d/%d", kind, enc, s.n, s.dim)
	c.mu.Lock()
	defer c.mu.Unlock()
	if bi, ok := c.indexes[key]; ok {
		return bi
	}
	before := heapInUse()
	start := time.Now()
	var idx Index
	switch kind {
	case "exact":
		x, _ := NewExact(s.dim, enc)
		for i, v := range s.data {
			x.Add(int64(i), int64(i), "en", v)
		}
		idx = x
	case "hnsw":
		x, _ := NewExact(s.dim, enc)
		for i, v := range s.data {
			x.Add(int64(i), int64(i), "en", v)
		}
		g, err := hnswFromExact(context.Background(), x, HNSWParams{})
		if err != nil {
			b.Fatal(err)
		}
		idx = g
	case "ref":
		idx = newRefScan(s.dim, s.data)
	}
	bi := &builtIndex{idx: idx, build: time.Since(start)}
	bi.heap = heapInUse() - before
	bi.bytesPerV = float64(bi.heap) / float64(s.n)
	c.indexes[key] = bi
	return bi
}

// measure runs every query once, after a warm-up pass, and records latency
// percentiles and recall.
func (bi *builtIndex) measure(s *benchSet) {
	if bi.measured {
		return
	}
	for _, q := range s.queries[:50] {
		bi.idx.Search(q, 10, Filter{})
	}
	lat := make([]time.Duration, len(s.queries))
	var rec float64
	for i, q := range s.queries {
		t := time.Now()
		got, _ := bi.idx.Search(q, 10, Filter{})
		lat[i] = time.Since(t)
		rec += hitRecall(s.truth[i], got)
	}
	slices.Sort(lat)
	bi.p50, bi.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	bi.recall = rec / float64(len(s.queries))
	bi.measured = true
}

var benchConfigs = []struct {
	kind string
	enc  Encoding
}{
	{"ref", Float32},
	{"exact", Float32},
	{"exact", Float16},
	{"exact", Int8},
	{"hnsw", Float16},
	{"hnsw", Int8},
}

var benchSizes = [][2]int{{10000, 384}, {10000, 1024}, {50000, 384}, {50000, 1024}}

func BenchmarkBuild(b *testing.B) {
	for _, sz := range benchSizes {
		for _, c := range benchConfigs {
			b.Run(fmt.Sprintf("n=%d/dim=%d/%s/%s", sz[0], sz[1], c.kind, c.enc), func(b *testing.B) {
				s := benchState.set(sz[0], sz[1])
				bi := benchState.index(b, c.kind, c.enc, s)
				for b.Loop() {
				}
				b.ReportMetric(bi.build.Seconds(), "build-s")
				b.ReportMetric(bi.bytesPerV, "heap-B/vec")
				b.ReportMetric(float64(bi.heap)/(1<<20), "heap-MiB")
				b.ReportMetric(float64(bi.idx.Bytes())/float64(s.n), "est-B/vec")
			})
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	for _, sz := range benchSizes {
		for _, c := range benchConfigs {
			b.Run(fmt.Sprintf("n=%d/dim=%d/%s/%s", sz[0], sz[1], c.kind, c.enc), func(b *testing.B) {
				s := benchState.set(sz[0], sz[1])
				bi := benchState.index(b, c.kind, c.enc, s)
				bi.measure(s)
				i := 0
				for b.Loop() {
					bi.idx.Search(s.queries[i%len(s.queries)], 10, Filter{})
					i++
				}
				b.ReportMetric(float64(bi.p50.Microseconds()), "p50-µs")
				b.ReportMetric(float64(bi.p99.Microseconds()), "p99-µs")
				b.ReportMetric(bi.recall, "recall@10")
			})
		}
	}
}

// refScan is the reference: float32 vectors in one array, a plain
// dot-product loop and an insertion into the ten best, nothing else.
type refScan struct {
	dim  int
	data []float32
}

func newRefScan(dim int, vs [][]float32) *refScan {
	r := &refScan{dim: dim}
	for _, v := range vs {
		r.data = append(r.data, v...)
	}
	return r
}

func (r *refScan) Search(q []float32, k int, _ Filter) ([]Hit, error) {
	n := len(r.data) / r.dim
	hits := make([]Hit, 0, k+1)
	for i := range n {
		var s float32
		v := r.data[i*r.dim : (i+1)*r.dim]
		for j, x := range q {
			s += x * v[j]
		}
		if len(hits) == k && s <= hits[k-1].Score {
			continue
		}
		hits = append(hits, Hit{ID: int64(i), Score: s})
		for p := len(hits) - 1; p > 0 && hits[p].Score > hits[p-1].Score; p-- {
			hits[p], hits[p-1] = hits[p-1], hits[p]
		}
		if len(hits) > k {
			hits = hits[:k]
		}
	}
	return hits, nil
}

func (r *refScan) Add(int64, int64, string, []float32) error { return nil }
func (r *refScan) Remove(int64) bool                         { return false }
func (r *refScan) Len() int                                  { return len(r.data) / r.dim }
func (r *refScan) Dim() int                                  { return r.dim }
func (r *refScan) Bytes() int64                              { return int64(cap(r.data)) * 4 }
