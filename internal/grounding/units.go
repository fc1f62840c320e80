package grounding

import (
	"cmp"
	"slices"
	"strings"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// unit is what a word after a number measures: a base unit and the factor to it, so that
// "2 yıl" and "24 months", "1,5 kg" and "1500 g" compare equal. Units that do not convert
// (days and months) have bases of their own.
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

// The bases units convert to: grams, millimetres, millilitres, seconds and months (a year is
// twelve; days and months do not convert, since a month is not a fixed number of days).
func mass(s float64) unit    { return unit{"g", s} }
func length(s float64) unit  { return unit{"mm", s} }
func volume(s float64) unit  { return unit{"ml", s} }
func seconds(s float64) unit { return unit{"s", s} }
func months(s float64) unit  { return unit{"month", s} }

// one is a unit that converts to nothing else ("kişi", "°C").
func one(base string) unit { return unit{base, 1} }

// unitWords lists the units of the three languages. Prefix forms carry Turkish suffixes and
// German and English inflections; the longest form that matches wins ("yıldız" is a star,
// not a year; "kilometre" is not a kilogram).
var unitWords = sortUnits([]unitWord{
	// mass
	{form: "g", u: mass(1)}, {form: "gr", u: mass(1)}, {form: "mg", u: mass(0.001)},
	{form: "kg", u: mass(1000)}, {form: "gram", prefix: true, u: mass(1)},
	{form: "kilogram", prefix: true, u: mass(1000)}, {form: "kilo", prefix: true, u: mass(1000)},
	{form: "ton", lang: "tr", u: one("ton")}, {form: "tonne", prefix: true, lang: "en", u: mass(1e6)},
	{form: "tons", lang: "en", u: mass(1e6)}, {form: "lb", u: one("lb")}, {form: "lbs", u: one("lb")}, {form: "oz", u: one("oz")},
	// length and area
	{form: "mm", u: length(1)}, {form: "cm", u: length(10)}, {form: "m", u: length(1000)},
	{form: "km", u: length(1e6)}, {form: "metre", prefix: true, u: length(1000)},
	{form: "meter", prefix: true, u: length(1000)}, {form: "santim", prefix: true, u: length(10)},
	{form: "centimet", prefix: true, u: length(10)}, {form: "zentimeter", prefix: true, u: length(10)},
	{form: "santimetre", prefix: true, u: length(10)}, {form: "millimet", prefix: true, u: length(1)},
	{form: "milimetre", prefix: true, u: length(1)}, {form: "kilomet", prefix: true, u: length(1e6)},
	{form: "inch", prefix: true, u: one("inch")}, {form: "inc", lang: "tr", u: one("inch")},
	{form: "zoll", u: one("inch")}, {form: "ft", u: one("ft")}, {form: "feet", u: one("ft")},
	{form: "m2", u: one("m2")}, {form: "m²", u: one("m2")}, {form: "qm", u: one("m2")},
	{form: "sqm", u: one("m2")}, {form: "metrekare", prefix: true, u: one("m2")},
	{form: "quadratmeter", prefix: true, u: one("m2")},
	// volume
	{form: "ml", u: volume(1)}, {form: "cl", u: volume(10)}, {form: "dl", u: volume(100)},
	{form: "l", u: volume(1000)}, {form: "lt", u: volume(1000)}, {form: "cc", u: volume(1)},
	{form: "litre", prefix: true, u: volume(1000)}, {form: "liter", prefix: true, u: volume(1000)},
	// temperature
	{form: "°c", u: one("degC")}, {form: "°", u: one("degC")}, {form: "°f", u: one("degF")},
	{form: "derece", prefix: true, lang: "tr", u: one("degC")}, {form: "grad", lang: "de", u: one("degC")},
	{form: "celsius", u: one("degC")}, {form: "fahrenheit", u: one("degF")},
	// electricity, storage, frequency, speed
	{form: "w", u: unit{"W", 1}}, {form: "watt", prefix: true, u: unit{"W", 1}}, {form: "kw", u: unit{"W", 1000}},
	{form: "wh", u: unit{"Wh", 1}}, {form: "kwh", u: unit{"Wh", 1000}},
	{form: "mah", u: unit{"mAh", 1}}, {form: "ah", u: unit{"mAh", 1000}},
	{form: "v", u: one("V")}, {form: "volt", prefix: true, u: one("V")},
	{form: "mb", u: unit{"MB", 1}}, {form: "gb", u: unit{"MB", 1000}}, {form: "tb", u: unit{"MB", 1e6}},
	{form: "hz", u: unit{"Hz", 1}}, {form: "khz", u: unit{"Hz", 1e3}}, {form: "mhz", u: unit{"Hz", 1e6}},
	{form: "ghz", u: unit{"Hz", 1e9}}, {form: "km/h", u: one("km/h")}, {form: "kmh", u: one("km/h")},
	{form: "mph", u: one("mph")}, {form: "rpm", u: one("rpm")},
	// durations
	{form: "sn", lang: "tr", u: seconds(1)}, {form: "sec", u: seconds(1)}, {form: "second", prefix: true, lang: "en", u: seconds(1)},
	{form: "saniye", prefix: true, lang: "tr", u: seconds(1)}, {form: "sekunde", prefix: true, lang: "de", u: seconds(1)},
	{form: "min", u: seconds(60)}, {form: "dk", lang: "tr", u: seconds(60)}, {form: "minut", prefix: true, u: seconds(60)},
	{form: "dakika", prefix: true, lang: "tr", u: seconds(60)},
	{form: "h", u: seconds(3600)}, {form: "hr", u: seconds(3600)}, {form: "hrs", u: seconds(3600)},
	{form: "hour", prefix: true, lang: "en", u: seconds(3600)}, {form: "saat", prefix: true, lang: "tr", u: seconds(3600)},
	{form: "std", lang: "de", u: seconds(3600)}, {form: "stund", prefix: true, lang: "de", u: seconds(3600)},
	{form: "stundig", prefix: true, lang: "de", u: seconds(3600)},
	{form: "day", prefix: true, lang: "en", u: seconds(86400)}, {form: "gun", prefix: true, lang: "tr", u: seconds(86400)},
	{form: "tag", prefix: true, lang: "de", u: seconds(86400)}, {form: "tagig", prefix: true, lang: "de", u: seconds(86400)},
	{form: "werktag", prefix: true, lang: "de", u: seconds(86400)},
	{form: "week", prefix: true, lang: "en", u: seconds(604800)}, {form: "hafta", prefix: true, lang: "tr", u: seconds(604800)},
	{form: "woche", prefix: true, lang: "de", u: seconds(604800)}, {form: "wochig", prefix: true, lang: "de", u: seconds(604800)},
	{form: "month", prefix: true, lang: "en", u: months(1)}, {form: "ay", lang: "tr", u: months(1)},
	{form: "aylik", prefix: true, lang: "tr", u: months(1)}, {form: "ayda", lang: "tr", u: months(1)},
	{form: "aydir", lang: "tr", u: months(1)}, {form: "aya", lang: "tr", u: months(1)},
	{form: "monat", prefix: true, lang: "de", u: months(1)},
	{form: "year", prefix: true, lang: "en", u: months(12)}, {form: "yr", lang: "en", u: months(12)},
	{form: "yrs", lang: "en", u: months(12)}, {form: "yil", prefix: true, lang: "tr", u: months(12)},
	{form: "sene", prefix: true, lang: "tr", u: months(12)}, {form: "jahr", prefix: true, lang: "de", u: months(12)},
	// people, ratings and counts a copywriter invents
	{form: "kisi", prefix: true, lang: "tr", u: one("person")}, {form: "person", prefix: true, u: one("person")},
	{form: "people", lang: "en", u: one("person")},
	{form: "star", lang: "en", u: one("star")}, {form: "stars", lang: "en", u: one("star")},
	{form: "yildiz", prefix: true, lang: "tr", u: one("star")}, {form: "stern", prefix: true, lang: "de", u: one("star")},
	{form: "pcs", u: one("piece")}, {form: "pc", u: one("piece")}, {form: "piece", prefix: true, lang: "en", u: one("piece")},
	{form: "adet", prefix: true, lang: "tr", u: one("piece")}, {form: "stuck", prefix: true, lang: "de", u: one("piece")},
	{form: "stk", lang: "de", u: one("piece")}, {form: "pack", prefix: true, lang: "en", u: one("piece")},
	{form: "x", u: one("times")}, {form: "kat", lang: "tr", u: one("times")}, {form: "kez", lang: "tr", u: one("times")},
	{form: "mal", lang: "de", u: one("times")}, {form: "times", lang: "en", u: one("times")},
	{form: "color", prefix: true, lang: "en", u: one("colour")}, {form: "colour", prefix: true, lang: "en", u: one("colour")},
	{form: "renk", prefix: true, lang: "tr", u: one("colour")}, {form: "farbe", prefix: true, lang: "de", u: one("colour")},
	{form: "size", prefix: true, lang: "en", u: one("size")}, {form: "beden", prefix: true, lang: "tr", u: one("size")},
	{form: "numara", prefix: true, lang: "tr", u: one("size")},
	{form: "model", prefix: true, u: one("model")},
	{form: "customer", prefix: true, lang: "en", u: one("customer")}, {form: "user", prefix: true, lang: "en", u: one("customer")},
	{form: "musteri", prefix: true, lang: "tr", u: one("customer")}, {form: "kullanici", prefix: true, lang: "tr", u: one("customer")},
	{form: "kunde", prefix: true, lang: "de", u: one("customer")}, {form: "nutzer", prefix: true, lang: "de", u: one("customer")},
})

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
		if f == uw.form || uw.prefix && strings.HasPrefix(f, uw.form) {
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
