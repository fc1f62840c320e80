package grounding

import (
	"regexp"
	"strings"
)

var (
	// emailRe finds e-mail addresses; a made-up contact address is as wrong as a made-up link.
	emailRe = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	// urlRe finds links with a scheme or "www.", and bare domains under the endings shops use
	// (".com", ".com.tr", ".de"; ".example" for tests and the demo). Abbreviations such as
	// "z.B." or "e.g." end in no such ending.
	urlRe = regexp.MustCompile(`(?i)(?:https?://|www\.)[^\s<>()"'\x1f]+|\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|shop|store|de|at|ch|tr|eu|info|biz|app|online|example)(?:\.tr|\.uk)?\b(?:/[^\s<>()"'\x1f]*)?`)
)

// scanLinks returns the e-mail addresses and links of text and the text with them blanked,
// so that the digits and words inside a link are not read as claims of their own.
func scanLinks(text string) ([]fact, string) {
	var out []fact
	var seen [][2]int
	if !strings.Contains(text, "@") && !mayLink(text) {
		return nil, text
	}
	for _, m := range emailRe.FindAllStringIndex(text, -1) {
		s := text[m[0]:m[1]]
		out = append(out, fact{kind: kindEmail, text: s, key: strings.ToLower(s)})
		seen = append(seen, [2]int{m[0], m[1]})
	}
	text = blank(text, seen)
	seen = seen[:0]
	for _, m := range urlRe.FindAllStringIndex(text, -1) {
		s := strings.TrimRight(text[m[0]:m[1]], ".,;:!?)»”’*_")
		if s == "" {
			continue
		}
		out = append(out, fact{kind: KindURL, text: s, key: normURL(s)})
		seen = append(seen, [2]int{m[0], m[0] + len(s)})
	}
	return out, blank(text, seen)
}

// linkEndings are what a text must contain for urlRe to find anything in it.
var linkEndings = []string{"://", "www.", ".com", ".net", ".org", ".io", ".co", ".shop", ".store", ".de", ".at",
	".ch", ".tr", ".eu", ".info", ".biz", ".app", ".online", ".example"}

// mayLink is a cheap test before urlRe: whether text holds a scheme, "www." or an ending.
func mayLink(text string) bool {
	l := strings.ToLower(text)
	for _, e := range linkEndings {
		if strings.Contains(l, e) {
			return true
		}
	}
	return false
}

// normURL is the form in which links compare: no scheme, no "www.", host lower-cased, no
// trailing slash.
func normURL(s string) string {
	s = strings.TrimRight(s, ".,;:!?)»”’*_")
	l := strings.ToLower(s)
	for _, p := range []string{"https://", "http://"} {
		if strings.HasPrefix(l, p) {
			s, l = s[len(p):], l[len(p):]
		}
	}
	if strings.HasPrefix(l, "www.") {
		s, l = s[4:], l[4:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = l[:i] + s[i:]
	} else {
		s = l
	}
	return strings.TrimRight(s, "/")
}

// urlHost returns the host of a normalised link.
func urlHost(n string) string {
	if i := strings.IndexAny(n, "/?#"); i >= 0 {
		return n[:i]
	}
	return n
}

// linkSupported reports whether a normalised link is one the sources give, the site of one,
// or a parent page of one ("site.example/kamp" when the sources link "site.example/kamp/cadir").
// A page the sources never link — a campaign page the model made up — is not.
func linkSupported(n string, known []string) bool {
	for _, k := range known {
		if n == k || n == urlHost(k) || strings.HasPrefix(k, n+"/") {
			return true
		}
	}
	return false
}
