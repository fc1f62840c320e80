package crawl

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"svc/internal/kb"
)

// pageInfo is what the crawler itself reads from a page: where it links, what it says about
// its own URL, language and indexing.
type pageInfo struct {
	links     []*url.URL // absolute, not yet normalised or scoped
	canonical *url.URL
	lang      string // primary subtag of <html lang> or Content-Language meta, lower case
	noindex   bool
	nofollow  bool
}

// readPage walks the parsed document once. Links resolve against <base href> when the page
// sets one, as browsers do.
func readPage(doc *html.Node, pageURL *url.URL) pageInfo {
	var info pageInfo
	base := pageURL
	var hrefs []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Html:
				info.lang = primaryLang(attr(n, "lang"))
				if info.lang == "" {
					info.lang = primaryLang(attr(n, "xml:lang"))
				}
			case atom.Base:
				if b, err := pageURL.Parse(strings.TrimSpace(attr(n, "href"))); err == nil && attr(n, "href") != "" {
					base = b
				}
			case atom.Link:
				if hasToken(attr(n, "rel"), "canonical") && info.canonical == nil {
					if c, err := pageURL.Parse(strings.TrimSpace(attr(n, "href"))); err == nil && attr(n, "href") != "" {
						info.canonical = c
					}
				}
			case atom.Meta:
				name := strings.ToLower(attr(n, "name"))
				content := strings.ToLower(attr(n, "content"))
				if name == "robots" || name == robotsAgent {
					if strings.Contains(content, "noindex") || strings.Contains(content, "none") {
						info.noindex = true
					}
					if strings.Contains(content, "nofollow") || strings.Contains(content, "none") {
						info.nofollow = true
					}
				}
				if strings.EqualFold(attr(n, "http-equiv"), "content-language") && info.lang == "" {
					info.lang = primaryLang(content)
				}
			case atom.A, atom.Area:
				if h := strings.TrimSpace(attr(n, "href")); h != "" && !hasToken(attr(n, "rel"), "nofollow") {
					hrefs = append(hrefs, h)
				}
			case atom.Script, atom.Style, atom.Template:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, h := range hrefs {
		lower := strings.ToLower(h)
		if strings.HasPrefix(lower, "javascript:") || strings.HasPrefix(lower, "mailto:") ||
			strings.HasPrefix(lower, "tel:") || strings.HasPrefix(lower, "data:") || strings.HasPrefix(lower, "#") {
			continue
		}
		if u, err := base.Parse(h); err == nil {
			info.links = append(info.links, u)
		}
	}
	return info
}

// primaryLang turns "tr-TR", "de_DE" or "EN" into "tr", "de", "en".
func primaryLang(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexAny(v, "-_,; "); i >= 0 {
		v = v[:i]
	}
	return v
}

func hasToken(list, token string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == token {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// textShares counts the characters of a page's content outside links and inside links.
// Home pages, category pages and tag pages are lists of links to the pages that hold the
// facts; stored, they would compete with those pages for every question while answering none.
func textShares(doc *html.Node) (own, linked int) {
	var walk func(*html.Node, bool)
	walk = func(x *html.Node, inLink bool) {
		switch {
		case x.Type == html.TextNode:
			n := utf8.RuneCountInString(strings.TrimSpace(x.Data))
			if inLink {
				linked += n
			} else {
				own += n
			}
			return
		case x.Type == html.ElementNode && (x.DataAtom == atom.Head || kb.IsChrome(x)):
			return
		case x.Type == html.ElementNode && x.DataAtom == atom.A:
			inLink = true
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inLink)
		}
	}
	walk(doc, false)
	return own, linked
}
