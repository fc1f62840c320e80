package grounding

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/textindex"
)

// word is one word of a text as the guard's rules see it. The rules need more than the
// analyzer's terms give: where the word stands (to blank it or quote it), whether it was
// capitalised (names) and what separated it from the word before (hyphenated compounds
// such as "gluten-free" are not a "free" claim; a name does not run across a comma).
type word struct {
	raw        string // as written
	fold       string // lower-cased and ASCII-folded the way the index folds
	start, end int    // byte offsets in the text
	upper      bool   // starts with an upper-case letter
	digits     bool   // holds a digit
	hyphen     bool   // a hyphen alone separates it from the word before ("30-day")
	joined     bool   // only white space or a hyphen separates it from the word before
	clause     bool   // no punctuation separates it from the word before (a blanked name may)
}

// scanWords cuts text into words. A word is a run of letters, digits and marks, with three
// exceptions that generated copy needs:
//
//   - a "." or "," between two digits stays inside the number ("1.299,90");
//   - the letters after an apostrophe are a suffix and are dropped ("Kargo'da", "Friday's"),
//     as the analyzer does for Turkish;
//   - camel case is split ("BlackFriday", "UcretsizKargo"), because hashtags join words.
func scanWords(text string) []word {
	var out []word
	start := -1
	prevEnd := 0
	emit := func(end int) {
		if start < 0 {
			return
		}
		raw := text[start:end]
		gap := text[prevEnd:start]
		if len(out) == 0 {
			gap = " "
		}
		w := word{raw: raw, fold: textindex.Fold(raw), start: start, end: end}
		first, _ := utf8.DecodeRuneInString(raw)
		w.upper = unicode.IsUpper(first)
		w.digits = strings.IndexFunc(raw, unicode.IsDigit) >= 0
		trimmed := strings.TrimSpace(gap)
		w.hyphen = trimmed == "-" || trimmed == "‐"
		w.joined = trimmed == "" || w.hyphen
		if len(out) > 0 && gap == "" {
			w.joined = true // a camel-case split
		}
		w.clause = w.joined || strings.Trim(trimmed, "\x1f") == ""
		out = append(out, w)
		prevEnd = end
		start = -1
	}
	var prev rune
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			if start >= 0 && unicode.IsUpper(r) && unicode.IsLower(prev) {
				emit(i)
			}
			if start < 0 {
				start = i
			}
		case (r == '.' || r == ',') && start >= 0 && unicode.IsDigit(prev) && digitAt(text, i+size):
			// inside a number
		case isApostrophe(r) && start >= 0 && letterAt(text, i+size):
			emit(i)
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) {
					break
				}
				j += s2
			}
			prevEnd = j
			prev = r
			i = j
			continue
		default:
			emit(i)
		}
		prev = r
		i += size
	}
	emit(len(text))
	return out
}

// isWordRune reports whether r belongs to a word, as the analyzer's tokenizer decides.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// isApostrophe reports whether r is one of the apostrophes a suffix or contraction follows.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '´':
		return true
	}
	return false
}

// digitAt reports whether a digit starts s[i:].
func digitAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[min(i, len(s)):])
	return unicode.IsDigit(r)
}

// letterAt reports whether a letter starts s[i:].
func letterAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[min(i, len(s)):])
	return unicode.IsLetter(r)
}

// folds returns the folded forms of words.
func folds(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.fold
	}
	return out
}

// isStop reports whether a folded word is a stop word in any of the three languages:
// generated copy mixes them ("The", "Unser", "Bu" before a name are not part of it).
func isStop(fold string) bool {
	return textindex.IsStopWord(fold, "en") || textindex.IsStopWord(fold, "de") || textindex.IsStopWord(fold, "tr")
}

// blank overwrites the [start, end) ranges of text with a separator of the same byte length,
// so that offsets stay valid and nothing on either side joins across them.
func blank(text string, ranges [][2]int) string {
	if len(ranges) == 0 {
		return text
	}
	b := []byte(text)
	for _, r := range ranges {
		for i := r[0]; i < r[1]; i++ {
			b[i] = '\x1f'
		}
	}
	return string(b)
}
