package engine

import (
	"regexp"
	"strings"
	"unicode"

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
// month, weekday or clock time; or a capitalised name. qwords are the question's lower-cased
// words.
func hasCue(s string, kind qtype, lang string, qwords map[string]bool) bool {
	if kind == askOther {
		return false
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
			if i == 0 || !unicode.IsUpper([]rune(w)[0]) {
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

// clockTime matches a time of day such as "10:00" or "9.30".
var clockTime = regexp.MustCompile(`\b[0-2]?\d[:.][0-5]\d\b`)

// isTimeUnit reports whether the lower-cased word is a unit of time ("days", "Werktagen",
// "günü").
func isTimeUnit(w, lang string) bool {
	for _, u := range timeUnits[lang] {
		if pre, ok := strings.CutSuffix(u, "*"); ok {
			if strings.HasPrefix(w, pre) {
				return true
			}
		} else if w == u {
			return true
		}
	}
	return false
}

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
