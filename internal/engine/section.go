package engine

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/store"
)

// sectionReach is how many chunks before and after the best chunk extraction may read of its
// section: a long FAQ answer or guide step is a few chunks, and a quote is a few sentences.
const sectionReach = 4

// readSection reads the best chunk's whole section for extraction. The KB cuts a section
// longer than a chunk by size alone, so the chunk that holds the question's words best ("the
// identity of Bitcoin's inventor") may follow the one that holds the answer ("… published
// in 2009 by Satoshi Nakamoto"), which shares too little of the question to be ranked at
// all, or is ranked lower and its sentences weighed down with it. The section's chunks, those
// ranking analyzed (marked section) and the others, become one candidate, r.section: its
// sentences in document order, each chunk a paragraph, weighed as the best chunk, so that a
// window grows over the section as over one text and, among sentences that score alike, the
// earlier comes first (an answer leads with its point). A product or a curated Q&A is its own
// section.
func (e *Engine) readSection(ctx context.Context, accountID int64, r *retrieval) error {
	if len(r.ranked) == 0 {
		return nil
	}
	best := &r.ranked[0]
	if best.hit.Product != nil || best.hit.DocType == store.DocQA || best.hit.Heading == "" || best.hit.Heading == best.hit.Title {
		return nil
	}
	hits, err := e.kb.SectionChunks(ctx, accountID, best.hit.ChunkID, sectionReach)
	if err != nil {
		return fmt.Errorf("engine: section: %w", err)
	}
	if len(hits) < 2 {
		return nil // the chunk is its whole section
	}
	ranked := make(map[int64]int, len(r.ranked))
	for i := range r.ranked {
		ranked[r.ranked[i].hit.ChunkID] = i
	}
	whole := *best
	whole.sents = nil
	whole.hit.ChunkID = hits[0].ChunkID // the section's place in the document
	texts := make([]string, 0, len(hits))
	tokens, line := 0, 0
	for _, h := range hits {
		var sents []sentence
		if i, ok := ranked[h.ChunkID]; ok {
			r.ranked[i].section = true
			sents = r.ranked[i].sents
		} else {
			c := candidate{hit: h}
			c.analyzeSentences(&r.q, e.rank.Soft, e.sentences)
			sents = c.sents
		}
		for _, s := range sents {
			s.line += line
			whole.sents = append(whole.sents, s)
		}
		line += strings.Count(h.Text, "\n") + 1
		texts = append(texts, h.Text)
		if tokens >= 0 && h.Tokens > 0 {
			tokens += h.Tokens
		} else {
			tokens = -1 // one uncounted chunk: the engine counts the whole text
		}
	}
	whole.hit.Text = strings.Join(texts, "\n")
	whole.hit.Tokens = max(tokens, 0)
	r.section = &whole
	return nil
}

// extractable are the candidates extraction reads: the ranked ones, with the best chunk's
// section in its place when readSection joined it.
func (r *retrieval) extractable() []candidate {
	if r.section == nil {
		return r.ranked
	}
	out := make([]candidate, 0, len(r.ranked))
	out = append(out, *r.section)
	for _, c := range r.ranked[1:] {
		if !c.section {
			out = append(out, c)
		}
	}
	return out
}
