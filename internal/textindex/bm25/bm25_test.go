package bm25

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// IDF is the one formula: the odds of a document lacking the term, plus one, in a logarithm.
func TestIDF(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ n, df, want float64 }{
		{100, 0, math.Log(1 + 100.5/0.5)}, // unseen: the most a term weighs
		{100, 1, math.Log(1 + 99.5/1.5)},
		{100, 50, math.Log(2)},
		{100, 100, math.Log(1 + 0.5/100.5)}, // in every document: near nothing, never negative
		{100, 150, math.Log(1 + 0.5/100.5)}, // df clamped to n
		{100, -3, math.Log(1 + 100.5/0.5)},  // and to 0
		{0, 0, math.Log(2)},                 // an empty corpus
	} {
		if got := IDF(tc.n, tc.df); !near(got, tc.want) {
			t.Errorf("IDF(%v, %v) = %v, want %v", tc.n, tc.df, got, tc.want)
		}
	}
	if IDF(1000, 3) <= IDF(1000, 4) {
		t.Error("a rarer term must weigh more")
	}
}

// FTS5's IDF drops the one, so a term in half the documents or more is floored at a millionth.
func TestFTS5IDF(t *testing.T) {
	t.Parallel()
	m := FTS5()
	if got, want := m.IDF(100, 1), math.Log(99.5/1.5); !near(got, want) {
		t.Errorf("FTS5 IDF(100, 1) = %v, want %v", got, want)
	}
	for _, df := range []float64{50, 80, 100, 500} {
		if got := m.IDF(100, df); got != fts5MinIDF {
			t.Errorf("FTS5 IDF(100, %v) = %v, want the floor %v", df, got, fts5MinIDF)
		}
	}
	if m.IDF(100, 10) >= IDF(100, 10) {
		t.Error("FTS5's IDF is below svc's for every df")
	}
}

// Score saturates a term's repeats and discounts long documents.
func TestScore(t *testing.T) {
	t.Parallel()
	m := Model{K1: K1, B: B}
	// An average document: tf·(k1+1)/(tf+k1).
	if got, want := m.Score(2, 3, 10, 10), 2*3*2.2/(3+1.2); !near(got, want) {
		t.Errorf("Score = %v, want %v", got, want)
	}
	if m.Score(2, 0, 10, 10) != 0 || m.Score(2, -1, 10, 10) != 0 {
		t.Error("a term not found scores 0")
	}
	if m.Score(1, 1000, 10, 10) >= 1*(K1+1) {
		t.Error("repeats must saturate below idf·(k1+1)")
	}
	if m.Score(1, 2, 40, 10) >= m.Score(1, 2, 10, 10) {
		t.Error("a long document must score less for the same count")
	}
	if m.Score(1, 0.5, 10, 10) >= m.Score(1, 1, 10, 10) {
		t.Error("a fractional count (a near match) scores less than a match")
	}
	// No average (an empty corpus): the document counts as an average one.
	if !near(m.Score(1, 2, 7, 0), m.Score(1, 2, 10, 10)) {
		t.Error("avgLen 0 must take the document for an average one")
	}
	// B = 0 leaves length out.
	flat := Model{K1: K1}
	if !near(flat.Score(1, 2, 40, 10), flat.Score(1, 2, 10, 10)) {
		t.Error("B = 0 must ignore length")
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text   string
		prefix bool
		t      string
		want   bool
	}{
		{"ayak", false, "ayak", true},
		{"ayak", false, "ayakkabi", false},
		{"ayak", true, "ayakkabi", true},
		{"ayak", true, "ayak", true},
		{"ayak", true, "aya", false},
		{"", true, "ayak", false}, // an empty term matches nothing
		{"", false, "", false},
	} {
		if got := Match(tc.text, tc.prefix, tc.t); got != tc.want {
			t.Errorf("Match(%q, %v, %q) = %v, want %v", tc.text, tc.prefix, tc.t, got, tc.want)
		}
	}
}
