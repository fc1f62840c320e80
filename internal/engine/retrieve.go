package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Retrieve returns the best k passages for the question, at most one per document, best
// first. lang is the question's language; it decides how the question is analyzed, and the
// question's own language is detected when lang is not tr, en or de.
func (e *Engine) Retrieve(ctx context.Context, accountID int64, question, lang string, k int) ([]Passage, error) {
	ps, _, _, err := e.RetrieveSpent(ctx, accountID, question, lang, k)
	return ps, err
}

// RetrieveSpent is Retrieve with what its search by meaning spent on embedding the question
// (the model and its tokens; none when there was no search or the embedding was
// remembered), for the caller to bill. With Options.Semantic the passages are the keyword
// and meaning rankings fused, in any language of the KB.
func (e *Engine) RetrieveSpent(ctx context.Context, accountID int64, question, lang string, k int) ([]Passage, string, int, error) {
	r, err := e.retrieve(ctx, accountID, question, questionLang(lang, question), semWants{passages: k})
	if err != nil {
		return nil, "", 0, err
	}
	var model string
	var tokens int
	if r.sem != nil {
		model, tokens = r.sem.model, r.sem.tokens
	}
	return e.fusedPassages(&r, k), model, tokens, nil
}

// retrieval is the outcome of retrieve: the analyzed question and its ranked candidates,
// with what the product step needs of the pool.
type retrieval struct {
	q query
	// question is the visitor's question as written, for what reads its word order.
	question string
	ranked   []candidate
	// products are the product chunks of the whole candidate pool, in the store's order:
	// every product the question brought up, whether or not it was reranked.
	products []store.ChunkHit
	avgLen   float64        // mean terms per chunk of the account, for BM25 on other pools
	docFreq  map[string]int // chunks of the account holding each question term
	// section is the best chunk's section as one candidate when it spans several chunks
	// (readSection); extraction reads it in the best chunk's place.
	section *candidate
	// product is the product a page answers about, when arbitration found that the page
	// and the product's name together cover the question ("the return cost of a sleeping
	// bag": the returns page and the sleeping bag); nil otherwise.
	product *candidate
	// best is what features read of the best passage, once (hopeless and assess both ask).
	best *bestRead
	// intent is readIntent's reading of the question, read once for retrieval and every
	// product the arbitration weighs.
	intent *intentReading
	// sem is what retrieval by meaning found; nil without Options.Semantic.
	sem *semanticRead
}

// intentReading is what readIntent returns, for one question in one language.
type intentReading struct {
	lang  string
	in    Intent
	strip []textindex.Term
	weak  bool
}

func readIntentOnce(question, lang string) *intentReading {
	in, strip, weak := readIntent(question, lang)
	return &intentReading{lang: lang, in: in, strip: strip, weak: weak}
}

// readIntent is readIntent of the retrieval's question in lg, read once.
func (r *retrieval) readIntent(lg string) (Intent, []textindex.Term, bool) {
	if r.intent == nil || r.intent.lang != lg {
		r.intent = readIntentOnce(r.question, lg)
	}
	return r.intent.in, r.intent.strip, r.intent.weak
}

// bestRead is what features read of one chunk: senseOnly's share, and the strength of
// each question term among its stored terms.
type bestRead struct {
	chunk    int64
	sense    float64
	strength []float64
}

// retrieve analyzes the question, fetches a candidate pool from the store's full-text
// index and reranks it in two stages. It returns the analyzed candidates best first, several
// chunks of one document included: extraction reads them all, callers list bestPerDoc. The
// store's own rank only chooses the pool, because its statistics may span every account and
// it knows nothing of coverage or proximity. The first stage scores the whole pool from the
// stored terms; the second splits only the best Analyze candidates into sentences, which is
// where the time goes. want names the chunks found by meaning the caller shows, the only
// ones read from the store.
func (e *Engine) retrieve(ctx context.Context, accountID int64, question, lang string, want semWants) (retrieval, error) {
	if e.opts.Semantic == nil {
		return e.retrieveKeywords(ctx, accountID, question, lang)
	}
	vc := e.semanticSearch(ctx, accountID, question)
	r, err := e.retrieveKeywords(ctx, accountID, question, lang)
	v := <-vc
	if err != nil {
		return r, err
	}
	if v.err != nil { // the implementation degrades by itself: this is the store's error
		return r, fmt.Errorf("engine: search by meaning: %w", v.err)
	}
	if r.question == "" {
		r.question = question
	}
	if err := e.attachVectors(ctx, accountID, &r, v.vs); err != nil {
		return r, err
	}
	if e.opts.Semantic.Reranks() {
		if err := e.readTop(ctx, accountID, r.sem, rerankTop); err != nil {
			return r, err
		}
		e.rerank(ctx, question, r.sem)
	}
	return r, e.readSemantic(ctx, accountID, &r, lang, want)
}

// retrieveKeywords is retrieve by the keyword index alone.
func (e *Engine) retrieveKeywords(ctx context.Context, accountID int64, question, lang string) (retrieval, error) {
	qa := analyzeQuestion(question, lang)
	e.ablateQuestion(&qa, question, lang)
	if len(qa.terms) == 0 {
		return retrieval{q: query{lang: lang}}, nil
	}
	roots := verbRoots(lang, question)
	lookup := append(candidateAlternates(lang, qa.terms), qa.terms...)
	for _, r := range roots {
		lookup = append(lookup, r)
	}
	st, err := e.kb.TermStats(ctx, accountID, searchTerms(lookup))
	if err != nil {
		return retrieval{}, fmt.Errorf("engine: term stats: %w", err)
	}
	qa.keepSeen(st.DocFreq)
	if splits := qa.compoundSplits(lang, st.DocFreq); len(splits) > 0 && !e.off(FamilySplits) {
		more, err := e.kb.TermStats(ctx, accountID, searchTerms(splitLookups(splits)))
		if err != nil {
			return retrieval{}, fmt.Errorf("engine: term stats: %w", err)
		}
		for t, n := range more.DocFreq {
			st.DocFreq[t] = n
		}
		qa.splitCompounds(splits, st.DocFreq)
	}
	qa.unusedVerbs(roots, st.DocFreq)
	alts := alternates(lang, qa.terms, st.DocFreq, e.rank.Soft)
	e.ablateAlternates(alts)
	sterms := searchTerms(qa.terms)
	seen := make(map[store.SearchTerm]bool, len(sterms))
	for _, t := range sterms {
		seen[t] = true
	}
	for _, as := range alts {
		for _, a := range as {
			if t := (store.SearchTerm{Text: a.term.Text, Prefix: a.term.Prefix}); !seen[t] {
				seen[t] = true
				sterms = append(sterms, t)
			}
		}
	}
	hits, err := e.kb.SearchChunks(ctx, accountID, store.SearchQuery{Terms: poolTerms(sterms, st, e.opts.PoolChunks, e.opts.Candidates),
		Limit: e.opts.Candidates})
	if err != nil {
		return retrieval{}, fmt.Errorf("engine: search: %w", err)
	}
	if len(hits) == 0 {
		// The term counts stay: a search by meaning still finds chunks, and a name no chunk
		// holds must still stop an answer from them (unseenName).
		return retrieval{q: query{lang: lang, kind: qa.kind, terms: qa.terms}, docFreq: st.DocFreq}, nil
	}
	q := newQuery(lang, qa, st, e.rank.Weak)
	q.alts = alts
	q.words = textindex.QueryTerms(question, lang)
	q.raw = wordSet(question, lang)
	if !e.off(FamilySense) {
		q.nouns = questionNouns(&q, question)
	}
	// The wording of a product question ("price", "best", "buy") is no subject either: the
	// page that answers need not repeat it.
	r := retrieval{question: question, avgLen: st.AvgLength, docFreq: st.DocFreq}
	r.intent = readIntentOnce(question, lang)
	if strip := r.intent.strip; len(strip) > 0 {
		q.light = slices.Clone(q.light)
		for _, i := range keptTerms(&q, nil) {
			for _, s := range strip {
				if s.Text == q.terms[i].Text || matchTerm(s, q.terms[i].Text) || matchTerm(q.terms[i], s.Text) {
					q.light[i] = true
				}
			}
		}
	}
	cands := make([]candidate, len(hits))
	for i, h := range hits {
		cands[i].hit = h
		e.rank.bm25Score(&q, &cands[i], st.AvgLength)
		if h.Product != nil {
			r.products = append(r.products, h)
		}
	}
	byScore := func(i, j int) bool { return cands[i].score > cands[j].score }
	sort.SliceStable(cands, byScore)
	if len(cands) > e.opts.Analyze {
		cands = cands[:e.opts.Analyze]
	}
	for i := range cands {
		cands[i].analyzeSentences(&q, e.rank.Soft, e.sentences)
		e.rank.proximityScore(&q, &cands[i])
	}
	sort.SliceStable(cands, byScore)
	r.q, r.ranked = q, dropRepeats(cands)
	return r, nil
}

// dropRepeats removes, from candidates best first, each page chunk whose text a better one
// already holds under the same heading (two FAQ entries may both answer "Yes."). Sites repeat text across pages (a press kit that reprints the FAQ, a print
// version, a category page quoting its articles): the copy answers nothing the first does
// not, yet it took a place among the passages and stood level with the first, so that the
// best passage seemed no better than the next (the answerability margin). Products keep
// their own documents: two with one description are two products.
func dropRepeats(cands []candidate) []candidate {
	seen := make(map[string]bool, len(cands))
	out := cands[:0]
	for _, c := range cands {
		if c.hit.Product == nil {
			key := c.hit.Lang + "\x00" + lastHeading(c.hit.Heading) + "\x00" + c.hit.Text
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, c)
	}
	return out
}

// bestPerDoc returns the first k candidates of ranked that belong to different documents.
func bestPerDoc(ranked []candidate, k int) []candidate {
	seen := make(map[int64]bool, len(ranked))
	var out []candidate
	for _, c := range ranked {
		if len(out) >= k {
			break
		}
		if seen[c.hit.DocID] {
			continue
		}
		seen[c.hit.DocID] = true
		out = append(out, c)
	}
	return out
}

// poolTerms are the terms the candidate search matches: the question's rarest terms, as many
// as it takes for them to match about poolChunks chunks, and the commoner ones only while
// they do not. A poolChunks of zero or less matches every term.
//
// The store scores every chunk that matches any term before it keeps the best limit, so the
// search's time is the length of the terms' lists, and in a large KB a common word's list is
// most of it: at 50,000 chunks a question's terms were in 5,000 chunks (the median), ten
// times the candidates' need, and the time grew with the KB. A common word weighs little in
// BM25, and a chunk that holds only common words of the question is no candidate while
// thousands hold rarer ones; every chunk holding a kept word is still found and reranked on
// all the terms. A small KB has lists shorter than poolChunks, so its candidates are what they
// were.
//
// The term that crosses poolChunks is kept, unless the rarer ones already match candidates
// chunks (a full pool) and it would take the pool past poolCeiling times poolChunks: in a KB
// of 50,000 chunks in one language, "Nixon" and "seçil" matched 1,800 chunks and "taraf"
// alone 14,500, so one common word made the search score eight times the chunks the bound
// allows, and such questions were the slowest (BENCHMARKS.md, "Speed on other KBs").
// poolCeiling bounds, in multiples of the pool's size, the chunks a search scores once the
// pool is full. Measured on 50,000-chunk KBs (one account per language, and the bench's mixed
// one): 3 changed no question's first or top-five page among the XQuAD dev questions and
// took the slowest searches from 12.5 to 8 ms; 2 lost a few English questions' pages.
const poolCeiling = 3

func poolTerms(terms []store.SearchTerm, st store.TermStats, poolChunks, candidates int) []store.SearchTerm {
	if poolChunks <= 0 || len(terms) < 2 {
		return terms
	}
	byDF := make([]int, len(terms))
	for i := range byDF {
		byDF[i] = i
	}
	sort.SliceStable(byDF, func(a, b int) bool { return st.DocFreq[terms[byDF[a]].Text] < st.DocFreq[terms[byDF[b]].Text] })
	keep := make([]bool, len(terms))
	matched := 0
	for _, i := range byDF {
		df := st.DocFreq[terms[i].Text]
		if matched >= poolChunks || matched >= candidates && matched+df > poolCeiling*poolChunks {
			break // the lists only grow from here
		}
		keep[i] = true
		matched += df
	}
	out := make([]store.SearchTerm, 0, len(terms))
	for i, t := range terms {
		if keep[i] {
			out = append(out, t)
		}
	}
	return out
}
