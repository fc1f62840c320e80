package engine

import (
	"context"
	"fmt"
	"sort"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Retrieve returns the best k passages for the question, at most one per document, best
// first. lang is the question's language; it decides how the question is analyzed.
func (e *Engine) Retrieve(ctx context.Context, accountID int64, question, lang string, k int) ([]Passage, error) {
	_, cands, err := e.retrieve(ctx, accountID, question, lang, k)
	if err != nil {
		return nil, err
	}
	out := make([]Passage, len(cands))
	for i := range cands {
		out[i] = cands[i].passage()
	}
	return out, nil
}

// retrieve analyzes the question, fetches a candidate pool from the store's full-text index,
// reranks it and keeps the best chunk of each document. The store's own rank only chooses
// the pool: its statistics may span every account, and it knows nothing of coverage or
// proximity.
func (e *Engine) retrieve(ctx context.Context, accountID int64, question, lang string, k int) (query, []candidate, error) {
	terms := textindex.QueryTerms(question, lang)
	if len(terms) == 0 || k <= 0 {
		return query{lang: lang}, nil, nil
	}
	sterms := searchTerms(terms)
	hits, err := e.kb.SearchChunks(ctx, accountID, store.SearchQuery{Terms: sterms, Limit: e.opts.Candidates})
	if err != nil {
		return query{}, nil, fmt.Errorf("engine: search: %w", err)
	}
	if len(hits) == 0 {
		return query{lang: lang, terms: terms}, nil, nil
	}
	st, err := e.kb.TermStats(ctx, accountID, sterms)
	if err != nil {
		return query{}, nil, fmt.Errorf("engine: term stats: %w", err)
	}
	q := newQuery(lang, terms, st)
	cands := make([]candidate, 0, len(hits))
	for _, h := range hits {
		c := analyzeChunk(&q, h)
		e.rank.scoreChunk(&q, &c, st.AvgLength)
		cands = append(cands, c)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	seen := make(map[int64]bool, len(cands))
	out := cands[:0]
	for _, c := range cands {
		if seen[c.hit.DocID] {
			continue
		}
		seen[c.hit.DocID] = true
		out = append(out, c)
		if len(out) == k {
			break
		}
	}
	return q, out, nil
}

func (c *candidate) passage() Passage {
	h := c.hit
	return Passage{
		ChunkID: h.ChunkID, DocID: h.DocID, DocType: h.DocType, Title: h.Title, URL: h.URL,
		Lang: h.Lang, Text: h.Text, Score: c.score, Product: h.Product,
	}
}
