package engine

import (
	"slices"
	"strings"

	"svc/internal/store"
	"svc/internal/variant"
)

// Arbitration between pages and products. A shop's product documents share words with
// almost any question ("the best way to back up my wallet" and a bottle that keeps drinks
// cold "the whole way up"; "the return policy for a sleeping bag" and the sleeping bag), and
// a product whose name the question uses ranks high for it. Whether the product or a page
// answers is decided from the question and both matches together: the product's name
// accounts for part of the question's subject (its terms less the product wording), and the
// rest of the subject ("return policy", "wash", "Rücksendung") is what is asked about it. A
// page that holds more of that rest than the product's own text answers better: the reply
// quotes the page and carries no card. A question whose subject the product's name holds
// entirely ("how much is the Nova 12 Lite?") is about the product; so is a listing,
// comparison or recommendation that names a kind of product the shop sells ("which tent do
// you recommend for camping?"), where the rest is the visitor's circumstance.

// asked is how a question asks for products, as far as arbitration cares.
type asked uint8

const (
	askedOther  asked = iota // a price or stock question, or no product wording
	askedWeak                // only "best" or a superlative ("the best way to …")
	askedStrong              // a listing, comparison or recommendation in strong words
)

func askedFor(intent Intent, weak bool) asked {
	switch {
	case weak:
		return askedWeak
	case intent.Lists():
		return askedStrong
	}
	return askedOther
}

// asking is how a question asks for products and what its subject's terms are to each
// other, as far as arbitration cares.
type asking struct {
	how asked
	// head is, per subject term, whether a weak cue or a superlative asks the best of it
	// ("way" of "the best way to back up my wallet"; weakHeads).
	head []bool
	// before is, per pair of subject terms, whether the first stands right before the second
	// in the question (precedingTerms): a modifier and the word it qualifies.
	before [][]bool
}

// readAsking reads how the question asks for products, for its subject.
func readAsking(question, lang string, subject *query, intent Intent, weak bool) asking {
	a := asking{how: askedFor(intent, weak), head: make([]bool, len(subject.terms))}
	if a.how == askedWeak {
		for _, h := range weakHeads(question, lang) {
			for i, t := range subject.terms {
				a.head[i] = a.head[i] || matchTerm(t, h.Text) || matchTerm(h, t.Text)
			}
		}
	}
	a.before = precedingTerms(question, subject)
	return a
}

// pagesAnswer decides whether the pages answer the question better than the products and
// returns the index of the page that does; -1 when the products answer, and len(pages) when
// no page does but the products do not either (see below). name and text are, per subject
// term, the strength of its match in the products' names (and categories) and in their text
// (name included); pages are the candidates that are no product, best first.
//
// The rest of the subject is what the products' names do not hold. Without a rest the
// question is about the products. A listing, comparison or recommendation in strong words
// that names a kind of product the products are ("which tent do you recommend for
// camping?") is about them too: its rest is the visitor's circumstance. Not so when the rest
// qualifies the kind named and the products' text never says it ("hafif cüzdan ile normal
// cüzdan arasında ne fark var?", asked of a shop of hardware wallets): the question is about
// another kind of the thing, which the pages may describe, and the weighing below decides.
//
// A question that asks for "the best" of something without strong product wording is about
// products when what "best" asks the best of is a kind of product (their names hold it: "the
// best bottle for hiking"), and is weighed then as a recommendation in strong words.
// Otherwise what it asks the best of ("way", "yol", "Weg") leaves the rest, unless nothing
// else is asked: a bottle's copy that says "the best way to carry water" shares it with every
// how-to question. The products then answer only when their text holds some of the rest and,
// unless their names hold part of the subject, at least half its weight; when they do not,
// the reply is the best page that holds any of the rest, or, when none does, neither a page
// nor a product.
//
// Otherwise a page wins on the weight of the rest it holds or, unless products were asked for
// in strong words, on holding more of its terms with at least half that weight: one rare word
// of a product's text ("way", "Weg") does not outweigh the page that holds the rest of the
// question.
func pagesAnswer(subject *query, name, text []float64, pages []candidate, soft float64, ask asking) int {
	if subject.total == 0 {
		return -1
	}
	how := ask.how
	for i, h := range ask.head {
		if how == askedWeak && h && name[i] > 0 {
			how = askedStrong // the best of a kind of product: "die beste Trinkflasche zum Wandern"
		}
	}
	rest := make([]float64, len(subject.terms))
	restTotal, headW, named := 0.0, 0.0, false
	for i := range subject.terms {
		rest[i] = subject.idf[i] * (1 - name[i])
		if how == askedWeak && ask.head[i] {
			headW += rest[i]
			rest[i] = 0
		}
		restTotal += rest[i]
		named = named || name[i] > 0
	}
	if restTotal <= 0 && headW > 0 { // "the best way?": the head is all that is asked
		for i := range subject.terms {
			rest[i] = subject.idf[i] * (1 - name[i])
		}
		restTotal = headW
	}
	if restTotal <= 0 || how == askedStrong && named && !otherKind(rest, name, text, ask.before) {
		return -1
	}
	held := func(strength []float64) (w float64, n int) {
		for i, s := range strength {
			w += rest[i] * s
			if s > 0 && rest[i] > 0 {
				n++
			}
		}
		return w, n
	}
	prodW, prodN := held(text)
	first := len(pages) // the first page that holds any of the rest
	for i, c := range pages {
		_, s := subject.termFreqs(strings.Fields(c.hit.Terms), soft)
		w, n := held(s)
		if w > prodW || how != askedStrong && n > prodN && 2*w >= prodW {
			return i
		}
		if w > 0 && first == len(pages) {
			first = i
		}
	}
	if how == askedWeak && (prodW == 0 || !named && 2*prodW < restTotal) {
		return first // the best of something the products do not hold: a page, or nothing
	}
	return -1
}

// otherKind reports whether a term of the rest qualifies a term the products' names hold
// (stands right before it: modifiers come first in tr, en and de) and the products' text
// does not hold it: "hafif" of "hafif cüzdan" asked of "donanım cüzdanı", "light" of "a light
// wallet" asked of hardware wallets.
func otherKind(rest, name, text []float64, before [][]bool) bool {
	for i, r := range rest {
		if r <= 0 || text[i] > 0 || i >= len(before) {
			continue
		}
		for j, held := range name {
			if held > 0 && before[i][j] {
				return true
			}
		}
	}
	return false
}

// restHeld is the share of the subject's rest (what name does not hold) that a candidate
// holds.
func restHeld(subject *query, name []float64, c candidate, soft float64) float64 {
	_, s := subject.termFreqs(strings.Fields(c.hit.Terms), soft)
	w, total := 0.0, 0.0
	for i := range subject.terms {
		r := subject.idf[i] * (1 - name[i])
		total += r
		w += r * s[i]
	}
	if total == 0 {
		return 0
	}
	return w / total
}

// pageCandidates are the best chunk of each ranked document that is no product, in the
// language lang (or none).
func pageCandidates(ranked []candidate, lang string) []candidate {
	var out []candidate
	seen := map[int64]bool{}
	for _, c := range ranked {
		if c.hit.Product != nil || seen[c.hit.DocID] || c.hit.Lang != "" && c.hit.Lang != lang {
			continue
		}
		seen[c.hit.DocID] = true
		out = append(out, c)
	}
	return out
}

// prefer orders the ranked candidates so that the passage quoted is the one that answers the
// question as it was asked, with or without Sales Mode:
//
//  1. a product whose name the question's variant tokens exclude ("Nova 12 Pro" when the
//     Lite is asked for) leaves the candidates: its text and price answer another product,
//     and a question about a variant the shop lacks ("Nova 12 Max") falls back rather than
//     quote a sibling's price; so does a Q&A entry whose question is about another variant
//     (variant.Differ: "Nova 12 Pro'nun pil ömrü" for the Lite's battery);
//  2. passages in the reply's language come first when one of them answers confidently, so
//     a lead-in never stands before a quote in another language (a message such as "42"
//     carries no language of its own, and a product's English price line matched it);
//  3. a passage that names another place and none the question names goes after those
//     that name one (preferPlaces): Germany's shipping price is no answer for Austria;
//  4. when the best passage is a product and a page answers what is asked about it better
//     (pagesAnswer), that page comes first, then the other pages; when "the best" of
//     something is asked and neither the product nor a page holds any of it, the products
//     leave the candidates (a fallback rather than a product's name lines).
//
// Each step is a stable partition; extraction then reads the first document. A product vouches
// (r.product, see vouch) for a page put first by step 4 that holds at least half of what the product's name leaves of
// the question, after a confident product: the product's name and the page together cover
// the question ("Rücksendung eines Schlafsacks": the bag names what is sent back, the page
// says what sending back costs), so the page is quoted though it holds too little of the
// question to pass the confidence check alone.
func (e *Engine) prefer(r *retrieval, question, lg string) {
	if len(r.ranked) == 0 || e.off(FamilyArbitration) {
		return
	}
	unfit := unfitProducts(question, r.ranked, r.products)
	r.ranked = slices.DeleteFunc(r.ranked, func(c candidate) bool {
		return unfit[c.hit.DocID] || c.hit.DocType == store.DocQA && variant.Differ(question, c.hit.Title)
	})
	if len(r.ranked) == 0 {
		return
	}
	if top := r.ranked[0].hit.Lang; top != "" && top != lg {
		for _, c := range r.ranked {
			if (c.hit.Lang == lg || c.hit.Lang == "") && e.confident(&r.q, []candidate{c}) {
				r.ranked = partition(r.ranked, func(c candidate) bool { return c.hit.Lang == lg || c.hit.Lang == "" })
				break
			}
		}
	}
	if !e.off(FamilyPlaces) {
		r.ranked = preferPlaces(r.ranked, lg, question, r.docFreq)
	}
	top := r.ranked[0]
	if top.hit.Product == nil {
		e.vouchBehind(r, question, lg)
		return
	}
	a := e.weighProduct(r, question, lg, top)
	switch {
	case a.win < 0:
		return
	case a.win >= len(a.pages):
		// "The best way to wash" a product whose text says nothing of washing, and no page
		// that does: the product is no answer, and neither is a page that lost.
		r.ranked = slices.DeleteFunc(r.ranked, func(c candidate) bool { return c.hit.Product != nil })
		return
	}
	page := a.pages[a.win].hit.DocID
	r.ranked = partition(r.ranked, func(c candidate) bool { return c.hit.Product == nil })
	r.ranked = partition(r.ranked, func(c candidate) bool { return c.hit.DocID == page })
	e.vouch(r, top, a)
}

// productArbitration is pagesAnswer's verdict on one product: the index of the page that
// answers (see pagesAnswer) among pages, with the question's subject and what of it the
// product's name holds.
type productArbitration struct {
	win     int
	pages   []candidate
	subject query
	name    []float64
}

// weighProduct arbitrates between the product prod and the pages ranked in its language.
func (e *Engine) weighProduct(r *retrieval, question, lg string, prod candidate) productArbitration {
	intent, strip, weak := r.readIntent(lg)
	a := productArbitration{subject: r.q.subset(keptTerms(&r.q, strip))}
	a.name = productNameMatch(&a.subject, question, prod.hit, e.rank.Soft)
	_, text := a.subject.termFreqs(strings.Fields(prod.hit.Terms), e.rank.Soft)
	a.pages = pageCandidates(r.ranked, hitLang(prod.hit, lg))
	ask := readAsking(question, lg, &a.subject, intent, weak)
	a.win = pagesAnswer(&a.subject, a.name, maxEach(a.name, text), a.pages, e.rank.Soft, ask)
	return a
}

// vouch records the product prod (r.product) as vouching for the winning page of a when the
// product answers confidently and the page holds at least half of what the product's name
// leaves of the question.
func (e *Engine) vouch(r *retrieval, prod candidate, a productArbitration) {
	if e.confident(&r.q, []candidate{prod}) && restHeld(&a.subject, a.name, a.pages[a.win], e.rank.Soft) >= 0.5 {
		r.product = &prod
	}
}

// vouchBehind is vouching when the page ranks first and a product follows among the
// passages answered from: "Wie lange ist die Garantie auf eine Regenjacke?" ranks the
// warranty page ("2 Jahre auf alle Produkte") above the rain jacket, the page answers what
// is asked about it (pagesAnswer picks that page), and the jacket's name holds the rest of
// the question. The page ranks first because it holds more of the question than the product,
// so the product need not hold MinCoverage alone: the page and the product's name together
// must. Nothing is reordered.
func (e *Engine) vouchBehind(r *retrieval, question, lg string) {
	top := r.ranked[0]
	for _, c := range bestPerDoc(r.ranked, e.opts.AnswerPassages)[1:] {
		if c.hit.Product == nil || hitLang(c.hit, lg) != hitLang(top.hit, lg) {
			continue
		}
		a := e.weighProduct(r, question, lg, c)
		if a.win != 0 || a.pages[0].hit.DocID != top.hit.DocID ||
			restHeld(&a.subject, a.name, a.pages[0], e.rank.Soft) < 0.5 || !e.coverTogether(r, top, c) {
			return
		}
		r.product = &c
		return
	}
}

// coverTogether reports whether the page and the product's name and category together hold
// MinCoverage of the question (in the confidence check's weights, see confident), each
// holding a term the other lacks.
func (e *Engine) coverTogether(r *retrieval, page, prod candidate) bool {
	q := &r.q
	if q.gateTotal <= 0 || e.opts.MinCoverage < 0 {
		return false
	}
	_, inPage := q.termFreqs(strings.Fields(page.hit.Terms), e.rank.Soft)
	inName := productNameMatch(q, r.question, prod.hit, e.rank.Soft)
	pageOnly, nameOnly := false, false
	for i := range inPage {
		pageOnly = pageOnly || inPage[i] > 0 && inName[i] == 0
		nameOnly = nameOnly || inName[i] > 0 && inPage[i] == 0
	}
	return pageOnly && nameOnly && q.strengthWeight(maxEach(inPage, inName))/q.gateTotal >= e.opts.MinCoverage
}

// partition returns cands with those keep accepts first, each group in its order.
func partition(cands []candidate, keep func(candidate) bool) []candidate {
	out := make([]candidate, 0, len(cands))
	var rest []candidate
	for _, c := range cands {
		if keep(c) {
			out = append(out, c)
		} else {
			rest = append(rest, c)
		}
	}
	return append(out, rest...)
}

// unfitProducts returns the product documents among the candidates and the pool that the
// question's variant tokens exclude (variant.Fit over all their names, so that siblings are
// weighed against each other).
func unfitProducts(question string, ranked []candidate, pool []store.ChunkHit) map[int64]bool {
	var hits []store.ChunkHit
	for _, c := range ranked {
		hits = append(hits, c.hit)
	}
	hits = append(hits, pool...)
	var ids []int64
	var names []string
	for _, h := range hits {
		if h.Product == nil || slices.Contains(ids, h.DocID) {
			continue
		}
		ids = append(ids, h.DocID)
		names = append(names, h.Product.Name)
	}
	out := map[int64]bool{}
	for i, ok := range variant.Fit(question, names) {
		if !ok {
			out[ids[i]] = true
		}
	}
	return out
}

// pagesBeatShelf is the arbitration for the products a question's subject brought up (see
// pagesAnswer): their names and texts together against the pages ranked for the whole
// question in lg.
func (e *Engine) pagesBeatShelf(subject *query, kept []productHit, r *retrieval, lg string, ask asking) bool {
	name := make([]float64, len(subject.terms))
	text := make([]float64, len(subject.terms))
	for _, p := range kept {
		for i := range name {
			name[i] = max(name[i], p.inName[i])
			text[i] = max(text[i], p.inName[i], p.inText[i])
		}
	}
	return pagesAnswer(subject, name, text, pageCandidates(r.ranked, lg), e.rank.Soft, ask) >= 0
}

// fitVariants moves the products the question's variant tokens exclude out of kept and
// spare (variant.Fit, over the names of both).
func fitVariants(question string, kept, spare []productHit) (k, s, unfit []productHit) {
	all := append(slices.Clip(kept), spare...)
	if len(all) == 0 {
		return kept, spare, nil
	}
	names := make([]string, len(all))
	for i, p := range all {
		names[i] = p.hit.Product.Name
	}
	fit := variant.Fit(question, names)
	for i, p := range all {
		switch {
		case !fit[i]:
			unfit = append(unfit, p)
		case i < len(kept):
			k = append(k, p)
		default:
			s = append(s, p)
		}
	}
	return k, s, unfit
}
