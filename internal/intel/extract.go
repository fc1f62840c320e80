package intel

import (
	"regexp"
	"strings"

	"svc/internal/engine"
	"svc/internal/grounding"
	"svc/internal/lang"
	"svc/internal/store"
	"svc/internal/textindex"
)

// fieldGroup is one word of a field ("delivery" of "delivery time") with what counts as
// saying it in a sentence: its own analyzed term and, when it is a known concept, the
// concept's words in the sentence's language; kind is what a value of the concept looks
// like, which also counts as saying a measure ("1–3 business days" says "time").
type fieldGroup struct {
	word    string
	concept *concept
}

// fieldSpec is a requested field read for extraction.
type fieldSpec struct {
	name    string
	groups  []fieldGroup
	kind    valueKind // what its value looks like; kindNone: the sentence (or a "Label: value" line's value)
	product string    // a product-data field (price, category, name, url, image), answered from the product
}

func readField(name string) fieldSpec {
	f := fieldSpec{name: name}
	for _, w := range textindex.Words(name, "en") {
		if textindex.IsStopWord(w, "en") && textindex.IsStopWord(w, "tr") && textindex.IsStopWord(w, "de") {
			continue
		}
		parts := []string{w}
		if head, tail, ok := splitMeasure(w); ok {
			parts = []string{head, tail}
		}
		for _, part := range parts {
			g := fieldGroup{word: part}
			if c, ok := conceptOf(part); ok {
				g.concept = &c
			}
			f.groups = append(f.groups, g)
		}
	}
	// The value looks like the field's measure when it has one ("delivery time" is a
	// duration, "shipping cost" an amount), otherwise like its subject ("warranty" is a
	// duration, "weight" a weight).
	for _, pass := range []bool{true, false} {
		for _, g := range f.groups {
			if g.concept != nil && g.concept.measure == pass && g.concept.kind != kindNone && f.kind == kindNone {
				f.kind = g.concept.kind
			}
		}
	}
	// A product-data field is one whose words all name product data ("price", "product
	// name", "category"), price winning over name ("product price").
	all := len(f.groups) > 0
	for _, g := range f.groups {
		if g.concept == nil || g.concept.product == "" {
			all = false
		}
	}
	if all {
		for _, g := range f.groups {
			if f.product == "" || f.product == "name" {
				f.product = g.concept.product
			}
		}
	}
	return f
}

// splitMeasure splits a compound that ends in a measure word ("Lieferzeit", "Versandkosten",
// "Garantiezeit") into its subject and its measure, which the analyzer keeps whole.
func splitMeasure(word string) (string, string, bool) {
	for _, c := range concepts {
		if !c.measure {
			continue
		}
		for _, lg := range []string{lang.DE, lang.EN} {
			for _, m := range strings.Fields(c.words(lg)) {
				m = textindex.Fold(m)
				if len(m) >= 4 && len(word)-len(m) >= 3 && strings.HasSuffix(word, m) {
					return word[:len(word)-len(m)], m, true
				}
			}
		}
	}
	return "", "", false
}

// physical kinds are values a product's own text states (a weight, a capacity): found on the
// page of the product the topic names, such a value says the field even without its word.
func physical(k valueKind) bool {
	switch k {
	case kindWeight, kindCapacity, kindWater, kindTemp, kindLength, kindSizes:
		return true
	}
	return false
}

// distinctive kinds are values that say what they are wherever they stand: an address, a
// phone number, an e-mail address, opening hours, a link.
func distinctive(k valueKind) bool {
	switch k {
	case kindAddress, kindPhone, kindEmail, kindHours, kindURL:
		return true
	}
	return false
}

// wholeSentence kinds are answered by the sentence that holds the value, which a single
// value would cut short ("Monday to Saturday 10:00–20:00, Sunday 12:00–19:00").
func wholeSentence(k valueKind) bool { return k == kindHours }

// groupScore is how well a sentence (terms) under a title (ctx) says one word of a field:
// 1 in the sentence; 0.7 when the sentence holds a value of the word's kind and the word is
// a measure ("1–3 business days" says "time") or a physical quantity on the topic product's
// own page (onProduct); 0.5 in the title only.
func groupScore(g fieldGroup, terms, ctx map[string]bool, text, lg string, onProduct bool) float64 {
	own := textindex.QueryTerms(g.word, lg)
	has := func(set map[string]bool) bool {
		if set == nil {
			return false
		}
		for _, t := range own {
			if hasTerm(set, t) {
				return true
			}
		}
		if g.concept != nil {
			for ct := range conceptTerms(g.concept.key, lg) {
				if hasTerm(set, textindex.Term{Text: ct}) {
					return true
				}
			}
		}
		return false
	}
	byKind := g.concept != nil && g.concept.kind != kindNone &&
		(g.concept.measure || distinctive(g.concept.kind) || onProduct && physical(g.concept.kind))
	switch {
	case has(terms):
		return 1
	case byKind && len(findValues(g.concept.kind, text)) > 0:
		return 0.7
	case has(ctx):
		return 0.5
	}
	return 0
}

// composeExtract fills every requested field, in order: a product-data field from the
// product the topic names, any other from the sentence of the sources that best says the
// field (and the topic); the value is the part of it that looks like the field's kind of
// value, or the sentence. A field no sentence says stays "".
func composeExtract(a *Answer, req Request, src grounding.Sources, c *corpus) {
	topic := c.query(req.Topic)
	prod, hasProd := topicProduct(req, src, c, topic)
	for _, name := range req.Fields {
		f := readField(name)
		field := Field{Name: name}
		if f.product != "" && hasProd {
			if v := productField(prod, f.product); v != "" {
				field.Value = v
				field.Source = Source{Title: prod.Name, URL: prod.URL, Type: store.DocProduct, Passage: productPassage(c, prod.Name)}
				if req.full() {
					field.Source.Quote = productQuote(prod, f.product, req.Lang)
				}
				a.Fields = append(a.Fields, field)
				continue
			}
		}
		if pi, si, ok := bestFieldSentence(f, c, topic, prod, hasProd); ok {
			s := c.passages[pi].sents[si]
			field.Value = fieldValue(f, s.text, c.passages[pi].lg, topic)
			field.Source = c.source(pi, "")
			if req.full() {
				field.Source.Quote = c.quote(pi, si)
			}
		}
		a.Fields = append(a.Fields, field)
	}
}

// minFieldScore is the least share of a field's words a sentence must say.
const minFieldScore = 0.5

func bestFieldSentence(f fieldSpec, c *corpus, topic *query, prod store.Product, hasProd bool) (int, int, bool) {
	if len(f.groups) == 0 {
		return 0, 0, false
	}
	bestScore, bp, bs := 0.0, -1, -1
	for pi := range c.passages {
		p := &c.passages[pi]
		pl := p.lg
		// Another product's page never answers for the product the topic names.
		if hasProd && p.p.Type == store.DocProduct && !sameText(p.p.Title, prod.Name) {
			continue
		}
		onProduct := hasProd && p.p.Type == store.DocProduct
		// A page whose title is about another subject ("Returns and refunds" for a
		// delivery time) mentions the field in passing.
		offTopic := titleConcepts(p, pl)
		for _, g := range f.groups {
			if g.concept != nil && offTopic[g.concept.key] {
				offTopic = nil
				break
			}
		}
		for si, s := range p.sents {
			if s.fact == "category" {
				continue
			}
			// A field whose value has a kind ("warranty" a duration, "weight" a weight)
			// is answered only by a sentence that holds such a value: "Repairs outside the
			// warranty cost…" is not the warranty.
			hasValue := f.kind != kindNone && len(findValues(f.kind, s.text)) > 0
			if f.kind != kindNone && !hasValue {
				continue
			}
			fs, inSentence, inTitle, subject := 0.0, false, 0.0, true
			for _, g := range f.groups {
				gs := groupScore(g, s.terms, p.title, s.text, pl, onProduct)
				if gs >= 0.7 {
					inSentence = true
				}
				if gs < 0.5 && (g.concept == nil || !g.concept.measure) {
					subject = false // "Akkulaufzeit" is not any "Zeit"
				}
				fs += gs
				if groupScore(g, p.title, nil, "", pl, false) == 1 {
					inTitle++
				}
			}
			n := float64(len(f.groups))
			fs /= n
			if fs < minFieldScore || !inSentence || !subject {
				continue
			}
			// A page about the field ("Versand und Lieferzeiten") and a sentence about the
			// topic are the better evidence.
			sc := fs + 0.2*inTitle/n
			if !topic.empty() {
				sc += 0.3 * topic.cover(s.terms, p.title)
			}
			if len(offTopic) > 0 {
				sc -= 0.3
			}
			if p.p.Lang == c.lang {
				sc += 0.05
			}
			if !s.quotable && s.fact == "" {
				sc -= 0.1
			}
			if sc > bestScore {
				bestScore, bp, bs = sc, pi, si
			}
		}
	}
	return bp, bs, bp >= 0
}

// titleConcepts are the subjects (concepts other than measures) a passage's title names.
func titleConcepts(p *passage, lg string) map[string]bool {
	out := map[string]bool{}
	for _, c := range concepts {
		if c.measure || c.product != "" {
			continue
		}
		for t := range conceptTerms(c.key, lg) {
			if hasTerm(p.title, textindex.Term{Text: t}) {
				out[c.key] = true
				break
			}
		}
	}
	return out
}

// fieldValue is the part of a sentence that is the field's value: the value of the field's
// kind nearest to a word of the topic ("5–7 business days to Germany" for shipping to
// Germany), the value of a "Label: value" line, or the sentence itself.
func fieldValue(f fieldSpec, sentence, lang string, topic *query) string {
	if f.kind != kindNone && !wholeSentence(f.kind) {
		if v := nearestValue(f.kind, sentence, lang, topic); v != "" {
			return v
		}
	}
	// "Phone: +90 216 555 01 48" answers "phone" with what follows the label, when the
	// label is the field.
	if i := strings.Index(sentence, ": "); i > 0 && i < 40 && !strings.Contains(sentence[:i], ".") {
		label := termSet(sentence[:i], lang)
		said := false
		for _, g := range f.groups {
			said = said || groupScore(g, label, nil, "", lang, false) == 1
		}
		if v := strings.TrimSpace(sentence[i+2:]); v != "" && said {
			return engine.Clip(v, 200)
		}
	}
	return engine.Clip(sentence, 200)
}

// topicProduct is the product the topic names: the one whose name holds most of the
// topic's terms, when no other holds as many; with a single product in the sources, that
// one.
func topicProduct(req Request, src grounding.Sources, c *corpus, topic *query) (store.Product, bool) {
	if len(src.Products) == 1 {
		return src.Products[0], true
	}
	best, bestScore, tie := -1, 0.0, false
	for i, p := range src.Products {
		sc := topic.cover(termSet(p.Name, c.lang), nil)
		switch {
		case sc > bestScore:
			best, bestScore, tie = i, sc, false
		case sc == bestScore && sc > 0:
			tie = true
		}
	}
	if best < 0 || tie || bestScore < 0.3 {
		return store.Product{}, false
	}
	return src.Products[best], true
}

func productField(p store.Product, key string) string {
	switch key {
	case "price":
		return p.Price
	case "category":
		return p.Category
	case "name":
		return p.Name
	case "url":
		return p.URL
	case "image":
		return p.Image
	}
	return ""
}

// productQuote is the evidence of a product-data value: the line the product page states it
// in ("Price: $129.00"), or the value itself.
func productQuote(p store.Product, key, lg string) string {
	l := labelsFor(lg)
	switch key {
	case "price":
		return p.Name + " — " + l.price + ": " + p.Price
	case "category":
		return p.Name + " — " + l.category + ": " + p.Category
	}
	return productField(p, key)
}

var wordRe = regexp.MustCompile(`[\p{L}\p{N}]+`)

// nearestValue is the value of kind in sentence nearest to a word of the topic, or the first
// one when no topic word is in the sentence.
func nearestValue(kind valueKind, sentence, lg string, topic *query) string {
	vals := kindSpans(kind, sentence)
	if len(vals) == 0 {
		return ""
	}
	if topic.empty() || len(vals) == 1 {
		return vals[0].text
	}
	var at [][2]int
	for _, m := range wordRe.FindAllStringIndex(sentence, -1) {
		terms := termSet(sentence[m[0]:m[1]], lg)
		for _, t := range topic.terms {
			if hasTerm(terms, t) {
				at = append(at, [2]int{m[0], m[1]})
				break
			}
		}
	}
	if len(at) == 0 {
		return vals[0].text
	}
	best, bestDist := 0, len(sentence)+1
	for i, v := range vals {
		for _, w := range at {
			lo, hi := v.end, w[0] // the value before the word
			if v.start >= w[1] {
				lo, hi = w[1], v.start // the value after it
			}
			d := 0
			if hi > lo {
				// A comma or semicolon between them separates items of a list.
				between := sentence[lo:hi]
				d = len(between) + 40*strings.Count(between, ",") + 40*strings.Count(between, ";")
			}
			if d < bestDist {
				best, bestDist = i, d
			}
		}
	}
	return vals[best].text
}
