package marketing

import (
	"sort"
	"strings"
	"unicode"

	"svc/internal/textindex"
)

// maxSentences is how many sentences the body of a format holds.
var maxSentences = map[string]int{
	formatSocial:  3,
	formatEmail:   4,
	formatAd:      2,
	formatSMS:     2,
	formatLanding: 6,
	"":            4,
}

// part is a candidate sentence of a body: its place in the framework's order and how much
// the copy needs it when the format has room for only a few.
type part struct {
	text     string
	priority float64
}

// f fills a template for the plan's language and capitalises it.
func (p *plan) f(tpl string, kv ...string) string {
	return capFirst(fill(tpl, kv...), p.lang)
}

// subject is {s}: the featured product, else the business, else the range.
func (p *plan) subject() string {
	switch {
	case p.product != nil:
		return fill(p.t.productSubject, "p", p.product.short)
	case p.business != "":
		return p.business
	}
	return p.t.genericSubject
}

// brandName is {b} in texts for the marketer, which need a name even without one.
func (p *plan) brandName() string {
	if p.business != "" {
		return p.business
	}
	return p.t.genericSubject
}

// lean writes the lean copy for a format.
func (p *plan) lean(format string) *Lean {
	tt := p.tt
	s := p.subject()
	var parts []part
	add := func(text string, prio float64) {
		if text = strings.TrimSpace(text); text != "" {
			parts = append(parts, part{text, prio})
		}
	}
	opener := pick(tt.open, p.seed)
	if p.audience != "" {
		opener = p.f(pick(tt.openAud, p.seed), "s", s, "a", p.audience)
	} else {
		opener = p.f(opener, "s", s)
	}
	openerPrio := 9.0
	if format == formatAd || format == formatSMS {
		openerPrio = 6
	}
	var feature string
	if p.product != nil && len(p.product.feats) > 0 {
		feature = p.product.feats[0].text
	}
	priceLine := p.priceLine()
	facts := pickFacts(p.facts, 3, nil)
	factText := func(i int) string {
		if i < len(facts) {
			return facts[i].text
		}
		return ""
	}
	switch p.framework {
	case fwPAS:
		if p.category != "" {
			add(p.f(pick(tt.problem, p.seed), "c", lowerCategory(p.category, p.lang)), openerPrio)
		} else {
			add(p.f(pick(tt.problemNoC, p.seed)), openerPrio)
		}
		add(pick(tt.agitate, p.seed), 3)
		add(p.f(pick(tt.solve, p.seed), "s", s), 6)
		add(feature, 8)
		add(factText(0), 7)
		add(priceLine, 10)
		add(factText(1), 5)
	case fwFAB:
		add(opener, openerPrio)
		add(feature, 8)
		add(factText(0), 7)
		add(factText(1), 5)
		add(priceLine, 10)
		add(pick(tt.benefit, p.seed), 5.5)
	default:
		add(opener, openerPrio)
		add(feature, 8)
		add(factText(0), 7)
		add(priceLine, 10)
		add(factText(1), 5)
		add(factText(2), 2)
		add(pick(tt.desire, p.seed), 4)
	}
	body := strings.Join(choose(parts, maxSentences[format]), " ")

	headline := p.headlines()[0]
	return &Lean{
		Headline:     headline,
		Body:         body,
		CTA:          p.cta(p.tone),
		Variants:     p.variantLines(headline, p.variants),
		Hashtags:     p.hashtagsFor(format),
		StrategyUsed: p.framework,
	}
}

// choose keeps the n parts with the highest priority, in their order.
func choose(parts []part, n int) []string {
	idx := make([]int, len(parts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return parts[idx[a]].priority > parts[idx[b]].priority })
	if len(idx) > n {
		idx = idx[:n]
	}
	sort.Ints(idx)
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = parts[j].text
	}
	return out
}

// priceLine states the featured product's price, or "" without one.
func (p *plan) priceLine() string {
	if p.product == nil || strings.TrimSpace(p.product.Price) == "" {
		return ""
	}
	return p.f(p.tt.price, "p", p.product.short, "price", strings.TrimSpace(p.product.Price))
}

// cta is the call to action of the plan's stage in a tone.
func (p *plan) cta(tone string) string {
	tt := p.t.toneFor(tone)
	if p.product != nil {
		return p.f(tt.ctaProduct[p.stage], "p", p.product.short)
	}
	return p.f(tt.cta[p.stage])
}

// headlines returns every built-in headline of the plan's tone, the preferred first: product
// lines when a product is featured, then lines naming the business, then lines naming
// nothing. Each group starts at a place chosen by the request, so that different briefs get
// different headlines.
func (p *plan) headlines() []string {
	var out []string
	addAll := func(list []string, kv ...string) {
		if len(list) == 0 {
			return
		}
		start := int(p.seed % uint32(len(list)))
		for i := range list {
			line := p.f(list[(start+i)%len(list)], kv...)
			if !containsString(out, line) {
				out = append(out, line)
			}
		}
	}
	if p.product != nil {
		addAll(p.tt.headProduct, "p", p.product.short)
	}
	if p.business != "" {
		addAll(p.tt.headBrand, "b", p.business)
	}
	addAll(p.tt.headGeneric)
	return out
}

// genericHeadlines are the headlines that name nothing, the last resort of a repair.
func (p *plan) genericHeadlines() []string {
	out := make([]string, len(p.tt.headGeneric))
	for i, h := range p.tt.headGeneric {
		out[i] = p.f(h)
	}
	return out
}

// variantLines returns n headlines other than headline, spread over the groups: the first
// alternative names the business when the headline names the product.
func (p *plan) variantLines(headline string, n int) []string {
	all := p.headlines()
	var groups [3][]string
	for _, h := range all {
		if h == headline {
			continue
		}
		switch {
		case p.product != nil && strings.Contains(h, p.product.short):
			groups[0] = append(groups[0], h)
		case p.business != "" && strings.Contains(h, p.business):
			groups[1] = append(groups[1], h)
		default:
			groups[2] = append(groups[2], h)
		}
	}
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		added := false
		for g := range groups {
			if i < len(groups[g]) && len(out) < n {
				out = append(out, groups[g][i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// hashtagsFor returns the hashtags of a format: none for an e-mail or a text message.
func (p *plan) hashtagsFor(format string) []string {
	if format == formatEmail || format == formatSMS {
		return []string{}
	}
	return p.hashtags()
}

// hashtags are made of the business name, the featured product and its category, and the
// categories the brief names (else the range's first ones): ASCII-folded CamelCase without
// '#', at most five.
func (p *plan) hashtags() []string {
	raw := []string{p.business}
	if p.product != nil {
		raw = append(raw, p.product.short, p.product.Category)
	}
	raw = append(raw, p.briefCats...)
	out := []string{}
	add := func(list []string, max int) {
		for _, r := range list {
			if len(out) >= max {
				return
			}
			if tag := camelTag(r); tag != "" && !containsFold(out, tag) {
				out = append(out, tag)
			}
		}
	}
	add(raw, 5)
	add(p.cats, 3) // a range of three tags at least, when the sources have categories
	return out
}

// camelTag turns a name into a hashtag body: "Sırt Çantası" → "SirtCantasi". Names that fold
// to nothing, to digits only, or to more than 40 letters give none.
func camelTag(s string) string {
	var b strings.Builder
	letters := false
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w = textindex.Fold(w)
		var kept strings.Builder
		for _, r := range w {
			if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				kept.WriteRune(r)
				if unicode.IsLetter(r) {
					letters = true
				}
			}
		}
		k := kept.String()
		if k == "" {
			continue
		}
		b.WriteString(strings.ToUpper(k[:1]) + k[1:])
	}
	if !letters || b.Len() > 40 {
		return ""
	}
	return b.String()
}
