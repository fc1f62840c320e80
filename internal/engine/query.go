package engine

import (
	"math"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
)

// query is an analyzed question with the weight of each of its terms in the account's corpus.
type query struct {
	lang  string
	terms []textindex.Term
	idf   []float64
	total float64 // sum of idf: the most weight a passage can match
}

// newQuery weighs the question's terms by BM25's inverse document frequency over the
// account's own chunks. A term no chunk contains gets the highest weight, so that a question
// about something the KB never mentions cannot be mostly covered by its generic words.
func newQuery(lang string, terms []textindex.Term, st store.TermStats) query {
	q := query{lang: lang, terms: terms, idf: make([]float64, len(terms))}
	n := float64(st.Chunks)
	for i, t := range terms {
		df := float64(st.DocFreq[t.Text])
		if df > n {
			df = n
		}
		q.idf[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
		q.total += q.idf[i]
	}
	return q
}

func searchTerms(terms []textindex.Term) []store.SearchTerm {
	out := make([]store.SearchTerm, len(terms))
	for i, t := range terms {
		out[i] = store.SearchTerm{Text: t.Text, Prefix: t.Prefix}
	}
	return out
}

// matchTerm reports whether the index term t is matched by the query term q: equal, or, for a
// prefix term, starting with it.
func matchTerm(q textindex.Term, t string) bool {
	if q.Prefix {
		return strings.HasPrefix(t, q.Text)
	}
	return q.Text == t
}

// firstMatch returns the index of the first query term that t matches, or -1.
func (q *query) firstMatch(t string) int {
	for i, qt := range q.terms {
		if matchTerm(qt, t) {
			return i
		}
	}
	return -1
}

// termFreqs counts, for each query term, the index terms it matches.
func (q *query) termFreqs(terms []string) []int {
	tf := make([]int, len(q.terms))
	for _, t := range terms {
		for i, qt := range q.terms {
			if matchTerm(qt, t) {
				tf[i]++
			}
		}
	}
	return tf
}

// coverage is the share of the query's weight whose terms occur at least once among terms.
func (q *query) coverage(terms []string) float64 {
	if q.total == 0 {
		return 0
	}
	return q.weightOf(q.termFreqs(terms)) / q.total
}

// weightOf sums the idf of the query terms with a non-zero count.
func (q *query) weightOf(counts []int) float64 {
	w := 0.0
	for i, c := range counts {
		if c > 0 {
			w += q.idf[i]
		}
	}
	return w
}

// bigramWeight sums, over pairs of query terms adjacent in the question, the mean weight of
// the pair when the pair also stands together (in either order, at most one term apart) in
// seq, the query-term matches of a passage's terms in text order (-1 = no match).
func (q *query) bigramWeight(seq []int) float64 {
	if len(q.terms) < 2 {
		return 0
	}
	found := make([]bool, len(q.terms)-1)
	for j, a := range seq {
		if a < 0 {
			continue
		}
		for d := 1; d <= 2 && j+d < len(seq); d++ {
			b := seq[j+d]
			switch {
			case b == a+1:
				found[a] = true
			case b == a-1 && b >= 0:
				found[b] = true
			}
		}
	}
	w := 0.0
	for i, ok := range found {
		if ok {
			w += (q.idf[i] + q.idf[i+1]) / 2
		}
	}
	return w
}
