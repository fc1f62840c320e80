package vecindex

import (
	"context"
	"errors"
	"testing"
)

// newIndex builds an index of the kind and encoding named, for tests that
// hold for both.
func newIndex(t *testing.T, kind string, dim int, enc Encoding) Index {
	t.Helper()
	var (
		idx Index
		err error
	)
	if kind == "exact" {
		idx, err = NewExact(dim, enc)
	} else {
		idx, err = NewHNSW(dim, enc, HNSWParams{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func ids(h []Hit) []int64 {
	out := make([]int64, len(h))
	for i, x := range h {
		out[i] = x.ID
	}
	return out
}

func TestSearchOrderFilterRemove(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"exact", "hnsw"} {
		for _, enc := range []Encoding{Float32, Float16, Int8} {
			t.Run(kind+"/"+enc.String(), func(t *testing.T) {
				t.Parallel()
				idx := newIndex(t, kind, 3, enc)
				// Cosines with the query (1,0,0): 1, 0.8, 0.6, 0, -1; lengths vary
				// to show they do not count.
				add := func(id int64, lang string, v ...float32) {
					if err := idx.Add(id, id, lang, v); err != nil {
						t.Fatal(err)
					}
				}
				add(5, "de", 0, 0, 2)     // 0
				add(1, "en", 10, 0, 0)    // 1
				add(3, "tr", 0.6, 0.8, 0) // 0.6
				add(2, "en", 8, 6, 0)     // 0.8
				add(4, "en", -3, 0, 0)    // -1
				q := []float32{2, 0, 0}
				got, err := idx.Search(q, 10, Filter{})
				if err != nil {
					t.Fatal(err)
				}
				if want := []int64{1, 2, 3, 5, 4}; !equal(ids(got), want) {
					t.Fatalf("order = %v, want %v", ids(got), want)
				}
				for i, want := range []float32{1, 0.8, 0.6, 0, -1} {
					if d := got[i].Score - want; d > 0.02 || d < -0.02 {
						t.Errorf("score of %d = %v, want %v", got[i].ID, got[i].Score, want)
					}
				}
				if got, _ := idx.Search(q, 2, Filter{}); !equal(ids(got), []int64{1, 2}) {
					t.Errorf("k=2: %v", ids(got))
				}
				if got, _ := idx.Search(q, 10, Filter{Langs: []string{"tr", "de"}}); !equal(ids(got), []int64{3, 5}) {
					t.Errorf("langs tr,de: %v", ids(got))
				}
				if got, _ := idx.Search(q, 10, Filter{Langs: []string{"fr"}}); len(got) != 0 {
					t.Errorf("absent language: %v", ids(got))
				}
				odd := func(id int64) bool { return id%2 == 1 }
				if got, _ := idx.Search(q, 10, Filter{Langs: []string{"en"}, Allow: odd}); !equal(ids(got), []int64{1}) {
					t.Errorf("en and odd: %v", ids(got))
				}
				if !idx.Remove(1) || idx.Remove(1) {
					t.Error("Remove(1) twice did not answer true then false")
				}
				// Replacing 4's vector moves it to the top.
				add(4, "en", 1, 0.01, 0)
				if got, _ := idx.Search(q, 10, Filter{}); !equal(ids(got), []int64{4, 2, 3, 5}) {
					t.Errorf("after remove and replace: %v", ids(got))
				}
				if idx.Len() != 4 || idx.Dim() != 3 || idx.Bytes() <= 0 {
					t.Errorf("Len %d Dim %d Bytes %d", idx.Len(), idx.Dim(), idx.Bytes())
				}
				if err := idx.Add(9, 9, "en", []float32{1, 2}); !errors.Is(err, ErrDim) {
					t.Errorf("short vector: %v", err)
				}
				if err := idx.Add(9, 9, "en", []float32{0, 0, 0}); !errors.Is(err, ErrZeroVector) {
					t.Errorf("zero vector: %v", err)
				}
				if _, err := idx.Search([]float32{1}, 3, Filter{}); !errors.Is(err, ErrDim) {
					t.Errorf("short query: %v", err)
				}
				if got, err := idx.Search(q, 0, Filter{}); err != nil || len(got) != 0 {
					t.Errorf("k=0: %v %v", got, err)
				}
			})
		}
	}
}

func TestTiesOrderedByID(t *testing.T) {
	t.Parallel()
	x, _ := NewExact(2, Float32)
	for _, id := range []int64{9, 3, 7, 1} {
		x.Add(id, id, "en", []float32{1, 1})
	}
	got, _ := x.Search([]float32{1, 1}, 3, Filter{})
	if !equal(ids(got), []int64{1, 3, 7}) {
		t.Errorf("ties = %v, want 1 3 7", ids(got))
	}
}

func TestExactMatchesBruteForce(t *testing.T) {
	t.Parallel()
	vs := randomUnit(5, 2000, 64)
	x, _ := NewExact(64, Float32)
	for i, v := range vs[:1900] {
		x.Add(int64(i), int64(i), "en", v)
	}
	for _, q := range vs[1900:] {
		got, _ := x.Search(q, 10, Filter{})
		want := exactTop(vs[:1900], q, 10)
		for i := range want {
			if got[i].ID != int64(want[i]) {
				t.Fatalf("rank %d: %d, brute force says %d", i, got[i].ID, want[i])
			}
		}
	}
}

func TestEmptyIndex(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"exact", "hnsw"} {
		idx := newIndex(t, kind, 4, Int8)
		got, err := idx.Search([]float32{1, 0, 0, 0}, 5, Filter{})
		if err != nil || len(got) != 0 {
			t.Errorf("%s: %v %v", kind, got, err)
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A hit names its chunk's document and language as they were added, also after a removal
// moved a slot, a replacement, and in a graph built from an exact index.
func TestHitsNameDocumentAndLanguage(t *testing.T) {
	t.Parallel()
	langs := []string{"en", "de", "tr"}
	vs := clustered(3, 120, 16, 6, 0.5)
	check := func(t *testing.T, idx Index, removed map[int64]bool) {
		t.Helper()
		for _, q := range vs[:10] {
			hits, err := idx.Search(q, 20, Filter{})
			if err != nil || len(hits) == 0 {
				t.Fatalf("search: %v %v", hits, err)
			}
			for _, h := range hits {
				want := h.ID / 4
				if h.ID == 7 {
					want = 99 // replaced below
				}
				if removed[h.ID] || h.Doc != want || h.Lang != langs[h.ID%3] {
					t.Fatalf("hit %+v: want doc %d, language %s", h, want, langs[h.ID%3])
				}
			}
		}
	}
	for _, kind := range []string{"exact", "hnsw"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			idx := newIndex(t, kind, 16, Float16)
			for i, v := range vs {
				if err := idx.Add(int64(i), int64(i)/4, langs[i%3], v); err != nil {
					t.Fatal(err)
				}
			}
			if err := idx.Add(7, 99, langs[7%3], vs[7]); err != nil {
				t.Fatal(err)
			}
			removed := map[int64]bool{}
			for _, id := range []int64{0, 5, 50} {
				idx.Remove(id)
				removed[id] = true
			}
			check(t, idx, removed)
			if x, ok := idx.(*Exact); ok {
				g, err := hnswFromExact(context.Background(), x, HNSWParams{})
				if err != nil {
					t.Fatal(err)
				}
				check(t, g, removed)
			}
		})
	}
}
