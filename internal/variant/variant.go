// Package variant tells product variants apart by name. Shops sell siblings whose names
// differ only in a token or two ("Nova 12 Lite" and "Nova 12 Pro", "Storm Jacket Red" and
// "Storm Jacket Blue", "Trail 45" and "Trail 55", a T-shirt in S and in XL), and a word
// search sees them as nearly the same product: a question about the Lite found the Pro as
// well, and its price with it. The rule here is the one every part that picks products
// applies (the engine's cards and reply, its name guard, the chat's cached cards, the
// generators' sources and the grounding guard): a text that writes a variant token next to
// a product's name or its model code (or a colour or size anywhere) means the products whose
// names agree with it, and among siblings the one that agrees best; a line word, amount or
// model code written apart from every name ("the Pro model", "die Flasche mit 500 ml") means
// the siblings that carry it.
//
// Variant tokens come in classes: line words (Lite, Pro, Plus, Max, Mini, Ultra, Air, …),
// numbers (a model number "12", a size "-5"), amounts with a unit ("128GB", "500 ml"),
// model codes ("X200"), clothing sizes (XS…XXXL) and colours, which are the same class in
// Turkish, English and German ("kırmızı", "red", "rot"). Two tokens of one class that
// differ name different products; a text naming no variant means every sibling.
package variant

import (
	"strings"
	"unicode"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// class is a kind of variant token; tokens of different classes never contradict.
type class uint8

const (
	line   class = iota + 1 // Lite, Pro, Max
	number                  // 12, 2, -5 (the sign is not kept)
	amount                  // 128gb, 500ml
	model                   // x200
	size                    // xs … xxxl
	colour                  // canonical English name
)

// token is one variant token of a text or name: its class and canonical value.
type token struct {
	class class
	value string
}

// lineWords are the words product lines tell siblings apart with (folded, read-only).
var lineWords = lexicon.Default().Set(lexicon.ProductLineWords, "")

// units follow a number to make an amount ("128 GB", "500ml"); read-only.
var units = lexicon.Default().Set(lexicon.AmountUnits, "")

// sizes are clothing sizes, folded. The one-letter sizes count only when written in capitals:
// "s" and "m" are also what an apostrophe leaves of "it's" and "I'm". Read-only.
var sizes = lexicon.Default().Set(lexicon.ClothingSizes, "")

// colours maps the folded colour words of tr, en and de to one name (the first of its line
// in the data file), so that a Turkish question about the red one and an English product
// named "Red" agree. Built once, read-only afterwards.
var colours = func() map[string]string {
	m := map[string]string{}
	for _, g := range lexicon.Default().Groups(lexicon.ColourWords, "") {
		for _, w := range g {
			m[w] = g[0]
		}
	}
	return m
}()

// colourEndings are the inflections a colour word may carry, in the order tried: German
// adjective endings and Turkish case suffixes ("roten", "kırmızısı", "maviyi").
var colourEndings = lexicon.Default().Entries(lexicon.ColourEndings, "")

// word is one word of a text: folded, and whether it was written with a capital.
type word struct {
	fold  string
	upper bool // first letter a capital
	caps  bool // every letter a capital
}

// words splits text into folded words. What follows an apostrophe inside a word is a
// suffix ("Lite'ın", "Pro's") and is dropped; a minus sign before a digit is no word.
func words(text string) []word {
	var out []word
	var cur []rune
	skip := false
	flush := func() {
		if len(cur) > 0 {
			s := string(cur)
			first := []rune(s)[0]
			caps := true
			for _, r := range s {
				if unicode.IsLetter(r) && !unicode.IsUpper(r) {
					caps = false
				}
			}
			out = append(out, word{fold: textindex.Fold(s), upper: unicode.IsUpper(first), caps: caps})
		}
		cur = cur[:0]
		skip = false
	}
	for _, r := range text {
		switch {
		case r == '\'' || r == '’' || r == '`':
			if len(cur) > 0 {
				flush()
				skip = true
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !skip {
				cur = append(cur, r)
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// classify reads one word, and the word after it for an amount's unit, as a variant token.
// It returns how many words the token took (0: none).
func classify(ws []word, i int) (token, int) {
	w := ws[i]
	f := w.fold
	switch {
	case isDigits(f):
		if i+1 < len(ws) && units.Has(ws[i+1].fold) && !isDigits(ws[i+1].fold) {
			return token{amount, trimZeros(f) + ws[i+1].fold}, 2
		}
		return token{number, trimZeros(f)}, 1
	case hasDigit(f):
		d, rest := splitDigits(f)
		if d != "" && units.Has(rest) {
			return token{amount, trimZeros(d) + rest}, 1
		}
		if sizes.Has(f) {
			return token{size, f}, 1
		}
		return token{model, f}, 1
	case lineWords.Has(f):
		return token{line, f}, 1
	case sizes.Has(f) && (len(f) > 1 && w.caps || w.caps && w.upper):
		return token{size, f}, 1
	}
	if c, ok := colourOf(f); ok {
		return token{colour, c}, 1
	}
	return token{}, 0
}

func colourOf(f string) (string, bool) {
	for _, end := range colourEndings {
		stem, ok := strings.CutSuffix(f, end)
		if !ok {
			continue
		}
		if c, ok := colours[stem]; ok {
			return c, true
		}
	}
	return "", false
}

func isDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// splitDigits splits "128gb" into "128" and "gb"; anything else gives "".
func splitDigits(s string) (string, string) {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
	if i <= 0 || hasDigit(s[i:]) {
		return "", ""
	}
	return s[:i], s[i:]
}

func trimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" {
		return "0"
	}
	return t
}
