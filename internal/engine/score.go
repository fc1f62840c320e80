package engine

import (
	"strings"

	"svc/internal/store"
	"svc/internal/textindex/bm25"
)

// bm25Score computes the first-stage score from the chunk's stored terms alone: BM25
// (bm25.Model.Score) with the account's statistics plus distinct-term coverage, both divided
// by the question's total weight. It is cheap, so every candidate of the pool gets it.
func (r *Ranking) bm25Score(q *query, c *candidate, avgLen float64) {
	if q.total == 0 {
		return
	}
	stored := strings.Fields(c.hit.Terms)
	tf, strength := q.termFreqs(stored, r.Soft)
	for _, s := range strength {
		if s > 0 {
			c.matched++
		}
	}
	m := bm25.Model{K1: r.K1, B: r.B}
	score := 0.0
	for i, f := range tf {
		score += m.Score(q.idf[i], f, float64(len(stored)), avgLen)
	}
	c.coverage = q.strengthWeight(strength) / q.total
	c.score = score/q.total + r.Coverage*c.coverage
}

// headMatch is the strength with which each query term is in the chunk's title or heading
// (their terms read by analyzeSentences).
func (r *Ranking) headMatch(q *query, c *candidate) []float64 {
	_, inHead := q.termFreqs(c.headTerms, r.Soft)
	return inHead
}

// headText is what headMatch reads of a chunk: its title, and its heading when that differs.
func headText(h store.ChunkHit) string {
	if h.Heading != "" && h.Heading != h.Title {
		return h.Title + " " + h.Heading
	}
	return h.Title
}

// proximityScore adds the second-stage features, which need the chunk's sentences: the
// weight of the question found within one sentence, question bigrams, title and heading
// matches and the language bonus.
func (r *Ranking) proximityScore(q *query, c *candidate) {
	if q.total == 0 {
		return
	}
	inHead := r.headMatch(q, c)
	c.inHead = inHead
	title := 0.0
	floor := make([]float64, len(inHead))
	for i, s := range inHead {
		title += s * q.idf[i]
		floor[i] = s * r.Context
	}
	best := 0.0
	var all []int
	for _, s := range c.sents {
		if w := q.seqWeight(s.seq, s.strength, floor); w > best {
			best = w
		}
		all = append(all, s.seq...)
		all = append(all, -1) // no bigram across sentences
	}
	bigram := q.bigramWeight(all)
	sameLang := 0.0
	if c.hit.Lang == q.lang {
		sameLang = 1
	}
	c.score += (r.Sentence*best+r.Bigram*bigram+r.Title*title)/q.total + r.Lang*sameLang
	if r.RankCue != 0 && q.kind != askOther {
		for _, s := range c.sents {
			if hasCue(s.text, q.kind, c.lang(q), q.raw) {
				c.score += r.RankCue
				break
			}
		}
	}
	// A curated Q&A entry matches through its question line already; a page's section whose
	// heading is the question is the page's FAQ entry.
	if c.hit.DocType != store.DocQA && c.hit.Product == nil {
		if m := entryMatch(q.words, len(q.terms), c.hit.Heading, c.lang(q), r.Soft); m >= entryAnswers {
			c.entry = m // an entry that shares a word or two with the question is another's
			c.score += r.Entry * m
		}
		c.score += r.Defines * q.titleDefines(c.hit.Title, c.lang(q))
	}
	if r.Contents != 0 && contentsLike(&c.hit) {
		c.score *= r.Contents
	}
}
