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
	key := textindex.NormalizeQuestion(p.text, p.lang)
	if key == "" {
		return SendResult{}, false, nil
	}
	if doc, ok, err := p.curated(ctx, key); err != nil || ok {
		if err != nil {
			return SendResult{}, false, err
		}
		reply := p.reply(doc.Body, store.SourceCacheTenant, false)
		reply.DocIDs = []int64{doc.ID}
		res, err := p.commit(ctx, reply, store.Charge{EventType: store.EventCacheTenant})
		return res, true, err
	}
	entry, err := p.svc.st.CachedAnswer(ctx, p.acct.ID, p.lang, key)
	if errors.Is(err, store.ErrNotFound) {
		return SendResult{}, false, nil
	}
	if err != nil {
		return SendResult{}, false, err
	}
	reply := p.reply(entry.Answer, store.SourceCacheTenant, false)
	reply.DocIDs = entry.DocIDs
	t := p.turn(reply, store.Charge{EventType: store.EventCacheTenant})
	t.CacheHitID = entry.ID
	res, err := p.save(ctx, t)
	return res, true, err
}

// curated finds a curated Q&A entry in the question's language whose question says the same.
func (p *pending) curated(ctx context.Context, key string) (store.Document, bool, error) {
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
		if sc := dice(key, textindex.NormalizeQuestion(h.Title, p.lang)); sc > bestScore {
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
// that extends the other side's term (the stemmer leaves "dauert" whole but cuts "dauern" to
// "dau") counts as nearly the same word. The shorter term must have at least three letters so
// that short stems do not match everything.
func dice(a, b string) float64 {
	as, bs := strings.Fields(a), strings.Fields(b)
	if len(as) == 0 || len(bs) == 0 {
		return 0
	}
	return (matched(as, bs) + matched(bs, as)) / float64(len(as)+len(bs))
}

// nearMatch is what a term that only extends the other counts for.
const nearMatch = 0.9

// matched sums, for every term of xs, how well its best counterpart in ys matches it.
func matched(xs, ys []string) float64 {
	total := 0.0
	for _, x := range xs {
		best := 0.0
		for _, y := range ys {
			switch {
			case x == y:
				best = 1
			case best < nearMatch && extends(x, y):
				best = nearMatch
			}
		}
		total += best
	}
	return total
}

func extends(x, y string) bool {
	short, long := x, y
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= 3 && strings.HasPrefix(long, short)
}
