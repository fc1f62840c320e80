package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Thresholds of product relevance, in shares of the weight of the question's subject (its
// terms less those that only carry the product intent).
const (
	// cardCoverage is the share of the subject a product's passage must hold to be carded...
	cardCoverage = 0.5
	// ...or cardNamedCoverage when the product's name or category matches a subject term.
	cardNamedCoverage = 0.3
	// cardRelative is how close to the best product's score another one must come.
	cardRelative = 0.5
	// strongName is the share of the whole question that the name of the best passage's
	// product must match for a question without product wording to count as one about that
	// product ("is the Uludağ tent waterproof?"); twice that for the next passages.
	strongName = 0.25
	// cardNamedShare is the share of the subject a product's name or category must match
	// for the product to fit a comparison on that alone: the visitor named it ("El
	// değirmeni mi daha pahalı, Barista Pro mu?").
	cardNamedShare = 0.15
	// nameBonus adds the share of the subject matched by name or category to a product's
	// score, so that the products the visitor names come first.
	nameBonus = 0.5
)

// shelf is what a product question brought up: the cards, and the other products retrieval
// saw, which the reply text must not name unless they join the cards.
type shelf struct {
	cards  []Card           // relevant products, most relevant first, at most MaxCards
	spare  []Card           // products that matched the subject but did not make the cards
	others []Card           // products seen that do not fit the question
	texts  map[int64]string // document → text of its best product chunk, what was read
	// subject is the question less its product wording; catalog is set when nothing was
	// left of it and every product of the language fits.
	subject query
	catalog bool
	about   bool    // the question is about products
	unfit   []int64 // products the question's variant tokens exclude: never carded
}

// shelf finds the products a question is about. Whether it is a product question at all
// depends on the wording and the evidence: a listing, comparison or recommendation needs
// products that match its subject; a price or stock question needs a product whose name or
// category the question names, or a product as the best passage; a question without
// product wording counts only when a best passage is a product the question names
// (namesTopProduct). The products come from a search of product documents only, for the
// subject's terms, so that pages do not crowd them out of the pool; they are reranked like
// any passage, by the subject alone, plus a bonus for a match in the name or category.
func (e *Engine) shelf(ctx context.Context, accountID int64, question, lg string, intent Intent, weak bool,
	strip []textindex.Term, r *retrieval) (shelf, error) {
	sh := shelf{texts: make(map[int64]string)}
	q := &r.q
	if intent == 0 && !e.namesTopProduct(r) {
		return sh, nil
	}
	sh.about = intent == 0
	keep := keptTerms(q, strip)
	subject := q.subset(keep)
	sh.subject, sh.catalog = subject, len(keep) == 0
	var scored []productHit
	switch {
	case len(keep) > 0 && subject.total > 0:
		hits, err := e.kb.SearchChunks(ctx, accountID, store.SearchQuery{Terms: searchTerms(subject.terms),
			Types: []string{store.DocProduct}, Limit: e.opts.Candidates})
		if err != nil {
			return sh, fmt.Errorf("engine: product search: %w", err)
		}
		scored = e.scoreProducts(&subject, question, hits, r.avgLen)
		weighProducts(&subject, scored, r.docFreq, question)
	case len(keep) == 0 && intent&(IntentList|IntentRecommend) != 0:
		// A listing question without a subject ("what products do you have?"): the
		// products of the question's language.
		hits, err := e.kb.Products(ctx, accountID, store.ProductQuery{Lang: lg, Limit: e.opts.Candidates})
		if err != nil {
			return sh, fmt.Errorf("engine: catalog search: %w", err)
		}
		scored = catalog(hits)
	}
	kept, spare := relevantProducts(scored, lg, intent)
	kept, spare, unfit := fitVariants(question, kept, spare)
	switch {
	case len(kept) > 0 && e.pagesBeatShelf(&subject, kept, r, lg, readAsking(question, lg, &subject, intent, weak)):
		// The pages answer what is asked better than the products (arbitrate.go): no card,
		// and not even the quoted product's.
		sh.about = false
		kept, spare = nil, append(kept, spare...)
	case productQuestion(intent, kept, r):
		sh.about = true
	default:
		kept, spare = nil, append(kept, spare...)
	}
	for _, p := range unfit {
		sh.unfit = append(sh.unfit, p.hit.DocID)
		sh.others = append(sh.others, p.card())
	}
	for _, p := range kept {
		sh.texts[p.hit.DocID] = p.hit.Text
		if len(sh.cards) < e.opts.MaxCards {
			sh.cards = append(sh.cards, p.card())
		} else {
			sh.spare = append(sh.spare, p.card())
		}
	}
	for _, p := range spare {
		sh.texts[p.hit.DocID] = p.hit.Text
		sh.spare = append(sh.spare, p.card())
	}
	for _, h := range r.products {
		if !sh.known(h.DocID) {
			sh.others = append(sh.others, hitCard(h))
		}
	}
	return sh, nil
}

// namesTopProduct reports whether a question without product wording is about a product
// all the same. The best passage is a product, and the reply quotes it, whose name the
// question uses ("Passt der Tamper auf die Barista One?", answered from the tamper's page)
// or whose name and category hold strongName of the question; or one of the next best
// passages is a product the question names twice as strongly and by the first word of its
// name ("is the Etna Tent the lightest one?", when a buying guide answers best; not "how do
// I care for trekking boots?", when the care article answers best and a "Kaçkar Pro
// Trekking Boot" follows).
func (e *Engine) namesTopProduct(r *retrieval) bool {
	if r.q.total == 0 {
		return false
	}
	for i, c := range bestPerDoc(r.ranked, e.opts.AnswerPassages) {
		if c.hit.Product == nil {
			continue
		}
		share := nameShare(&r.q, c.hit, e.rank.Soft)
		name := textindex.IndexTerms(c.hit.Product.Name, hitLang(c.hit, r.q.lang))
		if i == 0 && (share >= strongName || usesWord(&r.q, name)) ||
			share >= 2*strongName && len(name) > 0 && usesWord(&r.q, name[:1]) {
			return true
		}
	}
	return false
}

// usesWord reports whether a question term matches one of the words (analyzed terms) that
// is a word: not a number, at least three letters.
func usesWord(q *query, words []string) bool {
	for _, w := range words {
		if len(w) < 3 || isDigits(w) {
			continue
		}
		for _, t := range q.terms {
			if matchTerm(t, w) {
				return true
			}
		}
	}
	return false
}

func hitLang(h store.ChunkHit, lang string) string {
	if h.Lang != "" {
		return h.Lang
	}
	return lang
}

// productQuestion decides, given the relevant products, whether the question is about them.
func productQuestion(intent Intent, kept []productHit, r *retrieval) bool {
	if len(kept) == 0 {
		return false
	}
	if intent == 0 || intent.Lists() {
		return true
	}
	for _, p := range kept {
		if p.named > 0 {
			return true
		}
	}
	return len(r.ranked) > 0 && r.ranked[0].hit.DocID == kept[0].hit.DocID
}

// known reports whether a document is already on the shelf.
func (sh *shelf) known(docID int64) bool {
	return hasDoc(sh.cards, docID) || hasDoc(sh.spare, docID) || hasDoc(sh.others, docID)
}

// cite puts the product the reply quotes first among the cards: the reply's source line
// names it, and it is the passage that answered best. A question that is not about
// products gets no card this way either.
func (sh *shelf) cite(h store.ChunkHit, max int) {
	if !sh.about || h.Product == nil || slices.Contains(sh.unfit, h.DocID) {
		return
	}
	c := hitCard(h)
	rest := []Card{c}
	for _, x := range sh.cards {
		if x.DocID != c.DocID {
			rest = append(rest, x)
		}
	}
	if len(rest) > max {
		sh.spare = append([]Card{rest[max]}, sh.spare...)
		rest = rest[:max]
	}
	sh.cards = rest
	sh.spare = without(sh.spare, []Card{c})
	sh.others = without(sh.others, []Card{c})
	if _, ok := sh.texts[c.DocID]; !ok {
		sh.texts[c.DocID] = h.Text
	}
}

// productHit is a product document scored for the subject of a question.
type productHit struct {
	hit   store.ChunkHit // its best chunk
	score float64        // rerank score plus the name bonus
	// Per subject term, the strength of its match in the chunk and in the product's name
	// and category (1 full, Ranking.Soft near, 0 none).
	inText, inName []float64
	// coverage and named are the weight the chunk and the name match, as shares of the
	// subject terms that can tell products apart (see weighProducts).
	coverage, named float64
}

func (p productHit) card() Card { return hitCard(p.hit) }

func hitCard(h store.ChunkHit) Card { return Card{DocID: h.DocID, Lang: h.Lang, Product: *h.Product} }

// scoreProducts reranks product chunks for the subject with the passage ranking, adds the
// name bonus and keeps each document's best chunk, best first.
func (e *Engine) scoreProducts(subject *query, question string, hits []store.ChunkHit, avgLen float64) []productHit {
	best := make(map[int64]productHit)
	var order []int64
	for _, h := range hits {
		if h.Product == nil {
			continue
		}
		c := candidate{hit: h}
		e.rank.bm25Score(subject, &c, avgLen)
		c.analyzeSentences(subject, e.rank.Soft, e.sentences)
		e.rank.proximityScore(subject, &c)
		p := productHit{hit: h}
		_, p.inText = subject.termFreqs(strings.Fields(h.Terms), e.rank.Soft)
		p.inName = productNameMatch(subject, question, h, e.rank.Soft)
		p.score = c.score + nameBonus*subject.strengthWeight(p.inName)/subject.total
		prev, seen := best[h.DocID]
		if !seen {
			order = append(order, h.DocID)
		}
		if !seen || p.score > prev.score {
			best[h.DocID] = p
		}
	}
	out := make([]productHit, 0, len(order))
	for _, id := range order {
		out = append(out, best[id])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// weighProducts sets the coverage and named shares of the scored products. They are shares
// of the subject terms that can tell products apart: those some product matches, and those
// the account's KB never contains that qualify one of them. A word the KB has but no
// product does says nothing about which product fits. A word the KB lacks entirely, right
// before a word the products match, says the shop has nothing that fits: modifiers come
// first in all three languages ("laptop bags", "Laptoptaschen", "laptop çantası"), so it
// counts, and the word it qualifies matches nothing, since a sleeping bag is no laptop bag.
// Anywhere else it is the visitor's own circumstance ("home" in "what do you have for
// pour-over coffee at home?") or an inflection the index does not share ("botunun" beside
// "botu"), and is left out, as are light words ("yapmak").
func weighProducts(subject *query, scored []productHit, docFreq map[string]int, question string) {
	n := len(subject.terms)
	matched := make([]bool, n)
	for i := range subject.terms {
		for _, p := range scored {
			matched[i] = matched[i] || p.inText[i] > 0 || p.inName[i] > 0
		}
	}
	before := precedingTerms(question, subject)
	tells := slices.Clone(matched)
	voided := make([]bool, n)
	for i, t := range subject.terms {
		if matched[i] || docFreq[t.Text] != 0 || weakTerms[subject.lang][t.Text] {
			continue
		}
		for j := range n {
			if before[i][j] && matched[j] {
				tells[i], voided[j] = true, true
			}
		}
	}
	gate := 0.0
	for i, ok := range tells {
		if ok {
			gate += subject.idf[i]
		}
	}
	if gate == 0 {
		return
	}
	for k := range scored {
		p := &scored[k]
		text, name := slices.Clone(p.inText), slices.Clone(p.inName)
		for i, v := range voided {
			if v {
				text[i], name[i] = 0, 0
			}
		}
		p.coverage = subject.strengthWeight(maxEach(text, name)) / gate
		p.named = subject.strengthWeight(name) / gate
	}
}

// precedingTerms reports, per pair (i, j) of subject terms, whether term i comes right
// before term j in the question: from adjacent words, or as the parts of one compound.
func precedingTerms(question string, subject *query) [][]bool {
	n := len(subject.terms)
	index := make(map[string]int, n)
	for i, t := range subject.terms {
		index[t.Text] = i
	}
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	var prev []int // the subject terms of the previous word
	for _, word := range rawWords(question) {
		var cur []int
		for _, t := range textindex.QueryTerms(word, subject.lang) {
			i, ok := index[t.Text]
			if !ok {
				continue
			}
			for _, h := range prev {
				before[h][i] = true
			}
			if len(cur) > 0 {
				before[cur[len(cur)-1]][i] = true
			}
			cur = append(cur, i)
		}
		prev = cur
	}
	return before
}

func maxEach(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = max(a[i], b[i])
	}
	return out
}

// catalog keeps each product document of the store's product list once, in its order;
// every one fits a question that names no subject.
func catalog(hits []store.ChunkHit) []productHit {
	var out []productHit
	seen := make(map[int64]bool)
	for _, h := range hits {
		if h.Product == nil || seen[h.DocID] {
			continue
		}
		seen[h.DocID] = true
		out = append(out, productHit{hit: h, coverage: 1})
	}
	return out
}

// relevantProducts splits the scored products into those that fit the question and those
// that only touch it. A product fits when its passage holds cardCoverage of the subject (or
// cardNamedCoverage with its name or category matching a subject term) and it scores within
// cardRelative of the best, or, in a comparison, when the question names it (its name or
// category holds cardNamedShare of the subject): each product compared takes only part of
// the question. When the question names a kind of product ("jackets", "Zelt"),
// only products of that kind fit: for a price or stock question, or one without product
// wording, those whose name or category says so; for a listing, comparison or
// recommendation, those that mention it anywhere ("a gooseneck kettle for pour-over" fits
// "what do you have for pour-over coffee?"). When any fitting product is in the question's
// language, the others' languages are dropped: the same product in three languages is one
// card.
func relevantProducts(scored []productHit, lg string, intent Intent) (kept, spare []productHit) {
	if len(scored) == 0 {
		return nil, nil
	}
	top := scored[0].score
	compare := intent.Has(IntentCompare)
	var fit []productHit
	var kinds []bool // per subject term: some fitting product's name or category holds it
	for _, p := range scored {
		ok := p.coverage >= cardCoverage || p.named > 0 && p.coverage >= cardNamedCoverage
		if ok && (top <= 0 || p.score >= cardRelative*top) || compare && p.named >= cardNamedShare {
			fit = append(fit, p)
			if kinds == nil {
				kinds = make([]bool, len(p.inName))
			}
			for i, s := range p.inName {
				kinds[i] = kinds[i] || s > 0
			}
			continue
		}
		spare = append(spare, p)
	}
	strict := intent == 0 || intent&(IntentPrice|IntentStock) != 0
	sameLang := false
	var ofKind []productHit
	for _, p := range fit {
		if isKind(p, kinds, strict) {
			ofKind = append(ofKind, p)
			sameLang = sameLang || p.hit.Lang == lg
		} else {
			spare = append(spare, p)
		}
	}
	for _, p := range ofKind {
		if !sameLang || p.hit.Lang == lg || p.hit.Lang == "" {
			kept = append(kept, p)
		}
	}
	var rest []productHit
	for _, p := range spare {
		if !sameLang || p.hit.Lang == lg || p.hit.Lang == "" {
			rest = append(rest, p)
		}
	}
	return kept, rest
}

// isKind reports whether a product is of the kind the question names (kinds, per subject
// term; none named: every product is): in its name or category when strict, anywhere else.
func isKind(p productHit, kinds []bool, strict bool) bool {
	named := false
	for i, k := range kinds {
		if !k {
			continue
		}
		named = true
		if p.inName[i] > 0 || !strict && p.inText[i] > 0 {
			return true
		}
	}
	return !named
}

// nameShare is the share of q's weight that the product's name and category match.
func nameShare(q *query, h store.ChunkHit, soft float64) float64 {
	if h.Product == nil || q.total == 0 {
		return 0
	}
	_, strength := q.termFreqs(nameTerms(h, q.lang), soft)
	return q.strengthWeight(strength) / q.total
}

// nameTerms analyzes a product's name and category in its document's language (lang when it
// has none).
func nameTerms(h store.ChunkHit, lang string) []string {
	return textindex.IndexTerms(strings.TrimSpace(h.Product.Name+" "+h.Product.Category), hitLang(h, lang))
}

// keptTerms returns the indexes of q's terms that strip does not account for.
func keptTerms(q *query, strip []textindex.Term) []int {
	var keep []int
	for i, t := range q.terms {
		drop := false
		for _, s := range strip {
			if s.Text == t.Text || matchTerm(s, t.Text) || matchTerm(t, s.Text) {
				drop = true
				break
			}
		}
		if !drop {
			keep = append(keep, i)
		}
	}
	return keep
}

// subset is the query restricted to the terms at idx, with their weights.
func (q *query) subset(idx []int) query {
	s := query{lang: q.lang, kind: q.kind}
	if len(q.idf) != len(q.terms) {
		return s
	}
	for _, i := range idx {
		s.terms = append(s.terms, q.terms[i])
		s.idf = append(s.idf, q.idf[i])
		s.total += q.idf[i]
	}
	s.gateTotal = s.total
	return s
}
