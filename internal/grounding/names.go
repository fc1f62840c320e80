package grounding

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"svc/internal/lang/lexicon"
)

// lineWords are the words product lines and families are named with; a capitalised one next
// to another name word or a model number makes a product name ("Kaçkar Pro", "Pro 3000").
var lineWords = func() map[string]bool {
	lx := lexicon.Default()
	out := make(map[string]bool)
	for _, l := range []lexicon.List{lexicon.ProductLineWords, lexicon.ProductSeriesWords} {
		for _, w := range lx.Entries(l, "") {
			out[w] = true
		}
	}
	return out
}()

var (
	// modelRe is a model token: capitals and at least two digits ("X200", "GT350", "SAVE20").
	// One digit is left out: "A4", "MP3" and "5G" are formats, not products.
	modelRe = regexp.MustCompile(`^[A-Z]{1,8}\d{2,}[A-Za-z]*$`)
	// standardRe are tokens of standards and protection classes, which the concept families read.
	standardRe = regexp.MustCompile(`^(?:IP|IPX|ISO|DIN|EN)\d`)
	// capsRe is the letter part of a model written with a hyphen ("RX" of "RX-450").
	capsRe = regexp.MustCompile(`^[A-Z]{1,8}$`)
)

// isLineWord reports whether w is a capitalised product-line word ("Pro", "Max").
func isLineWord(w word) bool { return w.upper && lineWords[w.fold] }

// nameWord is a word that can be part of a name: capitalised, not a number, not a stop word.
func nameWord(w word) bool { return w.upper && !w.digits && !isStop(w.fold) && !isLineWord(w) }

// nameClaims returns the product names of a sentence the sources do not give. A name is
// recognised by four signs, each narrow enough for ordinary words to pass:
//
//   - a model token ("X200", "RX-450") that no source writes;
//   - a product-line word with the name word before it or the model number after it
//     ("Aurora Pro", "Pro 3000") where no source has those words in that order; a longer name
//     in the sources covers a part of it ("Kaçkar Pro" of "Kaçkar Pro Trekking Boot");
//   - a capitalised word the sources never use, before a word naming a kind of product the
//     business sells ("Everest Tent" at a shop selling tents). The first word of a sentence
//     and headlines in title case are left out here: their capitals say nothing;
//   - a capitalised word the sources never use, right after the business's name or the first
//     word of a product's name ("Ledgerly Enterprise", "Summit Explorer").
//
// ends are the offsets where the business's name, blanked in text, ended.
func (g *Guard) nameClaims(text string, ws []word, ends []int) []Claim {
	var out []Claim
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if modelRe.MatchString(w.raw) && !standardRe.MatchString(w.raw) && !g.ix.models[w.fold] && !g.ix.vocab[w.fold] {
			out = append(out, Claim{Kind: KindProduct, Text: w.raw})
		}
		if capsRe.MatchString(w.raw) && i+1 < len(ws) && ws[i+1].hyphen && allDigits(ws[i+1].raw) && len(ws[i+1].raw) >= 2 &&
			!standardRe.MatchString(w.raw+ws[i+1].raw) && !g.ix.models[w.fold+ws[i+1].fold] {
			out = append(out, Claim{Kind: KindProduct, Text: text[w.start:ws[i+1].end]})
		}
	}
	for i, w := range ws {
		if !isLineWord(w) {
			continue
		}
		first, end := i, i+1
		if i > 0 && w.joined && nameWord(ws[i-1]) {
			first = i - 1
		}
		for end < len(ws) && ws[end].joined && (ws[end].digits || isLineWord(ws[end]) || modelRe.MatchString(ws[end].raw)) {
			end++
		}
		name := folds(ws[first:end])
		if first == i && afterBusiness(text, w, ends) {
			name = append(slices.Clone(g.ix.business), name...) // "Kuzey Patika Pro"
		} else if end-first < 2 {
			continue
		}
		if !g.ix.hasRun(name) {
			out = append(out, Claim{Kind: KindProduct, Text: text[ws[first].start:ws[end-1].end]})
		}
	}
	if g.lang == "de" || !titleCase(ws) {
		out = append(out, g.headClaims(text, ws)...)
	}
	return append(out, g.brandClaims(text, ws, ends)...)
}

// brandFollowers are word beginnings that follow a brand without naming a product of it.
var brandFollowers = lexicon.Default().Entries(lexicon.BrandFollowers, "")

// brandClaims finds unknown capitalised words right after a brand: the business's name or the
// first word of a product's name.
func (g *Guard) brandClaims(text string, ws []word, ends []int) []Claim {
	var out []Claim
	for i, w := range ws {
		if !nameWord(w) || g.ix.knows(w) || g.ix.isHead(w) || follower(w.fold) {
			continue
		}
		switch {
		case i > 0 && w.joined && ws[i-1].upper && g.ix.brands[ws[i-1].fold]:
			out = append(out, Claim{Kind: KindProduct, Text: text[ws[i-1].start:w.end]})
		case afterBusiness(text, w, ends):
			out = append(out, Claim{Kind: KindProduct, Text: w.raw})
		}
	}
	return out
}

// afterBusiness reports whether only spaces stand between the business's name and w.
func afterBusiness(text string, w word, ends []int) bool {
	return slices.Contains(ends, len(strings.TrimRight(text[:w.start], " ")))
}

// follower reports whether a folded word is one of brandFollowers.
func follower(fold string) bool {
	for _, f := range brandFollowers {
		if strings.HasPrefix(fold, f) {
			return true
		}
	}
	return false
}

// headClaims finds unknown capitalised words before a product-kind word.
func (g *Guard) headClaims(text string, ws []word) []Claim {
	var out []Claim
	for i := 1; i < len(ws); i++ {
		if !g.ix.isHead(ws[i]) {
			continue
		}
		first := i
		for first-1 >= 1 && ws[first].joined && nameWord(ws[first-1]) && !g.ix.isHead(ws[first-1]) {
			first--
		}
		for k := first; k < i; k++ {
			if !g.ix.knows(ws[k]) {
				out = append(out, Claim{Kind: KindProduct, Text: text[ws[first].start:ws[i].end]})
				break
			}
		}
	}
	return out
}

// titleCase reports whether most words of a sentence are capitalised, as in an English or
// Turkish headline ("The Perfect Tent for Your Next Trip").
func titleCase(ws []word) bool {
	words, caps := 0, 0
	for _, w := range ws {
		if w.digits {
			continue
		}
		words++
		if w.upper {
			caps++
		}
	}
	return words >= 3 && caps*10 >= words*6
}

// allDigits reports whether s is a run of digits.
func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}
