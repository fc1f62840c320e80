package engine

import (
	"strings"
	"unicode/utf8"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Ranking holds the weights of reranking and sentence extraction. Every feature is in units
// of the question's own weight (the sum of its terms' idf), so the weights mean the same for
// short and long questions. The defaults are what measured best on the XQuAD dev split in all
// three languages; a weight of 0 turns its feature off (internal/eval logs each ablation).
type Ranking struct {
	// BM25 parameters over the stored chunk terms (title, heading and text).
	K1, B float64
	// Coverage rewards passages that contain more of the question's distinct terms,
	// independent of how often they repeat.
	Coverage float64
	// Sentence rewards passages where the question's terms meet in one sentence.
	Sentence float64
	// Bigram rewards question terms that stand next to each other in the passage too.
	Bigram float64
	// Title rewards question terms in the document title or section heading.
	Title float64
	// Lang is a small bonus for passages in the question's language.
	Lang float64

	// Extraction: a sentence's score is its share of the question's weight plus these.
	SentBigram float64 // adjacent question terms in the sentence
	Cue        float64 // the sentence holds what the question type asks for (number, date, name, place)
	Neighbour  float64 // bonus for a second sentence next to the first
	// Spread lets extraction also read passages scoring within this share of the best one
	// (0 = the best passage only).
	Spread float64
}

// DefaultRanking returns the measured defaults.
func DefaultRanking() Ranking {
	return Ranking{
		K1: 1.2, B: 0.75,
		Coverage: 0.5, Sentence: 0.5, Bigram: 0.2, Title: 0.1, Lang: 0.05,
		SentBigram: 0.3, Cue: 0.15, Neighbour: 0.1,
	}
}

// candidate is a chunk being ranked, with its sentences analyzed for extraction.
type candidate struct {
	hit      store.ChunkHit
	sents    []sentence
	score    float64
	coverage float64 // share of the question's weight among the chunk's stored terms
}

// sentence is one sentence of a chunk with the query term each of its index terms matches
// (-1 = none), in text order.
type sentence struct {
	text  string
	seq   []int
	chars int
	quote bool // false for a Q&A's question line: it is searched but not quoted back
}

// analyzeSentences splits the chunk into sentences and matches their terms against the
// question.
func (c *candidate) analyzeSentences(q *query) {
	hit := c.hit
	lang := c.lang(q)
	text := hit.Text
	skipFirst := hit.DocType == store.DocQA && strings.HasPrefix(text, hit.Title)
	for i, s := range splitSentences(text, lang) {
		terms := textindex.IndexTerms(s, lang)
		seq := make([]int, len(terms))
		for j, t := range terms {
			seq[j] = q.firstMatch(t)
		}
		c.sents = append(c.sents, sentence{
			text:  s,
			seq:   seq,
			chars: utf8.RuneCountInString(s),
			quote: !(skipFirst && i == 0),
		})
	}
}

// bm25Score computes the first-stage score from the chunk's stored terms alone: BM25 with
// the account's statistics plus distinct-term coverage, both divided by the question's total
// weight. It is cheap, so every candidate of the pool gets it.
func (r *Ranking) bm25Score(q *query, c *candidate, avgLen float64) {
	if q.total == 0 {
		return
	}
	stored := strings.Fields(c.hit.Terms)
	tf := q.termFreqs(stored)
	norm := 1 - r.B
	if avgLen > 0 {
		norm += r.B * float64(len(stored)) / avgLen
	}
	bm25 := 0.0
	for i, f := range tf {
		if f > 0 {
			ff := float64(f)
			bm25 += q.idf[i] * ff * (r.K1 + 1) / (ff + r.K1*norm)
		}
	}
	c.coverage = q.weightOf(tf) / q.total
	c.score = bm25/q.total + r.Coverage*c.coverage
}

// proximityScore adds the second-stage features, which need the chunk's sentences: the
// weight of the question found within one sentence, question bigrams, title and heading
// matches and the language bonus.
func (r *Ranking) proximityScore(q *query, c *candidate) {
	if q.total == 0 {
		return
	}
	best := 0.0
	var all []int
	for _, s := range c.sents {
		if w := q.weightOf(countSeq(s.seq, len(q.terms))); w > best {
			best = w
		}
		all = append(all, s.seq...)
		all = append(all, -1) // no bigram across sentences
	}
	bigram := q.bigramWeight(all)
	title := 0.0
	if r.Title != 0 {
		head := c.hit.Title
		if c.hit.Heading != "" && c.hit.Heading != c.hit.Title {
			head += " " + c.hit.Heading
		}
		title = q.coverage(textindex.IndexTerms(head, c.lang(q)))
	}
	sameLang := 0.0
	if c.hit.Lang == q.lang {
		sameLang = 1
	}
	c.score += r.Sentence*best/q.total + r.Bigram*bigram/q.total + r.Title*title + r.Lang*sameLang
}

// lang is the language the chunk's text is analyzed in: its document's, or the question's
// when the document has none.
func (c *candidate) lang(q *query) string {
	if c.hit.Lang != "" {
		return c.hit.Lang
	}
	return q.lang
}

// countSeq turns a match sequence into per-query-term counts.
func countSeq(seq []int, n int) []int {
	counts := make([]int, n)
	for _, m := range seq {
		if m >= 0 {
			counts[m]++
		}
	}
	return counts
}
