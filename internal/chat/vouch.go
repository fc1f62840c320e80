package chat

import (
	"context"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"svc/internal/store"
	"svc/internal/textindex"
)

// A cached answer is served for as long as the engine would still give it: an entry written
// by an earlier engine (or a looser one), or before the KB changed, is served only when the
// engine, asked now, still answers the question from the very sentences the entry quoted
// (its evidence). Withdrawing entries when their documents change (the store's
// withdrawCache) misses an answer that a new or changed document of another page now
// outranks, and an answer the engine has since learned to decline. Asking the engine costs
// one retrieval (Evidence: the search and the extraction of a new answer, with no lead-in,
// token count or write), as much as most of a new answer's time, which on every hit would
// take the cache-hit throughput far below its goal (BENCHMARKS.md). So the engine is asked
// once per entry and version of the account's KB (store.KBState, which the send reads
// anyway), and its verdict is remembered: a hit costs a lookup here, and the first hit after
// any change of the KB, or after a restart with a new engine, asks again.

// verdictsKept bounds the remembered verdicts; each is a few words.
const verdictsKept = 16384

// verdicts remembers the verdicts on cache entries; safe for concurrent use.
type verdicts struct {
	memo *lru.Cache[verdictKey, verdict]
}

// verdictKey names one version of an entry under one version of its account's KB. An entry
// rewritten under its key keeps its id but takes the new reply's message id.
type verdictKey struct {
	account, entry, message, kb int64
}

// verdict is what was found of an entry: whether the engine stands behind it, and which
// terms of its key the answer does not name (a later asker who writes one of them with a
// capital names something the answer does not speak of).
type verdict struct {
	ok      bool
	unnamed []string
}

func newVerdicts() *verdicts {
	memo, err := lru.New[verdictKey, verdict](verdictsKept)
	if err != nil {
		panic(err) // only for a size below one
	}
	return &verdicts{memo: memo}
}

// vouched reports whether the exact cache entry e may answer this send's question: the
// engine stands behind it (see judge, remembered per KB version) and its answer names every
// name of this wording of the question.
func (p *pending) vouched(ctx context.Context, e store.CacheEntry, ev *evidenceMemo) (bool, error) {
	kb, err := p.kbState(ctx)
	if err != nil {
		return false, err
	}
	k := verdictKey{account: p.acct.ID, entry: e.ID, message: e.MessageID, kb: kb.Version}
	v, ok := p.svc.verdicts.memo.Get(k)
	if !ok {
		if v, err = p.judge(ctx, e, ev); err != nil {
			return false, err
		}
		p.svc.verdicts.memo.Add(k, v)
	}
	return v.ok && !slices.ContainsFunc(p.q.names, func(n string) bool { return slices.Contains(v.unnamed, n) }), nil
}

// judge finds whether the engine stands behind the entry e found under this send's key: its
// answer names what the question it was written for names (answerNames), and the engine's
// evidence for the question now is the entry's. An entry without evidence (a product list, which quotes no
// sentence) is judged by its names alone: there is nothing of it to compare.
func (p *pending) judge(ctx context.Context, e store.CacheEntry, ev *evidenceMemo) (verdict, error) {
	terms := textindex.IndexTerms(e.Answer, e.Lang)
	var v verdict
	for _, t := range wordNames(p.q.terms) {
		if !namedIn(t, terms) {
			v.unnamed = append(v.unnamed, t)
		}
	}
	if !covers(terms, wordNames(textindex.NameTerms(e.Question, e.Lang))) {
		return v, nil
	}
	if e.Evidence != "" {
		now, err := ev.get(ctx)
		if err != nil || now != e.Evidence {
			return v, err
		}
	}
	v.ok = true
	return v, nil
}
