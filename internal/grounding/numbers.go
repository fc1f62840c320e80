package grounding

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
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

// numberWords are the numbers copy writes as words, per language. "one", "bir" and "ein" are
// also articles, so they count only before a year or a month ("one-year warranty").
var numberWords = map[string]map[string]float64{
	"en": {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
		"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
		"forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100},
	"tr": {"bir": 1, "iki": 2, "uc": 3, "dort": 4, "bes": 5, "alti": 6, "yedi": 7, "sekiz": 8,
		"dokuz": 9, "on": 10, "yirmi": 20, "otuz": 30, "kirk": 40, "elli": 50, "altmis": 60, "yuz": 100},
	"de": {"ein": 1, "eine": 1, "einen": 1, "einem": 1, "einer": 1, "zwei": 2, "drei": 3, "vier": 4,
		"funf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "zwolf": 12,
		"funfzehn": 15, "zwanzig": 20, "dreissig": 30, "vierzig": 40, "funfzig": 50, "hundert": 100},
}

// articleNumber reports whether a number word is also an article.
func articleNumber(fold string) bool {
	switch fold {
	case "one", "bir", "ein", "eine", "einen", "einem", "einer":
		return true
	}
	return false
}

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
		case percentWords[next.fold] || strings.HasPrefix(next.fold, "prozent"):
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
