package vecindex

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestEfSweep measures recall@10 and latency of a graph against the beam
// width, on the hardest set of the benchmarks (50k clustered vectors at 384
// dimensions). VECINDEX_MEASURE=1 runs it; BENCHMARKS.md has the figures.
func TestEfSweep(t *testing.T) {
	if os.Getenv("VECINDEX_MEASURE") == "" {
		t.Skip("set VECINDEX_MEASURE=1")
	}
	s := benchState.set(50000, 384)
	x, _ := NewExact(s.dim, Int8)
	for i, v := range s.data {
		x.Add(int64(i), int64(i), "en", v)
	}
	g, err := hnswFromExact(context.Background(), x, HNSWParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ef := range []int{96, 192, 384, 768} {
		g.p.EfSearch = ef
		bi := &builtIndex{idx: g}
		bi.measure(s)
		t.Logf("ef %d: recall@10 %.4f p50 %v p99 %v", ef, bi.recall, bi.p50.Round(time.Microsecond), bi.p99.Round(time.Microsecond))
	}
}
