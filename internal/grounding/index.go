package grounding

import (
	"strings"
	"unicode"

	"svc/internal/textindex"
)

// index holds what the sources state, read by the same scanners as generated text, so that
// checking a claim is a lookup.
type index struct {
	lang     string
	numbers  map[string]bool            // every number the sources write, however used
	plain    map[string]bool            // numbers without unit or percent: may be a price
	prices   map[string]map[string]bool // amount → currencies it is written in ("" = none)
	percents map[string]bool
	amounts  map[string]map[string]bool // base unit → amounts in it
	families map[string]bool
	keys     map[string]bool // dates, times and e-mail addresses, by kind
	links    []string
	models   map[string]bool // model tokens ("x200", "rx450")
	vocab    map[string]bool // folded words and analyzed terms
	runs     [][]string      // the folded words of each source text, for names
	heads    map[string]bool // analyzed terms of product categories and name endings ("tent")
	brands   map[string]bool // folded first words of product names ("kackar", "summit")
	business []string        // folded words of the business's name
	products []productPrice  // each source product's name and price, for misattributed
	// productNames are products' names in the same order, read once for every sentence.
	productNames []string
}

// newIndex reads the sources of a generation in lang: passages in their own language,
// products and their descriptions in the generation's.
func newIndex(src Sources, lang string) *index {
	ix := &index{lang: lang, numbers: map[string]bool{}, plain: map[string]bool{},
		prices: map[string]map[string]bool{}, percents: map[string]bool{}, amounts: map[string]map[string]bool{},
		families: map[string]bool{}, keys: map[string]bool{}, models: map[string]bool{}, vocab: map[string]bool{},
		heads: map[string]bool{}, brands: map[string]bool{}}
	for _, p := range src.Passages {
		l := normLang(p.Lang)
		if strings.TrimSpace(p.Lang) == "" {
			l = lang
		}
		ix.addText(p.Title, l)
		ix.addText(p.Text, l)
		ix.addLink(p.URL)
	}
	for _, p := range src.Products {
		ix.addText(p.Name, lang)
		ix.addText(p.Category, lang)
		ix.addPrice(p.Price)
		ix.addProductPrice(p)
		ix.addLink(p.URL)
		ix.addHeads(p.Name, p.Category)
	}
	for _, p := range src.Products {
		ix.addBrand(p.Name)
	}
	for name, text := range src.ProductText {
		ix.addText(name, lang)
		ix.addText(text, lang)
	}
	for _, w := range scanWords(src.Business) {
		ix.business = append(ix.business, w.fold)
	}
	if len(ix.business) > 0 {
		ix.runs = append(ix.runs, ix.business)
	}
	return ix
}

// addText records every fact of one source text, and its words for names.
func (ix *index) addText(text, lang string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	facts, _, _ := scan(text, lang)
	for _, f := range facts {
		ix.add(f)
	}
	// Every number as written counts for a bare number, whatever the scanners made of it:
	// "since 1998" in the output is fine when the sources say 1998 anywhere.
	for _, n := range numberRe.FindAllString(text, -1) {
		for _, v := range numberValues(n) {
			ix.numbers[key(v)] = true
		}
	}
	for _, n := range digitRuns.FindAllString(text, -1) {
		for _, v := range numberValues(n) {
			ix.numbers[key(v)] = true
		}
	}
	ws := scanWords(text)
	ix.runs = append(ix.runs, folds(ws))
	for i, w := range ws {
		ix.vocab[w.fold] = true
		if w.digits && strings.IndexFunc(w.fold, unicode.IsLetter) >= 0 {
			ix.models[w.fold] = true
		}
		if i > 0 && w.digits && !ws[i-1].digits && w.joined {
			ix.models[ws[i-1].fold+w.fold] = true // "RX-450", "Trail 45"
		}
	}
	for _, t := range textindex.IndexTerms(text, ix.lang) {
		ix.vocab[t] = true
	}
	if lang != ix.lang {
		for _, t := range textindex.IndexTerms(text, lang) {
			ix.vocab[t] = true
		}
	}
}

// addPrice records a product's price: in its currency when it names one, and as an amount in
// any currency when it is a bare number ("24.90").
func (ix *index) addPrice(price string) {
	for _, f := range scanAmounts(price, ix.lang) {
		if f.kind == kindNumber || f.kind == KindPrice {
			f.kind = KindPrice
			ix.add(f)
		}
	}
	for _, n := range numberRe.FindAllString(price, -1) {
		for _, v := range numberValues(n) {
			ix.numbers[key(v)] = true
		}
	}
}

// addPriceValue records one amount a source writes as a price, in cur ("" = none named).
func (ix *index) addPriceValue(v float64, cur string) {
	k := key(v)
	if ix.prices[k] == nil {
		ix.prices[k] = map[string]bool{}
	}
	ix.prices[k][cur] = true
}

// addHeads records the words a product's kind is named by: the category's and the last word
// of the name ("Zelt", "Boot"), so that an unknown name before one reads as a product.
func (ix *index) addHeads(name, category string) {
	var words []string
	for _, w := range scanWords(category) {
		words = append(words, w.raw)
	}
	ws := scanWords(name)
	if n := len(ws); n >= 2 && !ws[n-1].digits && !lineWords[ws[n-1].fold] {
		words = append(words, ws[n-1].raw)
	}
	for _, w := range words {
		if len([]rune(w)) < 3 || isStop(textindex.Fold(w)) {
			continue
		}
		for _, t := range textindex.IndexTerms(w, ix.lang) {
			ix.heads[t] = true
		}
	}
}

// addBrand records the first word of a product's name when it is a name of its own (not a
// number, a stop word, a line word or a kind of product): "Kaçkar" of "Kaçkar Pro Trekking Botu".
func (ix *index) addBrand(name string) {
	ws := scanWords(name)
	if len(ws) < 2 {
		return
	}
	w := ws[0]
	if w.digits || len([]rune(w.raw)) < 4 || isStop(w.fold) || lineWords[w.fold] || ix.isHead(w) {
		return
	}
	ix.brands[w.fold] = true
}

// addLink records the link of a passage or product.
func (ix *index) addLink(u string) {
	if u = strings.TrimSpace(u); u != "" {
		ix.links = append(ix.links, normURL(u))
	}
}

// add records one fact of the sources.
func (ix *index) add(f fact) {
	switch f.kind {
	case KindPrice:
		for _, v := range f.values {
			ix.addPriceValue(v, f.cur)
			ix.numbers[key(v)] = true
		}
	case KindPercent:
		for _, v := range f.values {
			ix.percents[key(v)] = true
			ix.numbers[key(v)] = true
		}
	case KindQuantity:
		if ix.amounts[f.unit] == nil {
			ix.amounts[f.unit] = map[string]bool{}
		}
		for _, v := range f.values {
			ix.amounts[f.unit][key(v)] = true
		}
	case kindNumber:
		for _, v := range f.values {
			ix.plain[key(v)] = true
			ix.numbers[key(v)] = true
		}
	case kindFamily:
		for _, id := range impliedFamilies(f.family) {
			ix.families[id] = true
		}
		if f.family == "support247" {
			// "7/24" states the hours and the days too.
			ix.add(fact{kind: KindQuantity, unit: "s", values: []float64{24 * 3600, 7 * 86400}})
		}
	case KindURL:
		ix.links = append(ix.links, f.key)
	default:
		ix.keys[f.kind+":"+f.key] = true
	}
}

// supports reports whether the sources state a fact of generated text.
func (ix *index) supports(f fact) bool {
	switch f.kind {
	case KindPrice:
		for _, v := range f.values {
			k := key(v)
			if cs := ix.prices[k]; cs != nil && (cs[""] || f.cur == "" || cs[f.cur]) || ix.plain[k] {
				return true
			}
		}
		return false
	case KindPercent:
		return anyKey(f.values, ix.percents)
	case KindQuantity:
		return anyKey(f.values, ix.amounts[f.unit])
	case kindNumber:
		return anyKey(f.values, ix.numbers)
	case kindFamily:
		return ix.families[f.family]
	case KindURL:
		return linkSupported(f.key, ix.links)
	}
	return ix.keys[f.kind+":"+f.key]
}

// anyKey reports whether any reading of an amount is in set.
func anyKey(vs []float64, set map[string]bool) bool {
	for _, v := range vs {
		if set[key(v)] {
			return true
		}
	}
	return false
}

// knows reports whether the sources use a word, as written or as the analyzer stems it.
func (ix *index) knows(w word) bool {
	if ix.vocab[w.fold] {
		return true
	}
	for _, t := range textindex.IndexTerms(w.raw, ix.lang) {
		if ix.vocab[t] {
			return true
		}
	}
	return false
}

// isHead reports whether a word names a kind of product the business sells.
func (ix *index) isHead(w word) bool {
	for _, t := range textindex.IndexTerms(w.raw, ix.lang) {
		if ix.heads[t] {
			return true
		}
	}
	return false
}

// hasRun reports whether the folded words appear in this order, adjacent, in one source text.
func (ix *index) hasRun(seq []string) bool {
	for _, r := range ix.runs {
		for i := 0; i+len(seq) <= len(r); i++ {
			match := true
			for k, s := range seq {
				if r[i+k] != s {
					match = false
					break
				}
			}
			if match {
				return true
			}
		}
	}
	return false
}

// normLang maps a language tag to tr, de or en, as the analyzer does.
func normLang(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	switch lang {
	case "tr", "de":
		return lang
	}
	return "en"
}
