package textindex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// foldSpecial lists letters that Unicode decomposition does not reduce to
// an ASCII base letter. ı is the one that matters most: without it
// "nasil" would not match "nasıl".
var foldSpecial = map[rune]string{
	'ı': "i",
	'ß': "ss",
	'æ': "ae",
	'œ': "oe",
	'ø': "o",
	'đ': "d",
	'ð': "d",
	'þ': "th",
	'ł': "l",
	'ħ': "h",
	'ŀ': "l",
	'ſ': "s",
}

// fold maps a lower-cased word to ASCII where a Latin base letter exists
// (ç->c, ş->s, ğ->g, ö->o, ü->u, ä->a, â->a, é->e, ß->ss). Letters of
// other scripts are kept as they are; combining marks are dropped.
func fold(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case r < foldedEnd:
			b.WriteString(folded[r])
		default:
			b.WriteString(foldRune(r))
		}
	}
	return b.String()
}

// foldRune is fold of one non-ASCII rune: its special ASCII form, nothing for a stray
// combining mark (the dot of a decomposed "i̇"), or its decomposition without the marks.
func foldRune(r rune) string {
	switch {
	case foldSpecial[r] != "":
		return foldSpecial[r]
	case unicode.Is(unicode.Mn, r):
		return ""
	}
	var b strings.Builder
	for _, d := range norm.NFD.String(string(r)) {
		switch {
		case unicode.Is(unicode.Mn, d):
		case foldSpecial[d] != "":
			// "ǿ" decomposes to "ø" plus an acute: fold the base too, so that
			// folding is idempotent and "ǿ" matches "ø" and "o".
			b.WriteString(foldSpecial[d])
		default:
			b.WriteRune(d)
		}
	}
	return b.String()
}

// folded holds foldRune of every rune below foldedEnd (the Latin letters of Turkish, German
// and their neighbours), made once: decomposing a letter for every word of every text was a
// fifth of what a new answer allocated (analysing its candidates' sentences), and most of
// the time folding took. It is never written after init.
var folded = func() []string {
	out := make([]string, foldedEnd)
	for r := rune(utf8.RuneSelf); r < foldedEnd; r++ {
		out[r] = foldRune(r)
	}
	return out
}()

// foldedEnd is the first rune folded is not made for: the Latin blocks end before the
// combining marks at U+0300.
const foldedEnd = 0x300

// Fold lower-cases s and maps it to ASCII the way the index does; for slugs and keys that
// must agree with what search sees.
func Fold(s string) string { return fold(strings.ToLower(s)) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
