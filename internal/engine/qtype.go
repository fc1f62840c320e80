package engine

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
)

// qtype is what kind of answer a question asks for, read from its question words. The
// analyzer drops question words as stop words, so the engine reads them from the raw text.
type qtype int

const (
	askOther qtype = iota
	askNumber
	askDuration
	askDate
	askPerson
	askPlace
	// askPrice is an amount of money. No question phrase yields it, since "how much" asks
	// for any amount; the lead-in reads it from a question's cue words (leadKindOf).
	askPrice
)

// qtypePhrases maps folded question-word phrases to the answer type, per language. A
// trailing "*" matches any word with that prefix ("yil*" = "yılında", "yılı"). Phrases are
// tried in order, so the specific "what year" wins over the general "what". They live in the
// lexicon's question_type_phrases files; built once, read-only afterwards.
var qtypePhrases = func() map[string][]struct {
	phrase string
	kind   qtype
} {
	out := make(map[string][]struct {
		phrase string
		kind   qtype
	})
	for _, lang := range lexdata.Languages() {
		table := lexdata.Default().Table(lexdata.QuestionTypePhrases, lang)
		for _, phrase := range table.Keys() {
			name, _ := table.Get(phrase)
			out[lang] = append(out[lang], struct {
				phrase string
				kind   qtype
			}{phrase, qtypeNamed(name)})
		}
	}
	return out
}()

// qtypeNamed reads an answer type of question_type_phrases; an unknown name is askOther.
func qtypeNamed(name string) qtype {
	switch name {
	case "number":
		return askNumber
	case "duration":
		return askDuration
	case "date":
		return askDate
	case "person":
		return askPerson
	case "place":
		return askPlace
	}
	return askOther
}

// hasCue reports whether a sentence holds something of the kind the question asks for and
// that the question does not already state: a number; a number with a unit of time; a year,
// month, weekday or clock time; a capitalised name; or a number with a currency. qwords are
// the question's lower-cased words (wordSet).
func hasCue(s string, kind qtype, lang string, qwords map[string]bool) bool {
	switch kind {
	case askOther:
		return false
	case askPrice:
		return hasPrice(s, lang, qwords)
	}
	if kind == askDate && clockTime.MatchString(s) {
		return true
	}
	words := rawWords(s)
	run := 0
	number, unit := false, false
	for i, w := range words {
		lw := lowerWord(w, lang)
		if kind == askDuration {
			number = number || isDigits(w) || numberWords[lang][lw]
			unit = unit || isTimeUnit(lw, lang)
			continue
		}
		if qwords[lw] {
			run = 0
			continue
		}
		switch kind {
		case askNumber:
			if isDigits(w) || numberWords[lang][lw] {
				return true
			}
		case askDate:
			if isYear(w) || monthWords[lang][lw] || dayWords[lang][lw] || centuryWord(lw) {
				return true
			}
		case askPerson, askPlace:
			// The first word is capitalised as any sentence's; a capital letter alone is the
			// pronoun "I" or a list's "A", no name.
			if i == 0 || !unicode.IsUpper([]rune(w)[0]) || utf8.RuneCountInString(w) == 1 {
				run = 0
				continue
			}
			run++
			// German capitalises every noun, so there a name needs two capitalised words
			// in a row ("Nikola Tesla"); elsewhere one is enough.
			if lang != "de" || run >= 2 {
				return true
			}
		}
	}
	return number && unit
}

// hasPrice reports whether s holds an amount of money the question does not state: a number
// with a currency sign ("€49", "4,90 €", "$199.00") or the name of a currency
// ("79,90 TL", "12 Euro") directly before or after it.
func hasPrice(s, lang string, qwords map[string]bool) bool {
	for _, m := range amountRe.FindAllStringIndex(s, -1) {
		if qwords[s[m[0]:m[1]]] {
			continue
		}
		before := strings.TrimRightFunc(s[:m[0]], unicode.IsSpace)
		after := strings.TrimLeftFunc(s[m[1]:], unicode.IsSpace)
		r, _ := utf8.DecodeLastRuneInString(before)
		if unicode.Is(unicode.Sc, r) || isCurrencyName(lastWord(before), lang) {
			return true
		}
		if r, _ := utf8.DecodeRuneInString(after); unicode.Is(unicode.Sc, r) {
			return true
		}
		if ws := rawWords(after); len(ws) > 0 && strings.HasPrefix(after, ws[0]) && isCurrencyName(ws[0], lang) {
			return true
		}
	}
	return false
}

// amountRe matches a number written with digits and its decimal or thousands marks.
var amountRe = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// isCurrencyName reports whether a word names a currency in any of the engine's languages
// (the lexicon's currency_words, which grounding reads too): a price in lira on a German
// page is still a price.
func isCurrencyName(w, lang string) bool {
	if w == "" {
		return false
	}
	_, ok := lexdata.Default().Table(lexdata.CurrencyWords, "").Get(lowerWord(w, lang))
	return ok
}

// wordSet is the set of text's words, lower-cased: the words a cue must not merely repeat.
func wordSet(text, lang string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range rawWords(text) {
		out[lowerWord(w, lang)] = true
	}
	return out
}

// clockTime matches a time of day such as "10:00" or "9.30".
var clockTime = regexp.MustCompile(`\b[0-2]?\d[:.][0-5]\d\b`)

// isTimeUnit reports whether the lower-cased word is a unit of time ("days", "Werktagen",
// "günü").
func isTimeUnit(w, lang string) bool { return matchWord(w, timeUnits[lang]) }

// timeUnits are the units of time per language; "*" ends a prefix.
var timeUnits = func() map[string][]string {
	out := make(map[string][]string)
	for _, lang := range lexdata.Languages() {
		out[lang] = lexdata.Default().Entries(lexdata.TimeUnits, lang)
	}
	return out
}()

// lowerWord lower-cases w, with Turkish rules for Turkish ("I" -> "ı", "İ" -> "i").
func lowerWord(w, lang string) string {
	if lang == "tr" {
		return strings.ToLowerSpecial(unicode.TurkishCase, w)
	}
	return strings.ToLower(w)
}

// rawWords splits s into words (runs of letters and digits) keeping their case.
func rawWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func isYear(w string) bool {
	if !isDigits(w) || len(w) < 3 || len(w) > 4 {
		return false
	}
	n := 0
	for _, r := range w {
		n = n*10 + int(r-'0')
	}
	return n >= 100 && n <= 2100
}

func centuryWord(w string) bool {
	return strings.HasPrefix(w, "centur") || strings.HasPrefix(w, "jahrhundert") ||
		strings.HasPrefix(w, "yüzyıl") || strings.HasPrefix(w, "asır")
}

// numberWords are the numbers written as words, per language, lower-cased: the lexicon's
// number words less those that are also articles ("one", "ein", "bir"), which no question
// answer needs to hold. Built once, read-only afterwards.
var numberWords = func() map[string]map[string]bool {
	lx := lexdata.Default()
	out := make(map[string]map[string]bool)
	for _, lang := range lexdata.Languages() {
		articles := lx.Set(lexdata.ArticleNumbers, lang)
		m := make(map[string]bool)
		for _, w := range lx.Entries(lexdata.NumberWords, lang) {
			if !articles.Has(w) {
				m[w] = true
			}
		}
		out[lang] = m
	}
	return out
}()

var dayWords = langFlags(lexdata.DayWords)

var monthWords = langFlags(lexdata.MonthWords)

// langFlags reads a per-language words list of the lexicon as a set per language.
func langFlags(l lexdata.List) map[string]map[string]bool {
	out := make(map[string]map[string]bool)
	for _, lang := range lexdata.Languages() {
		m := make(map[string]bool)
		for _, w := range lexdata.Default().Entries(l, lang) {
			m[w] = true
		}
		out[lang] = m
	}
	return out
}
