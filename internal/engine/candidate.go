package engine

import (
	"strings"

	"svc/internal/store"
)

// candidate is a chunk being ranked, with its sentences analyzed for extraction.
type candidate struct {
	hit      store.ChunkHit
	sents    []sentence
	score    float64
	coverage float64   // share of the question's weight among the chunk's stored terms
	matched  int       // question terms the chunk's stored terms match, fully or nearly
	inHead   []float64 // per query term: strength of its match in the title or heading
	// headTerms are the terms of the title and heading (headText), read with the sentences.
	headTerms []string
	entry     float64 // share of the question's words its heading holds, when that is a question
	// section marks a chunk of the best chunk's section, which extraction reads as part of
	// the whole section (see readSection).
	section bool
}

// sentence is one sentence of a chunk with the query term each of its index terms matches
// (-1 = none), in text order.
type sentence struct {
	text     string
	seq      []int     // matched query term per index term, -1 = none
	strength []float64 // 1 for a full match, Ranking.Soft for a near one
	chars    int
	line     int  // line of the chunk text: sentences on different lines are joined by a break
	quote    bool // false for a Q&A's question line: it is searched but not quoted back
	cases    []termCase
}

// analyzeSentences splits the chunk into sentences (read from memo) and matches their terms
// against the question; soft is the strength of a near match (0 = none).
func (c *candidate) analyzeSentences(q *query, soft float64, memo *sentenceMemo) {
	hit := c.hit
	text := hit.Text
	skipFirst := hit.DocType == store.DocQA && strings.HasPrefix(text, hit.Title)
	c.headTerms = memo.headTerms(headText(hit), c.lang(q))
	for _, as := range memo.sentences(text, c.lang(q)) {
		seq := make([]int, len(as.terms))
		strength := make([]float64, len(as.terms))
		for j, t := range as.terms {
			seq[j], strength[j] = q.firstMatch(t, soft)
		}
		c.sents = append(c.sents, sentence{
			text:     as.text,
			seq:      seq,
			strength: strength,
			chars:    as.chars,
			line:     as.line,
			quote:    !(skipFirst && as.line == 0),
			cases:    as.cases,
		})
	}
}

// lang is the language the chunk's text is analyzed in: its document's, or the question's
// when the document has none.
func (c *candidate) lang(q *query) string {
	if c.hit.Lang != "" {
		return c.hit.Lang
	}
	return q.lang
}

// passage is the candidate as the engine's callers see it.
func (c *candidate) passage() Passage { return hitPassage(c.hit, c.score) }

// hitPassage is the passage of a chunk with the score it was ranked by.
func hitPassage(h store.ChunkHit, score float64) Passage {
	return Passage{
		ChunkID: h.ChunkID, DocID: h.DocID, DocType: h.DocType, Title: h.Title, URL: h.URL,
		Lang: h.Lang, Text: h.Text, Score: score, Product: h.Product,
	}
}
