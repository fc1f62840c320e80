package sqlstore

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ClipWords shortens s to at most n characters, the ellipsis included, cutting at a word
// boundary when one is in the second half of the allowance.
func ClipWords(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	all := []rune(s)
	rs := all[:n-1]
	cut := len(rs)
	if !unicode.IsSpace(all[n-1]) {
		for i := len(rs) - 1; i > len(rs)/2; i-- {
			if unicode.IsSpace(rs[i]) {
				cut = i
				break
			}
		}
	}
	return strings.TrimRightFunc(string(rs[:cut]), unicode.IsSpace) + "…"
}
