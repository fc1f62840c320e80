package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
)

// splitSentences cuts text into sentences for extraction. A line break always ends a
// sentence, because chunk text keeps paragraphs, list items and table rows on lines of their
// own. ".", "!", "?" and "…" end a sentence when white space follows, except where a period
// more likely belongs to the word before it:
//
//   - an abbreviation of the language ("Dr.", "St.", "vs.", "bzw.", "örn.") or any single
//     letter ("z. B.", "J. R. R. Tolkien");
//   - a word with an inner period ("U.S.", "z.B.", "M.Ö."), but not a number: a price or
//     measure ends its sentence ("costs $129.00."), except a day and month in German and
//     Turkish ("bis 24.12.");
//   - in German and Turkish, a number of up to three digits, which is an ordinal there
//     ("am 7. Februar", "19. yüzyıl", "1. Dünya Savaşı");
//   - anything followed by a lower-case letter, which a new sentence would not start with.
//
// Periods inside numbers ("2.029,00", "3.5") never end a sentence since no space follows.
func splitSentences(text, lang string) []textSpan {
	var out []textSpan
	for i, line := range strings.Split(text, "\n") {
		for _, s := range SplitLine(line, lang) {
			out = append(out, textSpan{text: s, line: i})
		}
	}
	return out
}

// textSpan is a sentence and the line of the chunk it is on.
type textSpan struct {
	text string
	line int
}

// SplitLine splits one line of text into sentences in lang, keeping the periods of
// abbreviations, ordinals and decimals inside their sentence.
func SplitLine(line, lang string) []string {
	var out []string
	for line != "" {
		end, ok := firstEnd(line, lang)
		if !ok {
			end = len(line)
		}
		if s := strings.TrimSpace(line[:end]); s != "" {
			out = append(out, s)
		}
		line = line[end:]
	}
	return out
}

// SentenceEnd reports where the first sentence of text ends, by the rules of SplitLine, when
// that is already known: at a terminator SplitLine would cut after (its closers included),
// or else at the first line break. ok is false while the first sentence may still go on, so
// text that is still being written can be cut as it grows: the cut never moves once it is
// reported, because each decision rests only on what precedes it and on the first character
// after the white space that follows it.
func SentenceEnd(text, lang string) (int, bool) {
	line, _, broken := strings.Cut(text, "\n")
	if end, ok := firstEnd(line, lang); ok {
		return end, true
	}
	if broken {
		return len(line), true
	}
	return 0, false
}

// Pieces cuts text into its sentences, each with the white space before it, so that the
// pieces joined are text exactly: how a finished reply is handed out sentence by sentence.
func Pieces(text, lang string) []string {
	var out []string
	for pos := 0; pos < len(text); {
		start := pos + len(text[pos:]) - len(strings.TrimLeftFunc(text[pos:], unicode.IsSpace))
		end, ok := SentenceEnd(text[start:], lang)
		if !ok || start+end >= len(text) {
			out = append(out, text[pos:])
			break
		}
		out = append(out, text[pos:start+end])
		pos = start + end
	}
	return out
}

// firstEnd is where SplitLine ends the first sentence of line, and false when it runs to
// the line's end.
func firstEnd(line, lang string) (int, bool) {
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		if !isTerminator(r) {
			continue
		}
		// Swallow repeated terminators and closing quotes or brackets: `?!`, `."`, `…)`.
		end := i
		for end < len(line) {
			r2, s2 := utf8.DecodeRuneInString(line[end:])
			if !isTerminator(r2) && !strings.ContainsRune(closers, r2) {
				break
			}
			end += s2
		}
		if end == len(line) || !startsWithSpace(line[end:]) {
			i = end
			continue
		}
		next, ok := nextNonSpace(line, end)
		if !ok {
			i = end
			continue
		}
		if r == '.' && end == i && keepsPeriod(line[:i-size], lang) {
			i = end
			continue
		}
		if unicode.IsLower(next) {
			i = end
			continue
		}
		return end, true
	}
	return 0, false
}

const closers = `"'”’»)]›`

func isTerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '…'
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// nextNonSpace returns the first non-space rune at or after i.
func nextNonSpace(s string, i int) (rune, bool) {
	for _, r := range s[i:] {
		if !unicode.IsSpace(r) {
			return r, true
		}
	}
	return 0, false
}

// keepsPeriod reports whether a period directly after before (the sentence so far) belongs
// to its last word rather than ending the sentence.
func keepsPeriod(before, lang string) bool {
	word := lastWord(before)
	if word == "" {
		return false
	}
	if isDecimal(word) {
		// A price or measure ends its sentence ("costs $129.00."), but in German and Turkish
		// a day and month ("bis 24.12. bestellen") is an ordinal like "7.".
		return (lang == "de" || lang == "tr") && isDayMonth(word)
	}
	if strings.Contains(word, ".") {
		return true // "U.S", "z.B", "M.Ö" before the final period
	}
	n := utf8.RuneCountInString(word)
	if n == 1 && unicode.IsLetter([]rune(word)[0]) {
		return true
	}
	if isDigits(word) {
		return n <= 3 && (lang == "de" || lang == "tr")
	}
	_, ok := abbreviations[lang][strings.ToLower(word)]
	if !ok {
		_, ok = abbreviations[""][strings.ToLower(word)]
	}
	return ok
}

// lastWord returns the trailing run of letters, digits and periods of s.
func lastWord(s string) string {
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' {
			break
		}
		i -= size
	}
	return strings.Trim(s[i:], ".")
}

// isDecimal reports a number written with inner separators: "129.00", "4.290,00", "3.5".
func isDecimal(s string) bool {
	if s == "" || !unicode.IsDigit(rune(s[0])) || !unicode.IsDigit(rune(s[len(s)-1])) || !strings.ContainsAny(s, ".,") {
		return false
	}
	for _, r := range s {
		if r != '.' && r != ',' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// isDayMonth reports "24.12": one or two digits, a period, one or two digits.
func isDayMonth(s string) bool {
	day, month, ok := strings.Cut(s, ".")
	return ok && len(day) >= 1 && len(day) <= 2 && len(month) >= 1 && len(month) <= 2 && isDigits(day) && isDigits(month)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// abbreviations are words that end in a period without ending the sentence, per language;
// "" holds the ones every language uses. Lower case, without the final period.
var abbreviations = func() map[string]map[string]struct{} {
	out := map[string]map[string]struct{}{"": setOf(lexdata.Default().Entries(lexdata.AbbreviationsShared, ""))}
	for _, lang := range lexdata.Languages() {
		out[lang] = setOf(lexdata.Default().Entries(lexdata.Abbreviations, lang))
	}
	return out
}()

func setOf(words []string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}
