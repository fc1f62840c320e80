package chat

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"svc/internal/engine"
	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
	"svc/internal/variant"
)

// curatedMatch is how alike a question and a curated Q&A question must be (Dice coefficient
// of their analyzed content terms) for the curated answer to be served as is. High on
// purpose: a wrong curated answer is worse than a composed one.
const curatedMatch = 0.8

// curatedConfirm is the least Dice (see confirmable) at which a curated entry is still
// served when the engine confirms it: its evidence for the question (the sentences it would
// quote) lies in that very entry. A rewording that swaps a word for a variant the analyzer keeps apart
// ("zahlen" and "bezahlen", "pay" and "make a payment") falls below curatedMatch; the
// engine, reading the whole KB, still answers it from the Q&A that was written for it, and
// then serving that entry as written, free, is no less right than composing and billing a
// quote of it. A question that only shares a word with the entry is answered from another
// document (or its Dice stays under this floor), so it is composed as before.
const curatedConfirm = 0.5

// similarMatch is how alike (IDF-weighted Dice, see similarity) a question and an earlier
// answered question of the same language and kind must be before their evidence is
// compared. Words alone cannot tell "how much does the tent cost" from "how much does the
// tent weigh", nor "price" from "cost"; the evidence (the sentences the built-in engine
// answers each from) can, so the word test only has to rule out questions on other
// subjects. Tuned on internal/chat/testdata/rewordings.json; see BENCHMARKS.md.
const similarMatch = 0.5

// similarCandidates is how many entries sharing terms with the question are compared.
const similarCandidates = 12

// questionKey is a question normalised for the cache: its analyzed content terms, sorted,
// and the kind of answer it asks for. The kind is part of the key because question words
// are stop words: "how long is delivery to Germany" and "how much is delivery to Germany"
// have the same terms and different answers. Its names (see names.go) are not part of the
// key: they are terms of it, and which of them were written with a capital varies with
// the asker's typing.
type questionKey struct {
	key   string
	terms []string
	kind  string
	names []string
}

func newQuestionKey(text, lg string) questionKey {
	norm := textindex.NormalizeQuestion(text, lg)
	if norm == "" {
		return questionKey{}
	}
	q := questionKey{key: norm, terms: strings.Fields(norm), kind: engine.QuestionKind(text, lg),
		names: textindex.NameTerms(text, lg)}
	if q.kind != "" {
		q.key += " ?" + q.kind
	}
	return q
}

// keyKind reads the kind back from a stored key.
func keyKind(key string) string {
	if i := strings.LastIndex(key, " ?"); i >= 0 {
		return key[i+2:]
	}
	return ""
}

// fromCache answers from this account's curated Q&A entries or its earlier answers, exact
// or similar. All are free and never touch the daily quota.
func (p *pending) fromCache(ctx context.Context) (SendResult, bool, error) {
	if p.q.key == "" {
		return SendResult{}, false, nil
	}
	ev := &evidenceMemo{p: p}
	if doc, ok, err := p.curated(ctx, ev); err != nil || ok {
		if err != nil {
			return SendResult{}, false, err
		}
		reply := p.reply(doc.Body, store.SourceCacheTenant, false)
		reply.Via = store.ViaCurated
		reply.DocIDs = []int64{doc.ID}
		reply.Sources = docSource(doc)
		if err := p.attachCards(ctx, &reply); err != nil {
			return SendResult{}, false, err
		}
		addCardSources(&reply)
		res, err := p.commit(ctx, reply, store.Charge{EventType: store.EventCacheTenant})
		return res, true, err
	}
	entry, err := p.svc.st.CachedAnswer(ctx, p.acct.ID, p.lang, p.q.key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		var ok bool
		entry, ok, err = p.similar(ctx, ev)
		if err != nil || !ok {
			return SendResult{}, false, err
		}
	case err != nil:
		return SendResult{}, false, err
	default:
		// The question's own entry, unless the engine no longer stands behind it: then the
		// engine answers (and its answer, if it gives one, takes the entry's place).
		if ok, err := p.vouched(ctx, entry, ev); err != nil || !ok {
			return SendResult{}, false, err
		}
	}
	reply := p.reply(entry.Answer, store.SourceCacheTenant, false)
	reply.Via = store.ViaCache
	reply.DocIDs = entry.DocIDs
	if reply.Sources, err = p.cachedSources(ctx, entry); err != nil {
		return SendResult{}, false, err
	}
	if err := p.attachCards(ctx, &reply); err != nil {
		return SendResult{}, false, err
	}
	addCardSources(&reply)
	t := p.turn(reply, store.Charge{EventType: store.EventCacheTenant})
	t.CacheHitID = entry.ID
	res, err := p.save(ctx, t)
	return res, true, err
}

// similar finds the earlier answer of a question worded differently but saying the same:
// same language, same kind of answer, the same names (numbers among them; see names.go),
// terms similar enough when weighed by how rare each is in the account's KB (so the words
// that tell subjects apart count for more than those every question shares), and above all
// the same evidence: the built-in engine answers both from the same sentences; and an answer
// that names what the question names. The evidence costs one search, made only when some
// entry passes the cheaper tests.
func (p *pending) similar(ctx context.Context, ev *evidenceMemo) (store.CacheEntry, bool, error) {
	found, err := p.svc.st.SimilarCached(ctx, p.acct.ID, p.lang, p.q.terms, similarCandidates)
	if err != nil {
		return store.CacheEntry{}, false, err
	}
	// The word tests that need no statistics come first; most entries fail them, and the
	// statistics and the evidence are then never read.
	var cands []store.CacheEntry
	for _, c := range found {
		if k := keyKind(c.Key); c.Evidence != "" && (k == p.q.kind || k == "" || p.q.kind == "") &&
			sameNumbers(p.q.terms, c.Terms) && !swapsTerms(p.q.terms, c.Terms) &&
			namesAgree(p.text, p.q.terms, p.q.names, c.Question, c.Terms, textindex.NameTerms(c.Question, p.lang)) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return store.CacheEntry{}, false, nil
	}
	seen := map[string]bool{}
	var terms []store.SearchTerm
	for _, c := range cands {
		for _, t := range append(c.Terms, p.q.terms...) {
			if !seen[t] {
				seen[t] = true
				terms = append(terms, store.SearchTerm{Text: t})
			}
		}
	}
	st, err := p.svc.st.TermStats(ctx, p.acct.ID, terms)
	if err != nil {
		return store.CacheEntry{}, false, err
	}
	weight := idfWeights(st)
	best, bestScore := -1, 0.0
	for i, c := range cands {
		sc := similarity(p.q.terms, c.Terms, weight)
		if sc < similarMatch || sc <= bestScore {
			continue
		}
		evidence, err := ev.get(ctx)
		if err != nil {
			return store.CacheEntry{}, false, err
		}
		if c.Evidence == evidence && answerNames(p.q.names, c.Answer, p.lang) {
			best, bestScore = i, sc
		}
	}
	if best < 0 {
		return store.CacheEntry{}, false, nil
	}
	return cands[best], true, nil
}

// sameNumbers reports whether two term lists hold the same numbers: "a 27 cm foot" and "a 28
// cm foot" ask different things however alike the rest is.
func sameNumbers(a, b []string) bool {
	nums := func(ts []string) map[string]bool {
		m := map[string]bool{}
		for _, t := range ts {
			if isNumber(t) {
				m[t] = true
			}
		}
		return m
	}
	return maps.Equal(nums(a), nums(b))
}

// swapsTerms reports whether each question has a term the other lacks: one subject or
// attribute put in place of another ("weigh" for "cost", "Ankara" for "Istanbul"). A
// rewording that only adds or drops words around the same ones is accepted; a swap is
// refused even when it is a synonym ("price" for "cost"), because a missed hit costs one
// answer and a wrong hit misleads a visitor. Weighing the swapped terms by rarity was tried
// and let wrong answers through (BENCHMARKS.md).
func swapsTerms(a, b []string) bool {
	return missing(a, b) && missing(b, a)
}

// missing reports whether some term of xs has no counterpart in ys.
func missing(xs, ys []string) bool {
	for _, x := range xs {
		if termMatch(x, ys) == 0 {
			return true
		}
	}
	return false
}

// idfWeights weighs a term by its rarity among the account's chunks (bm25.IDF); a term the KB
// never uses weighs the most, since it names something the KB does not (and so tells
// questions apart).
func idfWeights(st store.TermStats) func(string) float64 {
	n := float64(st.Chunks)
	return func(t string) float64 {
		return bm25.IDF(n, float64(st.DocFreq[t]))
	}
}

// similarity is the weighted Dice coefficient of two term lists: every term counts its
// weight times how well the other side matches it (1, or nearMatch for a term that only
// extends the other's).
func similarity(a, b []string, w func(string) float64) float64 {
	total := 0.0
	for _, t := range a {
		total += w(t)
	}
	for _, t := range b {
		total += w(t)
	}
	if total == 0 {
		return 0
	}
	return (weightedMatch(a, b, w) + weightedMatch(b, a, w)) / total
}

func weightedMatch(xs, ys []string, w func(string) float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += termMatch(x, ys) * w(x)
	}
	return sum
}

// termMatch is how well x's best counterpart in ys matches it: 1 for the same term,
// nearMatch for a term that only extends the other, 0 for none.
func termMatch(x string, ys []string) float64 {
	best := 0.0
	for _, y := range ys {
		switch {
		case x == y:
			return 1
		case best < nearMatch && textindex.Extends(x, y, nearMinLen):
			best = nearMatch
		}
	}
	return best
}

// evidenceMemo reads the engine's evidence for the question at most once a send: the
// curated check and the similar-question check may both need it.
type evidenceMemo struct {
	p    *pending
	text string
	read bool
}

func (m *evidenceMemo) get(ctx context.Context) (string, error) {
	if !m.read {
		ev, err := m.p.svc.engine.Evidence(ctx, m.p.acct.ID, m.p.text, m.p.lang)
		if err != nil {
			return "", err
		}
		m.text, m.read = ev, true
	}
	return m.text, nil
}

// curated finds a curated Q&A entry in the question's language whose question says the same:
// one whose question has the same kind and the same names (see names.go) and terms alike at
// Dice ≥ curatedMatch, or failing that at Dice ≥ curatedConfirm when the engine would answer
// the question from that entry. Its answer is the owner's and is not checked against the
// engine: it was written for its question.
func (p *pending) curated(ctx context.Context, ev *evidenceMemo) (store.Document, bool, error) {
	if ok, err := p.has(ctx, store.DocQA); err != nil || !ok {
		return store.Document{}, false, err
	}
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
	confirm := map[int64]bool{}
	for _, h := range hits {
		if h.Lang != p.lang || variant.Differ(p.text, h.Title) { // another model's entry
			continue
		}
		if k := engine.QuestionKind(h.Title, p.lang); k != "" && p.q.kind != "" && k != p.q.kind {
			continue
		}
		theirs := textindex.NormalizeQuestion(h.Title, p.lang)
		if !namesAgree(p.text, p.q.terms, p.q.names, h.Title, strings.Fields(theirs), textindex.NameTerms(h.Title, p.lang)) {
			continue // written for another country, product or number
		}
		sc := dice(strings.Join(p.q.terms, " "), theirs)
		if confirmable(p.q.terms, strings.Fields(theirs), p.lang) {
			confirm[h.DocID] = true
		}
		if sc > bestScore {
			best, bestScore = h.DocID, sc
		}
	}
	if bestScore < curatedMatch {
		if len(confirm) == 0 {
			return store.Document{}, false, nil
		}
		evidence, err := ev.get(ctx)
		if err != nil {
			return store.Document{}, false, err
		}
		id, ok := engine.EvidenceDoc(evidence)
		if !ok || !confirm[id] {
			return store.Document{}, false, nil
		}
		best = id
	}
	doc, err := p.svc.st.GetDocument(ctx, p.acct.ID, best)
	if err != nil {
		return store.Document{}, false, err
	}
	return doc, true, nil
}

// confirmable reports whether two questions' terms may say the same, given the engine's
// confirmation: the same numbers, alike at Dice ≥ curatedConfirm when a German verb prefix
// is no difference ("zahl", "bezahl"), and no term swapped for another (each side having a
// term the other lacks, like "refund" for "pay"), since a swap is a different question about
// one subject.
func confirmable(a, b []string, lg string) bool {
	if len(a) == 0 || len(b) == 0 || !sameNumbers(a, b) {
		return false
	}
	sum, swapA, swapB := 0.0, false, false
	for _, x := range a {
		m := variantMatch(x, a, b, lg)
		sum += m
		swapA = swapA || m == 0
	}
	for _, y := range b {
		m := variantMatch(y, b, a, lg)
		sum += m
		swapB = swapB || m == 0
	}
	return !(swapA && swapB) && sum/float64(len(a)+len(b)) >= curatedConfirm
}

// variantMatch is how well x, a term of own, matches its best counterpart in ys: 1 for the
// same term, nearMatch for one that extends it or is it behind a German verb prefix
// (textindex.PrefixVariant). A near counterpart that own holds as well is that term's match,
// not x's: "pay" of "pay paypal" has no counterpart in "refund paypal", since that "paypal"
// is the match of its own "paypal".
func variantMatch(x string, own, ys []string, lg string) float64 {
	best := 0.0
	for _, y := range ys {
		switch {
		case x == y:
			return 1
		case slices.Contains(own, y):
		case textindex.Extends(x, y, nearMinLen) || textindex.PrefixVariant(x, y, lg, nearMinLen):
			best = nearMatch
		}
	}
	return best
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
	return weightedMatch(xs, ys, func(string) float64 { return 1 })
}
