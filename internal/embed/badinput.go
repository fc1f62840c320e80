package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/errs"
)

// shownRunes is how much of a bad input an error message quotes: enough to recognise it,
// not enough to turn an error into a way of reflecting arbitrary text back.
const shownRunes = 60

// bad returns the client error of a refused input.
func bad(format string, args ...any) *errs.Error {
	return errs.Newf(errs.BadRequest, format, args...)
}

// badKey is bad with the catalog key of its message, which takes the same args.
func badKey(key, format string, args ...any) *errs.Error {
	return errs.Coded(errs.BadRequest, key, format, args...)
}

// shown quotes s for an error message: cut to shownRunes runes, with anything that would not
// print as itself (control and format characters, bidi overrides, invalid UTF-8) replaced by
// U+FFFD, so a message can neither break a log line nor reorder the text around it.
func shown(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	n := 0
	for _, r := range s {
		if n == shownRunes {
			b.WriteString("…")
			break
		}
		n++
		if !unicode.IsPrint(r) { // ranging turns invalid UTF-8 into U+FFFD already
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
