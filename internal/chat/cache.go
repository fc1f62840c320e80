package chat

import (
	"context"
	"errors"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
)

// curatedMatch is how alike a question and a curated Q&A question must be (Dice coefficient
// of their analyzed content terms) for the curated answer to be served as is. High on
// purpose: a wrong curated answer is worse than a composed one.
const curatedMatch = 0.8

// fromCache answers from this account's curated Q&A entries or its earlier answers. Both are
// free and never touch the daily quota.
func (p *pending) fromCache(ctx context.Context) (SendResult, bool, error) {
	if p.key == "" {
		return SendResult{}, false, nil
	}
	if doc, ok, err := p.curated(ctx); err != nil || ok {
		if err != nil {
			return SendResult{}, false, err
		}
		reply := p.reply(doc.Body, store.SourceCacheTenant, false)
		reply.DocIDs = []int64{doc.ID}
		if err := p.attachCards(ctx, &reply); err != nil {
			return SendResult{}, false, err
		}
		res, err := p.commit(ctx, reply, store.Charge{EventType: store.EventCacheTenant})
		return res, true, err
	}
	entry, err := p.svc.st.CachedAnswer(ctx, p.acct.ID, p.lang, p.key)
	if errors.Is(err, store.ErrNotFound) {
		return SendResult{}, false, nil
	}
	if err != nil {
		return SendResult{}, false, err
	}
	reply := p.reply(entry.Answer, store.SourceCacheTenant, false)
	reply.DocIDs = entry.DocIDs
	if err := p.attachCards(ctx, &reply); err != nil {
		return SendResult{}, false, err
	}
	t := p.turn(reply, store.Charge{EventType: store.EventCacheTenant})
	t.CacheHitID = entry.ID
	res, err := p.save(ctx, t)
	return res, true, err
}

// curated finds a curated Q&A entry in the question's language whose question says the same.
func (p *pending) curated(ctx context.Context) (store.Document, bool, error) {
	qt := textindex.QueryTerms(p.text, p.lang)
	terms := make([]store.SearchTerm, len(qt))
	for i, t := range qt {
		terms[i] = store.SearchTerm{Text: t.Text, Prefix: t.Prefix}
	}
	hits, err := p.svc.st.SearchChunks(ctx, p.acct.ID, store.SearchQuery{Terms: terms, Types: []string{store.DocQA}, Limit: 5})
	if err != nil {
		return store.Document{}, false, err
	}
	best, bestScore := int64(0), 0.0
	for _, h := range hits {
		if h.Lang != p.lang {
			continue
		}
		if sc := dice(p.key, textindex.NormalizeQuestion(h.Title, p.lang)); sc > bestScore {
			best, bestScore = h.DocID, sc
		}
	}
	if bestScore < curatedMatch {
		return store.Document{}, false, nil
	}
	doc, err := p.svc.st.GetDocument(ctx, p.acct.ID, best)
	if err != nil {
		return store.Document{}, false, err
	}
	return doc, true, nil
}

// dice is the Dice coefficient of two space-separated term sets, softened for stems: a term
// that only extends the other side's term (textindex.Extends) counts as nearly the same word.
// Whole questions are compared, so a short stem of three letters is accepted.
func dice(a, b string) float64 {
	as, bs := strings.Fields(a), strings.Fields(b)
	if len(as) == 0 || len(bs) == 0 {
		return 0
	}
	return (matched(as, bs) + matched(bs, as)) / float64(len(as)+len(bs))
}

// nearMatch is what a term that only extends the other counts for, and nearMinLen the
// shortest stem that may do so.
const (
	nearMatch  = 0.9
	nearMinLen = 3
)

// matched sums, for every term of xs, how well its best counterpart in ys matches it.
func matched(xs, ys []string) float64 {
	total := 0.0
	for _, x := range xs {
		best := 0.0
		for _, y := range ys {
			switch {
			case x == y:
				best = 1
			case best < nearMatch && textindex.Extends(x, y, nearMinLen):
				best = nearMatch
			}
		}
		total += best
	}
	return total
}
