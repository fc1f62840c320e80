package kb

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// excerptLen is the length of an article excerpt in suggestions: about two lines of a card.
const excerptLen = 160

// excerpt returns the first paragraphs of an article as one line of at most n characters,
// cut at a word boundary with "…" when shortened. Headings are skipped because the card
// already shows the title.
func excerpt(blocks []block, n int) string {
	var parts []string
	for _, b := range blocks {
		if !b.heading {
			parts = append(parts, b.text)
		}
	}
	if len(parts) == 0 {
		for _, b := range blocks {
			parts = append(parts, b.text)
		}
	}
	return truncateWords(collapseSpace(strings.Join(parts, " ")), n)
}

// truncateWords shortens s to at most n characters including the ellipsis.
func truncateWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n-1]
	cut := len(rs)
	for i := len(rs) - 1; i > len(rs)/2; i-- {
		if unicode.IsSpace(rs[i]) {
			cut = i
			break
		}
	}
	t := strings.TrimRightFunc(string(rs[:cut]), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' && r != '"'
	})
	return t + "…"
}
