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
			b.WriteRune(r)
		case foldSpecial[r] != "":
			b.WriteString(foldSpecial[r])
		case unicode.Is(unicode.Mn, r):
			// A stray combining mark, e.g. the dot of a decomposed "i̇".
		default:
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
		}
	}
	return b.String()
}

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
