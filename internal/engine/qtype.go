package engine

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
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
// tried in order, so the specific "what year" wins over the general "what".
var qtypePhrases = map[string][]struct {
	phrase string
	kind   qtype
}{
	"en": {
		{"what year", askDate}, {"which year", askDate}, {"what century", askDate},
		{"which century", askDate}, {"what decade", askDate}, {"what date", askDate},
		{"when", askDate},
		{"how many", askNumber}, {"how much", askNumber}, {"how long", askDuration},
		{"how old", askNumber}, {"how far", askNumber}, {"how large", askNumber},
		{"how big", askNumber}, {"how tall", askNumber}, {"how high", askNumber},
		{"what percentage", askNumber}, {"what percent", askNumber},
		{"who", askPerson}, {"whom", askPerson}, {"whose", askPerson},
		{"where", askPlace},
	},
	"de": {
		{"welchem jahr*", askDate}, {"welches jahr*", askDate}, {"welchen jahr*", askDate},
		{"welchem jahrhundert", askDate}, {"wann", askDate},
		{"wie viele", askNumber}, {"wie viel", askNumber}, {"wieviel", askNumber},
		{"wieviele", askNumber}, {"wie lange", askDuration}, {"wie lang", askNumber},
		{"wie alt", askNumber}, {"wie hoch", askNumber}, {"wie gross", askNumber},
		{"wie weit", askNumber}, {"wie oft", askNumber}, {"wie schwer", askNumber},
		{"was kostet", askNumber}, {"was kosten", askNumber},
		{"wer", askPerson}, {"wen", askPerson}, {"wem", askPerson}, {"wessen", askPerson},
		{"wo", askPlace}, {"wohin", askPlace}, {"woher", askPlace},
		// Question adverbs the stop words lack: they ask why or what for, and the answer does
		// not repeat them ("woran liegt das?").
		{"woran lieg*", askOther}, {"woran", askOther}, {"wofur", askOther}, {"wozu", askOther},
		{"wodurch", askOther}, {"womit", askOther}, {"weshalb", askOther}, {"weswegen", askOther},
	},
	"tr": {
		{"ne zaman", askDate}, {"hangi yil*", askDate}, {"hangi tarih*", askDate},
		{"hangi yuzyil*", askDate}, {"kac yil*", askDate}, {"kacinci yil*", askDate},
		{"ne kadar sur*", askDuration}, {"kac gun*", askDuration}, {"kac saat*", askDuration},
		{"kac hafta*", askDuration}, {"kac ay*", askDuration},
		{"kac", askNumber}, {"kaca", askNumber}, {"kacinci", askNumber}, {"ne kadar", askNumber}, {"yuzde", askNumber},
		{"kim", askPerson}, {"kimin", askPerson}, {"kime", askPerson}, {"kimi", askPerson},
		{"kimdir", askPerson}, {"kimler*", askPerson}, {"kimden", askPerson},
		{"nerede", askPlace}, {"nereye", askPlace}, {"nereden", askPlace}, {"neresi*", askPlace},
		{"hangi sehir*", askPlace}, {"hangi ulke*", askPlace},
	},
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

// isCurrencyName reports whether a word names a currency in the engine's languages: the
// currency words a product question's subject leaves out (currencyNames, intent.go).
func isCurrencyName(w, lang string) bool {
	return w != "" && currencyWords[lowerWord(w, lang)]
}

// currencyWords are currencyNames of every language, lower-cased: a price in lira on a
// German page is still a price.
var currencyWords = func() map[string]bool {
	out := map[string]bool{}
	for _, names := range currencyNames {
		for w := range wordFlags(names) {
			out[w] = true
		}
	}
	return out
}()

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
var timeUnits = map[string][]string{
	"en": {"second*", "minute*", "hour*", "day*", "week*", "month*", "year*"},
	"de": {"sekunde*", "minute*", "stunde*", "tag", "tage", "tagen", "tages", "werktag*", "woche*", "monat*", "jahr", "jahre", "jahren", "jahres"},
	"tr": {"saniye*", "dakika*", "saat*", "gün*", "hafta*", "ay", "aya", "ayda", "ayı", "aylık", "yıl*"},
}

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

var numberWords = map[string]map[string]bool{
	"en": wordFlags("two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion billions dozen half"),
	"de": wordFlags("zwei drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig dreißig vierzig fünfzig hundert hunderte tausend tausende million millionen milliarde milliarden dutzend hälfte"),
	"tr": wordFlags("iki üç dört beş altı yedi sekiz dokuz on yirmi otuz kırk elli altmış yetmiş seksen doksan yüz bin milyon milyar yarım"),
}

var dayWords = map[string]map[string]bool{
	"en": wordFlags("monday tuesday wednesday thursday friday saturday sunday daily weekdays weekends"),
	"de": wordFlags("montag dienstag mittwoch donnerstag freitag samstag sonntag täglich werktags"),
	"tr": wordFlags("pazartesi salı çarşamba perşembe cuma cumartesi pazar"),
}

var monthWords = map[string]map[string]bool{
	"en": wordFlags("january february march april may june july august september october november december"),
	"de": wordFlags("januar februar märz april mai juni juli august september oktober november dezember"),
	"tr": wordFlags("ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık"),
}

func wordFlags(list string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}
