package vecindex

import (
	"context"
	"testing"
)

// recallAgainstExact is the mean recall@k of g's results against x's over qs.
func recallAgainstExact(t *testing.T, x *Exact, g Index, qs [][]float32, k int, f Filter) float64 {
	t.Helper()
	var sum float64
	for _, q := range qs {
		want, err := x.Search(q, k, f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Search(q, k, f)
		if err != nil {
			t.Fatal(err)
		}
		sum += hitRecall(want, got)
	}
	return sum / float64(len(qs))
}

func hitRecall(truth, got []Hit) float64 {
	if len(truth) == 0 {
		return 1
	}
	in := make(map[int64]bool, len(truth))
	for _, h := range truth {
		in[h.ID] = true
	}
	n := 0
	for _, h := range got {
		if in[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(truth))
}

func TestHNSWRecall(t *testing.T) {
	t.Parallel()
	const n, dim = 4000, 96
	vs := clustered(21, n+100, dim, 60, 0.7)
	data, qs := vs[:n], vs[n:]
	x, _ := NewExact(dim, Int8)
	g, _ := NewHNSW(dim, Int8, HNSWParams{})
	langs := []string{"en", "de", "tr"}
	for i, v := range data {
		x.Add(int64(i), int64(i), langs[i%3], v)
		g.Add(int64(i), int64(i), langs[i%3], v)
	}
	if r := recallAgainstExact(t, x, g, qs, 10, Filter{}); r < 0.95 {
		t.Errorf("recall@10 = %.3f, want ≥ 0.95", r)
	}
	// A filter keeping a third of the chunks still finds its best.
	tr := Filter{Langs: []string{"tr"}}
	if r := recallAgainstExact(t, x, g, qs, 10, tr); r < 0.95 {
		t.Errorf("recall@10 with a language filter = %.3f, want ≥ 0.95", r)
	}
	// A filter keeping 1 chunk in 100 too: the search goes on until it has
	// ef of them.
	rare := Filter{Allow: func(id int64) bool { return id%100 == 7 }}
	if r := recallAgainstExact(t, x, g, qs, 10, rare); r < 0.95 {
		t.Errorf("recall@10 with a 1%% filter = %.3f, want ≥ 0.95", r)
	}
	// Removing the best hits of each query: they never come back, and the
	// graph still finds the rest.
	for _, q := range qs[:20] {
		top, _ := x.Search(q, 3, Filter{})
		for _, h := range top {
			x.Remove(h.ID)
			g.Remove(h.ID)
		}
	}
	if g.Garbage() == 0 || g.Len() != x.Len() {
		t.Errorf("after removals: garbage %d, len %d (exact %d)", g.Garbage(), g.Len(), x.Len())
	}
	if r := recallAgainstExact(t, x, g, qs, 10, Filter{}); r < 0.95 {
		t.Errorf("recall@10 after removals = %.3f, want ≥ 0.95", r)
	}
}

func TestHNSWFromExactMatchesAdds(t *testing.T) {
	t.Parallel()
	const n, dim = 1500, 48
	vs := clustered(4, n+50, dim, 30, 0.6)
	x, _ := NewExact(dim, Float32)
	ref, _ := NewExact(dim, Float32)
	for i, v := range vs[:n] {
		x.Add(int64(i), int64(i), "en", v)
		ref.Add(int64(i), int64(i), "en", v)
	}
	g, err := hnswFromExact(context.Background(), x, HNSWParams{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != n {
		t.Fatalf("graph holds %d of %d", g.Len(), n)
	}
	if r := recallAgainstExact(t, ref, g, vs[n:], 10, Filter{}); r < 0.95 {
		t.Errorf("recall@10 = %.3f", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x2, _ := NewExact(dim, Float32)
	for i, v := range vs[:n] {
		x2.Add(int64(i), int64(i), "en", v)
	}
	if _, err := hnswFromExact(ctx, x2, HNSWParams{}); err == nil {
		t.Error("a cancelled build finished")
	}
}
