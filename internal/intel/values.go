package intel

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/lang"
	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// A value kind is what an extracted value or a compared attribute looks like in text: a
// price, a duration, a weight... Each is found by a pattern; a match must not run on into a
// letter ("3 ay" is a duration, "3 ayakkabı" is not), which the pattern alone cannot say for
// non-ASCII words.
type valueKind string

const (
	kindNone     valueKind = ""
	kindMoney    valueKind = "money"
	kindDuration valueKind = "duration"
	kindWeight   valueKind = "weight"
	kindCapacity valueKind = "capacity"
	kindWater    valueKind = "waterproof_rating"
	kindTemp     valueKind = "temperature"
	kindLength   valueKind = "length"
	kindSizes    valueKind = "sizes"
	kindPercent  valueKind = "percent"
	kindPhone    valueKind = "phone"
	kindEmail    valueKind = "email"
	kindHours    valueKind = "hours"
	kindURL      valueKind = "url"
	kindAddress  valueKind = "address"
)

const num = `\d+(?:[.,]\d+)*`
const numRange = num + `(?:\s?[–—-]\s?` + num + `|\s(?:to|bis|ile|-)\s` + num + `)?`

var kindPatterns = map[valueKind]*regexp.Regexp{
	kindMoney:    regexp.MustCompile(`(?:[$€£₺]\s?` + num + `|` + num + `\s?(?:TL|₺|€|\$|£|EUR|USD|GBP|Euro|euro|lira)(?:'[\p{L}]+)?)`),
	kindDuration: regexp.MustCompile(`(?i)` + numRange + `[\s-]?(?:business days?|working days?|days?|weeks?|months?|years?|hours?|minutes?|iş gününde|iş günü|iş günde|günlük|günde|gün|haftada|hafta|aylık|ay|yıllık|yıl|saatte|saat|dakikada|dakika|Werktagen|Werktage|Arbeitstagen|Arbeitstage|Tagen|Tage|Tag|Wochen|Woche|Monaten|Monate|Monat|Jahren|Jahre|Jahr|Stunden|Stunde|Minuten|Minute)`),
	kindWeight:   regexp.MustCompile(num + `\s?(?:kg|g)`),
	kindCapacity: regexp.MustCompile(`(?i)` + num + `[\s-]?(?:litres|liters|litre|liter|litrelik|litre|lt|l)`),
	kindWater:    regexp.MustCompile(num + `\s?mm`),
	kindTemp:     regexp.MustCompile(`[-−]?\d+(?:[.,]\d+)?\s?°\s?[CF]`),
	kindLength:   regexp.MustCompile(numRange + `\s?cm`),
	kindSizes:    regexp.MustCompile(`(?:\d{2}|XXS|XS|S|M|L|XL|XXL|XXXL)\s?[–-]\s?(?:\d{2}|XS|S|M|L|XL|XXL|XXXL)`),
	kindPercent:  regexp.MustCompile(`(?:%\s?` + num + `|` + num + `\s?%)`),
	kindPhone:    regexp.MustCompile(`(?:\+\d{1,3}|\(?0)[\d ()/-]{6,}\d`),
	kindEmail:    regexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`),
	kindHours:    regexp.MustCompile(`\d{1,2}[:.]\d{2}\s?[–-]\s?\d{1,2}[:.]\d{2}`),
	kindURL:      regexp.MustCompile(`https?://[^\s<>()]+`),
	kindAddress:  regexp.MustCompile(`(?:\p{Lu}[\p{L}-]*\s)+(?:Caddesi|Cad\.|Cd\.|Sokak|Sokağı|Sk\.|Bulvarı|Mahallesi|Street|St\.|Avenue|Ave\.|Road|Rd\.|Lane|Straße|Strasse|Str\.|Weg|Platz|Allee)(?:\s(?:No:?\s?)?\d+[a-zA-Z]?)?|\p{Lu}[\p{L}-]*(?:straße|strasse|weg|platz|allee)\s\d+[a-zA-Z]?`),
}

// findValues returns the values of kind in s, in order, each standing alone: not inside a
// word or a longer number.
func findValues(kind valueKind, s string) []string {
	var out []string
	for _, v := range kindSpans(kind, s) {
		out = append(out, v.text)
	}
	return out
}

// span is a value found in a text, with its byte offsets.
type span struct {
	text       string
	start, end int
}

func kindSpans(kind valueKind, s string) []span {
	re := kindPatterns[kind]
	if re == nil {
		return nil
	}
	var out []span
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[0] > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:m[0]])
			if unicode.IsLetter(r) || unicode.IsDigit(r) && kind != kindTemp {
				continue
			}
		}
		if m[1] < len(s) {
			r, _ := utf8.DecodeRuneInString(s[m[1]:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue
			}
		}
		v := strings.TrimRight(s[m[0]:m[1]], ".,;: ")
		if kind == kindSizes && !sizeCue(s) {
			continue
		}
		out = append(out, span{text: v, start: m[0], end: m[0] + len(v)})
	}
	return out
}

// sizeCue reports whether a sentence speaks of sizes, so that a range in it is a size
// range and not any other pair of numbers.
func sizeCue(s string) bool {
	f := textindex.Fold(s)
	for _, w := range []string{"size", "beden", "numara", "grosse", "groesse"} {
		if strings.Contains(f, w) {
			return true
		}
	}
	return false
}

// concept is a common field or subject with its words in the three languages: "delivery
// time" is the concepts delivery and time, so it is found as "teslimat süresi" in a Turkish
// passage and as "Lieferzeit" in a German one, whatever the language it was asked in.
type concept struct {
	key  string
	kind valueKind // what a value of it looks like; kindNone for any sentence
	// measure concepts (time, cost) qualify another one ("delivery time") and decide the
	// kind of its value.
	measure bool
	// product names a field of the product data answered directly: price, category, name,
	// url, image.
	product string
}

// words are the concept's words in lg as written (the lexicon's intel_concept_words).
func (c concept) words(lg string) string {
	w, _ := lexicon.Default().Table(lexicon.IntelConceptWords, lg).Get(c.key)
	return w
}

var concepts = []concept{
	{key: "price", product: "price", kind: kindMoney, measure: true},
	{key: "time", kind: kindDuration, measure: true},
	{key: "category", product: "category"},
	{key: "name", product: "name"},
	{key: "url", product: "url", kind: kindURL},
	{key: "image", product: "image"},
	{key: "warranty", kind: kindDuration},
	{key: "delivery"},
	{key: "return"},
	{key: "weight", kind: kindWeight},
	{key: "capacity", kind: kindCapacity},
	{key: "waterproof_rating", kind: kindWater},
	{key: "temperature", kind: kindTemp},
	{key: "sizes", kind: kindSizes},
	{key: "payment"},
	{key: "instalments"},
	{key: "discount", kind: kindPercent},
	{key: "phone", kind: kindPhone},
	{key: "email", kind: kindEmail},
	{key: "address", kind: kindAddress},
	{key: "hours", kind: kindHours},
	{key: "stock"},
	{key: "material"},
}

// conceptIndex holds the analyzed words of every concept per language, computed once.
var conceptIndex = func() map[string]map[string]map[string]bool {
	idx := map[string]map[string]map[string]bool{}
	for _, c := range concepts {
		idx[c.key] = map[string]map[string]bool{}
		for _, lg := range []string{lang.EN, lang.TR, lang.DE} {
			set := map[string]bool{}
			for _, t := range textindex.IndexTerms(c.words(lg), lg) {
				set[t] = true
			}
			idx[c.key][lg] = set
		}
	}
	return idx
}()

// conceptTerms returns the analyzed words of the concept key in lg. The map is shared:
// callers must not change it.
func conceptTerms(key, lg string) map[string]bool {
	byLang, ok := conceptIndex[key]
	if !ok {
		return nil
	}
	if s, ok := byLang[lg]; ok {
		return s
	}
	return byLang[lang.EN]
}

func conceptByKey(key string) (concept, bool) {
	for _, c := range concepts {
		if c.key == key {
			return c, true
		}
	}
	return concept{}, false
}

// conceptOf returns the concept a word of a field belongs to, in any of the three
// languages, or false. A word is matched by its analyzed term in each language.
func conceptOf(word string) (concept, bool) {
	for _, c := range concepts {
		for _, lg := range []string{lang.EN, lang.TR, lang.DE} {
			for _, t := range textindex.QueryTerms(word, lg) {
				if hasTerm(conceptIndex[c.key][lg], t) {
					return c, true
				}
			}
		}
	}
	return concept{}, false
}
