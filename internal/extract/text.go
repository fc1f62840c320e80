package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// maxDescription bounds a product description: enough for an answer, short enough that a
// CMS dumping a whole page into "description" does not flood the knowledge base.
const maxDescription = 2000

// collapse folds every run of white space (NBSP and the other Unicode spaces included) into
// one space and drops invisible characters shops paste from word processors.
func collapse(s string) string {
	if s == "" {
		return ""
	}
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// cleanText turns a structured-data string into plain text. CMSs fill JSON-LD from rich-text
// fields, so values arrive with tags, entities and sometimes both encoded twice
// ("&lt;p&gt;Text&amp;nbsp;…").
func cleanText(s string) string {
	for i := 0; i < 2 && strings.ContainsAny(s, "<&"); i++ {
		s = html.UnescapeString(stripTags(s))
	}
	if strings.ContainsRune(s, '<') {
		s = stripTags(s)
	}
	return collapse(s)
}

// stripTags removes markup from an HTML snippet, keeping a space where a block element or a
// line break separated words and dropping script and style bodies. It is a tokenizer's
// worth of logic, not a parser: the snippet is a field value, not a page.
func stripTags(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c != '<' || i+1 >= len(s) || !tagStart(s[i+1]) {
			b.WriteByte(c)
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		end := strings.IndexByte(s[i:], '>')
		if end < 0 {
			break // an unterminated tag is debris; what follows it is not text
		}
		name := tagName(s[i+1 : i+end])
		i += end + 1
		if name == "script" || name == "style" {
			closing := indexFold(s[i:], "</"+name)
			if closing < 0 {
				break
			}
			i += closing
			continue
		}
		if blockTagName(name) {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func tagStart(c byte) bool {
	return c == '/' || c == '!' || c == '?' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// tagName is the lower-cased element name of a tag's inside ("/P class=x" → "p").
func tagName(inside string) string {
	inside = strings.TrimPrefix(inside, "/")
	end := strings.IndexFunc(inside, func(r rune) bool { return unicode.IsSpace(r) || r == '/' })
	if end >= 0 {
		inside = inside[:end]
	}
	return strings.ToLower(inside)
}

func blockTagName(name string) bool {
	switch name {
	case "p", "div", "br", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "td", "th",
		"h1", "h2", "h3", "h4", "h5", "h6", "hr", "section", "article", "blockquote", "pre",
		"header", "footer", "figure", "figcaption":
		return true
	}
	return false
}

// indexFold is strings.Index ignoring ASCII case.
func indexFold(s, sub string) int {
	return strings.Index(strings.ToLower(s), strings.ToLower(sub))
}

// truncateText cuts s to at most max runes, at a word boundary when one is near, and marks
// the cut with an ellipsis so a reader knows the text goes on.
func truncateText(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n := 0, 0
	for i := range s {
		if n == max {
			cut = i
			break
		}
		n++
	}
	t := s[:cut]
	if sp := strings.LastIndexByte(t, ' '); sp > 0 && sp > len(t)-200 {
		t = t[:sp]
	}
	return strings.TrimRight(t, " ,;:-") + "…"
}

// sameText compares two names the way a reader would: case and spacing do not matter.
func sameText(a, b string) bool {
	return a != "" && strings.EqualFold(collapse(a), collapse(b))
}

// onlyDigits reports strings such as Google taxonomy ids ("5181") that are not names.
func onlyDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
