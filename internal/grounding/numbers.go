package grounding

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// numberValues reads a number as the three languages write it and returns what it may mean.
// The separator written last is the decimal one when both appear ("1.299,90", "$1,299.00");
// one kind used more than once groups thousands ("1.000.000"); a single separator followed by
// exactly three digits is ambiguous ("1.299" is 1299 in Turkish and German, 1.299 in a spec
// sheet), so both readings come back and either may match the sources — unless the digits
// are "000", which nobody writes as decimals ("50.000" is fifty thousand).
func numberValues(s string) []float64 {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\'', '’', '\u00a0', '\u202f':
			return -1
		}
		return r
	}, s)
	dots, commas := strings.Count(s, "."), strings.Count(s, ",")
	switch {
	case dots == 0 && commas == 0:
		return parsed(s)
	case dots > 0 && commas > 0:
		dec := "."
		if strings.LastIndex(s, ",") > strings.LastIndex(s, ".") {
			dec = ","
		}
		i := strings.LastIndex(s, dec)
		whole := strings.NewReplacer(".", "", ",", "").Replace(s[:i])
		return parsed(whole + "." + s[i+1:])
	case dots > 1 || commas > 1:
		return parsed(strings.NewReplacer(".", "", ",", "").Replace(s))
	}
	i := strings.IndexAny(s, ".,")
	whole, frac := s[:i], s[i+1:]
	decimal := parsed(whole + "." + frac)
	switch {
	case len(frac) != 3 || strings.TrimLeft(whole, "0") == "":
		return decimal
	case frac == "000":
		return parsed(whole + frac)
	}
	return append(parsed(whole+frac), decimal...)
}

// parsed returns the one reading of a plain decimal number, or none.
func parsed(s string) []float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return []float64{v}
}

// key is the form in which amounts are compared: rounded to a millionth so that a converted
// unit ("1,5 kg" as 1500 g) meets the same value written in the other unit.
func key(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

// smallCount reports whether every reading is a whole number from 0 to 10: copy counts its
// reasons and steps with such numbers ("3 easy steps"), so a bare one is not a fact.
func smallCount(vs []float64) bool {
	for _, v := range vs {
		if v != math.Trunc(v) || v < 0 || v > 10 {
			return false
		}
	}
	return len(vs) > 0
}

// numberWords are the numbers copy writes as words before a unit, per language, folded the
// way scanWords folds: the lexicon's whole number words up to a hundred. Larger ones come in
// combinations the scanner does not read ("two thousand"), and halves are no count. Built
// once, read-only afterwards.
var numberWords = func() map[string]map[string]float64 {
	lx := lexicon.Default()
	out := make(map[string]map[string]float64)
	for _, lang := range lexicon.Languages() {
		table := lx.Table(lexicon.NumberWords, lang)
		m := make(map[string]float64)
		for _, w := range table.Keys() {
			if v, _ := table.Float(w); v >= 1 && v <= 100 && v == math.Trunc(v) {
				m[textindex.Fold(w)] = v
			}
		}
		out[lang] = m
	}
	return out
}()

// articleNumbers are the folded number words that are also articles ("one", "bir", "ein"):
// they count only before a year or a month ("one-year warranty").
var articleNumbers = func() map[string]bool {
	out := make(map[string]bool)
	for _, lang := range lexicon.Languages() {
		for _, w := range lexicon.Default().Entries(lexicon.ArticleNumbers, lang) {
			out[textindex.Fold(w)] = true
		}
	}
	return out
}()

// articleNumber reports whether a number word is also an article.
func articleNumber(fold string) bool { return articleNumbers[fold] }

// scanNumberWords reads numbers written as words before a unit or a percent word: "two-year
// warranty", "iki yıl", "zweijährige Garantie", "yüzde elli", "fifty percent". A number word
// with nothing of the sort after it is prose ("one of our favourites") and no fact.
func scanNumberWords(text string, ws []word, lang string) []fact {
	table := numberWords[lang]
	var out []fact
	for i := 0; i < len(ws); i++ {
		first := i
		v, ok := table[ws[i].fold]
		if !ok {
			if f, ok := numberCompound(text, ws[i], lang); ok {
				out = append(out, f)
			}
			continue
		}
		if lang == "tr" && v >= 10 && i+1 < len(ws) && ws[i+1].joined {
			if d, ok := table[ws[i+1].fold]; ok && d < 10 {
				v += d // "on iki", "yirmi beş"
				i++
			}
		}
		article := articleNumber(ws[i].fold) && first == i
		if first > 0 && ws[first-1].fold == "yuzde" && !article {
			out = append(out, fact{kind: KindPercent, text: text[ws[first-1].start:ws[i].end], values: []float64{v}})
			continue
		}
		if i+1 >= len(ws) || !ws[i+1].joined {
			continue
		}
		next := ws[i+1]
		switch {
		case percentWords.Has(next.fold) || strings.HasPrefix(next.fold, "prozent"):
			if !article {
				out = append(out, fact{kind: KindPercent, text: text[ws[first].start:next.end], values: []float64{v}})
			}
		default:
			if u, ok := lookupUnit(next.raw, lang); ok && (!article || u.base == "month") {
				out = append(out, fact{kind: KindQuantity, text: text[ws[first].start:next.end], unit: u.base,
					values: []float64{v * u.scale}})
			}
		}
	}
	return out
}

// germanNumberWords are the German number words in a fixed order, for numberCompound.
var germanNumberWords = slices.Sorted(maps.Keys(numberWords["de"]))

// numberCompound reads a German number word joined to its unit ("zweijährige", "dreitägig");
// the unit must be a word of its own, so "Zweig" is not two grams.
func numberCompound(text string, w word, lang string) (fact, bool) {
	if lang != "de" {
		return fact{}, false
	}
	for _, nw := range germanNumberWords {
		if articleNumber(nw) || len(w.fold) < len(nw)+3 || !strings.HasPrefix(w.fold, nw) {
			continue
		}
		if u, ok := lookupUnit(w.fold[len(nw):], lang); ok {
			return fact{kind: KindQuantity, text: text[w.start:w.end], unit: u.base,
				values: []float64{numberWords["de"][nw] * u.scale}}, true
		}
	}
	return fact{}, false
}
