package grounding

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
)

// unit is what a word after a number measures: a base unit and the factor to it, so that
// "2 yıl" and "24 months", "1,5 kg" and "1500 g" compare equal. The bases are grams,
// millimetres, millilitres, seconds and months (a year is twelve; days and months do not
// convert, since a month is not a fixed number of days), and units that convert to nothing
// else ("kişi", "°C").
type unit struct {
	base  string
	scale float64
}

// unitWord is one way of writing a unit. Words of one language only apply to text in it:
// "tags" after a number is not German "Tage".
type unitWord struct {
	form   string // folded
	lang   string // "" for every language
	prefix bool   // matches any word starting with form ("günlük", "Jahren", "kişilik")
	u      unit
}

// unitWords lists the units of the three languages (the lexicon's unit_words, per language
// and shared), longest form first. Prefix forms carry Turkish suffixes and German and English
// inflections; the longest form that matches wins ("yıldız" is a star, not a year;
// "kilometre" is not a kilogram).
var unitWords = func() []unitWord {
	us, _ := readUnitWords(lexicon.Default())
	return sortUnits(us)
}()

// readUnitWords reads the unit lists, "form = base scale" with a trailing "*" on a prefix
// form; it returns the entries it could not read, which a test holds at none.
func readUnitWords(lx *lexicon.Lexicon) ([]unitWord, []string) {
	var out []unitWord
	var bad []string
	read := func(l lexicon.List, lang string) {
		table := lx.Table(l, lang)
		for _, k := range table.Keys() {
			v, _ := table.Get(k)
			fs := strings.Fields(v)
			var scale float64
			var err error
			if len(fs) == 2 {
				scale, err = strconv.ParseFloat(fs[1], 64)
			}
			if len(fs) != 2 || err != nil {
				bad = append(bad, k+" = "+v)
				continue
			}
			form, prefix := strings.CutSuffix(k, "*")
			out = append(out, unitWord{form: form, lang: lang, prefix: prefix, u: unit{fs[0], scale}})
		}
	}
	read(lexicon.UnitWordsShared, "")
	for _, lang := range lexicon.Languages() {
		read(lexicon.UnitWords, lang)
	}
	return out, bad
}

// sortUnits puts longer forms first so that the first match is the longest.
func sortUnits(us []unitWord) []unitWord {
	slices.SortStableFunc(us, func(a, b unitWord) int { return cmp.Compare(len(b.form), len(a.form)) })
	return us
}

// lookupUnit returns the unit a word after a number names in lang. A single capital "M" is a
// million in copy ("5M users"), never a metre.
func lookupUnit(raw, lang string) (unit, bool) {
	if raw == "" || raw == "M" || raw == "G" || raw == "H" {
		return unit{}, false
	}
	f := textindex.Fold(raw)
	for _, uw := range unitWords {
		if uw.lang != "" && uw.lang != lang {
			continue
		}
		if bm25.Match(uw.form, uw.prefix, f) {
			return uw.u, true
		}
	}
	return unit{}, false
}

// currencies maps the ways of writing a currency, folded, to its code; a price compares
// equal only in the same currency, or when one side does not say which. Read-only.
var currencies = func() map[string]string {
	table := lexicon.Default().Table(lexicon.CurrencyWords, "")
	out := make(map[string]string, table.Len())
	for _, k := range table.Keys() {
		out[k], _ = table.Get(k)
	}
	return out
}()

// multipliers are the words that scale the number before them ("10 bin", "2 Mio.", "10k"):
// the abbreviations, and the number words of a thousand and more, folded. Read-only.
var multipliers = func() map[string]float64 {
	lx := lexicon.Default()
	out := make(map[string]float64)
	abbr := lx.Table(lexicon.MultiplierAbbreviations, "")
	for _, k := range abbr.Keys() {
		out[k], _ = abbr.Float(k)
	}
	for _, lang := range lexicon.Languages() {
		words := lx.Table(lexicon.NumberWords, lang)
		for _, k := range words.Keys() {
			if v, _ := words.Float(k); v >= 1000 {
				out[textindex.Fold(k)] = v
			}
		}
	}
	return out
}()

// percentWords follow a number to make it a percentage ("50 Prozent", "50 percent").
var percentWords = lexicon.Default().Set(lexicon.PercentWords, "")

// modifiers may stand between a number and its unit ("3-5 iş günü", "5 business days").
var modifiers = lexicon.Default().Set(lexicon.UnitModifiers, "")
