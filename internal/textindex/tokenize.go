package textindex

import (
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// token is one word cut from the text: lower-cased, not yet folded.
type token struct {
	text string
	// hasDigit marks tokens such as "2029" or "a4"; they are never
	// stemmed, truncated or matched as prefixes, because "14" must not
	// match "140".
	hasDigit bool
	// capital marks a word written with a capital letter anywhere in it ("Österreich",
	// "PayPal"): the sign of a name that NameTerms reads.
	capital bool
}

// tokenize splits text into lower-cased words. lang must be normalized.
//
// Separators are everything that is not a letter, digit or combining mark.
// Apostrophes (' ’ ‘ ʼ ´ `) also separate; in Turkish the letters after an
// apostrophe are a case suffix on a proper noun ("İstanbul'da",
// "NFL'de", "11'le") and are dropped. In numbers, a "." or "," followed
// by exactly three digits is a thousands separator and is removed, so
// "2.029,00" and "2,029" both give "2029"; an all-zero decimal part
// (",00", ".0") is dropped so prices written with or without cents match.
// Any other punctuation between digits splits the number into groups.
func tokenize(text, lang string) []token {
	text = norm.NFC.String(text)
	turkish := lang == langTR
	rs := []rune(text)
	var out []token
	var cur []rune
	digit, capital := false, false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, token{text: string(cur), hasDigit: digit, capital: capital})
		}
		cur = cur[:0]
		digit, capital = false, false
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case isWordRune(r):
			cur = append(cur, lowerRune(r, turkish))
			if unicode.IsDigit(r) {
				digit = true
			}
			if unicode.IsUpper(r) {
				capital = true
			}
		case isIgnorable(r):
			// Soft hyphens, zero-width joiners and byte-order marks
			// neither belong to a word nor end it.
		case isApostrophe(r):
			if turkish && len(cur) > 0 {
				for i+1 < len(rs) && (isWordRune(rs[i+1]) || isIgnorable(rs[i+1])) {
					i++
				}
			}
			flush()
		case (r == '.' || r == ',') && len(cur) > 0 && allDigits(cur):
			n := digitRun(rs, i+1)
			after := i + 1 + n
			endsGroup := after >= len(rs) || !isWordRune(rs[after])
			switch {
			case n == 3 && endsGroup:
				// Thousands separator: keep accumulating the number.
			case n > 0 && endsGroup && allZero(rs[i+1:after]):
				i = after - 1
				flush()
			default:
				flush()
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// lowerRune lower-cases one rune. "İ" becomes "i" in every language
// (strings.ToLower would give "i" plus a combining dot, which breaks
// matching); Turkish additionally maps "I" to "ı".
func lowerRune(r rune, turkish bool) rune {
	if r == 'İ' {
		return 'i'
	}
	if turkish {
		return unicode.TurkishCase.ToLower(r)
	}
	return unicode.ToLower(r)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isIgnorable(r rune) bool {
	return unicode.Is(unicode.Cf, r)
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '´', '`':
		return true
	}
	return false
}

func allDigits(rs []rune) bool {
	for _, r := range rs {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func allZero(rs []rune) bool {
	for _, r := range rs {
		if r != '0' {
			return false
		}
	}
	return true
}

// digitRun counts the ASCII digits starting at rs[i].
func digitRun(rs []rune, i int) int {
	n := 0
	for i+n < len(rs) && rs[i+n] >= '0' && rs[i+n] <= '9' {
		n++
	}
	return n
}
