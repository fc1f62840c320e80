package variant

import (
	"slices"
	"strings"
	"unicode/utf8"

	"svc/internal/textindex"
)

// Name is a product name read for its variants: the words that say what it is (its base)
// and the variant tokens that tell it from its siblings.
type Name struct {
	base   []string
	words  []string // every word of the name that is no variant token, stop words too
	tokens []token
}

// Parse reads a product name.
func Parse(name string) Name {
	var n Name
	ws := words(name)
	for i := 0; i < len(ws); i++ {
		if t, k := classify(ws, i); k > 0 {
			n.tokens = append(n.tokens, t)
			i += k - 1
			continue
		}
		n.words = append(n.words, ws[i].fold)
		if !stopWord(ws[i].fold) {
			n.base = append(n.base, ws[i].fold)
		}
	}
	return n
}

// family is the first word of the name's base: siblings share it ("nova" of "Nova 12 Lite"
// and "Nova 12 Pro"). A name without a base word has none.
func (n Name) family() string {
	if len(n.base) == 0 {
		return ""
	}
	return n.base[0]
}

// isBase reports whether a word of a text is one of the name's base words, allowing an
// inflection after it ("botunun" for "Botu", "jackets" for "Jacket").
func (n Name) isBase(w string) bool {
	for _, b := range n.base {
		if w == b || utf8.RuneCountInString(b) >= 4 && len(w) > len(b) && w[:len(b)] == b {
			return true
		}
	}
	return false
}

// reading is what a text says about one name: the variant tokens it writes about it, whether
// it writes the name's family word or model code at all, and which of its words stand in a
// run of the name (see read).
type reading struct {
	tokens    []token
	mentioned bool
	run       []bool
}

// inName reports whether a word of a text is a word of the name: a base word (inflected or
// not) or one of its stop words ("su" of "Trail su şişesi", which folds like "şu").
func (n Name) inName(w string) bool {
	return n.isBase(w) || slices.Contains(n.words, w)
}

// hasModel reports whether the word at i is a model code the name carries ("X2" of
// "Kestrel X2 Lite"): a visitor often writes the code without the brand ("the X2 Lite").
func (n Name) hasModel(ws []word, i int) bool {
	t, k := classify(ws, i)
	return k == 1 && t.class == model && slices.Contains(n.tokens, t)
}

// read collects the variant tokens a text writes about n: those in a run of words next to
// one of its base words or its model code (the run is every adjacent word that is a word of
// the name or a variant token: "Nova 12 Lite", "128 GB Nova 12", "X2 Pro"), a bare number
// only after a base word of the run, and colours and sizes wherever they stand ("the jacket
// in red", "Größe M"). A number elsewhere is the visitor's own ("a tent for 3 people", "2
// Aladağ backpacks" say nothing against "Uludağ 2" or "Aladağ 35"). Tokens outside every
// name's run are weighed in Fit (orphans).
func (n Name) read(ws []word) reading {
	r := reading{run: make([]bool, len(ws))}
	fam := n.family()
	inRun := r.run
	for i, w := range ws {
		if fam != "" && (w.fold == fam || utf8.RuneCountInString(fam) >= 4 && strings.HasPrefix(w.fold, fam)) {
			r.mentioned = true
		}
		anchor := n.isBase(w.fold)
		if !anchor && n.hasModel(ws, i) {
			anchor, r.mentioned = true, true
		}
		if !anchor {
			continue
		}
		inRun[i] = true
		for j := i - 1; j >= 0 && (n.inName(ws[j].fold) || isToken(ws, j)); j-- {
			inRun[j] = true
		}
		for j := i + 1; j < len(ws) && (n.inName(ws[j].fold) || isToken(ws, j)); j++ {
			inRun[j] = true
		}
	}
	baseBefore := false // a base word or the model code stands earlier in the current run
	for i := 0; i < len(ws); i++ {
		if !inRun[i] {
			baseBefore = false
		}
		t, k := classify(ws, i)
		if k == 0 {
			baseBefore = baseBefore || inRun[i] && n.isBase(ws[i].fold)
			continue
		}
		// A bare number counts after a word of the name ("Nova 12", "Uludağ 2"), not before
		// it, where it is a quantity ("2 Aladağ backpacks").
		if inRun[i] && (t.class != number || baseBefore) || t.class == colour || t.class == size {
			r.tokens = append(r.tokens, t)
		}
		if inRun[i] && t.class == model && slices.Contains(n.tokens, t) {
			baseBefore = true
		}
		i += k - 1
	}
	return r
}

func isToken(ws []word, i int) bool {
	_, k := classify(ws, i)
	if k == 0 && i > 0 {
		// The unit of an amount ("GB" of "128 GB") belongs to the run as well.
		if t, k := classify(ws, i-1); k == 2 && t.class == amount {
			return true
		}
	}
	return k > 0
}

// agreement is how a text's tokens about a name agree with the name's own: conflict when
// some class has tokens on both sides and none in common (Lite against Pro, 11 against 12,
// red against blue); hit counts the text's tokens the name has; extra counts the name's
// tokens of the classes the text speaks of that the text lacks ("Pro Max" for "Pro").
type agreement struct {
	conflict   bool
	hit, extra int
}

func agree(text []token, name []token) agreement {
	var a agreement
	classes := map[class]bool{}
	for _, t := range text {
		classes[t.class] = true
	}
	for c := range classes {
		has, shared := false, false
		for _, nt := range name {
			if nt.class != c {
				continue
			}
			has = true
			if contains(text, nt) {
				shared = true
				a.hit++
			} else {
				a.extra++
			}
		}
		if has && !shared {
			a.conflict = true
		}
	}
	return a
}

func contains(ts []token, t token) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// better reports whether a agrees with the text more closely than b.
func (a agreement) better(b agreement) bool {
	return a.hit > b.hit || a.hit == b.hit && a.extra < b.extra
}

// Fit reports, for each product name, whether text may mean that product. A name does not
// fit when the text writes a variant token its name contradicts ("Nova 12 Lite" against
// "Nova 12 Pro", "rot" against "Blue"), or when a sibling among names (same first word)
// agrees with the text more closely ("Nova 12 Pro" over "Nova 12 Pro Max" for "Nova 12
// Pro"; "Nova 12 Lite" over "Nova 12" for "the Lite"). A text naming no variant fits every
// sibling. Names the text does not touch at all fit.
//
// A line word, amount or model code that stands in no name's run (an orphan: "the Pro
// model phone", "das Pro-Modell des Kestrel X2", "die Trinkflasche mit 500 ml") is read as
// said of the siblings whose family carries that very token: the visitor names the variant
// apart from the name, and among the products in play only that family has such a variant.
// A token no sibling carries is left out ("air pods" says nothing of "Nova 12 Lite"), and so
// is a bare number, which is the visitor's own ("a tent for 3 people").
func Fit(text string, names []string) []bool {
	ws := words(text)
	parsed := make([]Name, len(names))
	reads := make([]reading, len(names))
	runs := make([]bool, len(ws))
	for i, nm := range names {
		parsed[i] = Parse(nm)
		reads[i] = parsed[i].read(ws)
		for j, in := range reads[i].run {
			runs[j] = runs[j] || in
		}
	}
	orphans := orphanTokens(ws, runs)
	ag := make([]agreement, len(names))
	for i := range names {
		toks := reads[i].tokens
		fam := parsed[i].family()
		for _, o := range orphans {
			if fam == "" || contains(toks, o) {
				continue
			}
			for j := range names {
				if parsed[j].family() == fam && contains(parsed[j].tokens, o) {
					toks = append(toks, o)
					break
				}
			}
		}
		ag[i] = agree(toks, parsed[i].tokens)
	}
	out := make([]bool, len(names))
	for i := range names {
		out[i] = !ag[i].conflict
		if !out[i] {
			continue
		}
		fam := parsed[i].family()
		for j := range names {
			if j != i && fam != "" && parsed[j].family() == fam && !ag[j].conflict && ag[j].better(ag[i]) {
				out[i] = false
				break
			}
		}
	}
	return out
}

// orphanTokens are the line words, amounts and model codes of a text outside every run.
func orphanTokens(ws []word, runs []bool) []token {
	var out []token
	for i := 0; i < len(ws); i++ {
		t, k := classify(ws, i)
		if k == 0 {
			continue
		}
		if !runs[i] && (t.class == line || t.class == amount || t.class == model) {
			out = append(out, t)
		}
		i += k - 1
	}
	return out
}

// Named reports, for each product name, whether text names that product: it writes the
// name's first word and fits it (see Fit). A sentence writing "Nova 12 Lite" names the Lite
// and not the Pro; one writing "Nova 12" names both.
func Named(text string, names []string) []bool {
	ws := words(text)
	fit := Fit(text, names)
	out := make([]bool, len(names))
	for i, nm := range names {
		out[i] = fit[i] && Parse(nm).read(ws).mentioned
	}
	return out
}

// Conflicts reports whether text writes a variant token that name contradicts: the text is
// about another variant of the product.
func Conflicts(text, name string) bool {
	n := Parse(name)
	return agree(n.read(words(text)).tokens, n.tokens).conflict
}

// stopWord reports whether a folded word is a stop word in any of the three languages: it
// is no part of what a name says ("Toros Poles for Two").
func stopWord(f string) bool {
	return textindex.IsStopWord(f, "en") || textindex.IsStopWord(f, "de") || textindex.IsStopWord(f, "tr")
}

// Differ reports whether two texts (two wordings of a question) write variant tokens of one
// class that have nothing in common: "Nova 12 Pro'nun pil ömrü ne kadar?" and "Nova 12
// Lite'ın pil ömrü ne kadar?" ask about different products, however alike their words. A
// class only one of them writes is no difference.
func Differ(a, b string) bool {
	ta, tb := allTokens(words(a)), allTokens(words(b))
	return agree(ta, tb).conflict
}

// allTokens are the variant tokens of a text wherever they stand.
func allTokens(ws []word) []token {
	var out []token
	for i := 0; i < len(ws); i++ {
		if t, k := classify(ws, i); k > 0 {
			out = append(out, t)
			i += k - 1
		}
	}
	return out
}
