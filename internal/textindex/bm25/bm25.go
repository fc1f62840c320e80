// Package bm25 is the one BM25 of svc: the inverse document frequency of a term, the
// saturated weight of its repeats in a document, and the rule by which a query term matches
// an index term. The engine's ranking, the answer cache's question similarity, the
// Intelligence API's sentence weights and the PostgreSQL store's candidate ranking all
// weigh terms with it, so a term is as rare, and a prefix matches as much, in each of them.
//
// It imports nothing of svc, so the stores can use it without the analyzer (textindex),
// whose terms it scores.
package bm25

import (
	"math"
	"strings"
)

// K1 and B are BM25's usual constants, which SQLite FTS5's bm25() uses too: K1 is how soon a
// term's repeats stop adding weight, B how much a long document is discounted.
const (
	K1 = 1.2
	B  = 0.75
)

// fts5MinIDF is the least IDF FTS5 gives a term: its formula turns negative for a term in over
// half the documents, and FTS5 floors it at a millionth (sqlite/ext/fts5/fts5_aux.c).
const fts5MinIDF = 1e-6

// Model is BM25 with its constants. The zero Model's IDF is the one svc uses; K1 and B matter
// only to Score.
type Model struct {
	K1, B float64
	// FTS5 makes IDF SQLite FTS5's bm25(): the same odds without the 1 added inside the
	// logarithm, floored at a millionth. Only the PostgreSQL store sets it, so that it picks
	// the candidates the SQLite store's FTS5 index picks (store conformance); it weighs a
	// term in half the documents or more as nothing, which the rest of svc does not want.
	FTS5 bool
}

// FTS5 is the model of SQLite FTS5's bm25() with its default constants.
func FTS5() Model { return Model{K1: K1, B: B, FTS5: true} }

// IDF is the weight of a term that df of n documents hold: ln(1 + (n − df + 0.5)/(df + 0.5)),
// BM25's probabilistic IDF with 1 added so that it is never negative (Lucene's form). A term
// no document holds weighs the most, ln(2n + 2), so that a question about something the
// corpus never mentions cannot be mostly covered by its generic words; a term in every
// document weighs about 1/(2n), near nothing. df is clamped to [0, n].
func IDF(n, df float64) float64 { return Model{}.IDF(n, df) }

// IDF is the model's inverse document frequency (see the function IDF and Model.FTS5).
func (m Model) IDF(n, df float64) float64 {
	df = min(max(df, 0), n)
	odds := (n - df + 0.5) / (df + 0.5)
	if m.FTS5 {
		return max(math.Log(odds), fts5MinIDF)
	}
	return math.Log(1 + odds)
}

// Score is BM25's score of one query term of weight idf found tf times in a document of
// docLen terms, where documents hold avgLen terms on average:
// idf · tf · (K1 + 1) / (tf + K1 · (1 − B + B · docLen/avgLen)). The repeats saturate (the
// score tends to idf · (K1 + 1)), and a long document's count is discounted. tf may be
// fractional (a near match counting part of a match); tf ≤ 0 scores 0. An avgLen ≤ 0 (an
// empty corpus) takes the document for an average one.
func (m Model) Score(idf, tf, docLen, avgLen float64) float64 {
	if tf <= 0 {
		return 0
	}
	norm := 1 - m.B
	if avgLen > 0 {
		norm += m.B * docLen / avgLen
	} else {
		norm += m.B
	}
	return idf * tf * (m.K1 + 1) / (tf + m.K1*norm)
}

// Match reports whether the index term t is matched by the query term text: equal to it, or,
// for a prefix term, starting with it, as FTS5's prefix queries match ("ayak*" matches
// "ayakkabi"). An empty term matches nothing, as the stores drop it from a search.
func Match(text string, prefix bool, t string) bool {
	if text == "" {
		return false
	}
	if prefix {
		return strings.HasPrefix(t, text)
	}
	return t == text
}
