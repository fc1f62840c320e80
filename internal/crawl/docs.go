package crawl

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"svc/internal/extract"
	"svc/internal/kb"
)

// docSegments are path segments under which a site keeps its documentation, guides, manuals
// and FAQ, in the three languages. A page below one (or named one, "/en/faq/") that has some
// prose of its own is documentation even without help-centre markup.
var docSegments = map[string]bool{
	"docs": true, "doc": true, "documentation": true, "guide": true, "guides": true, "user-guides": true,
	"userguides": true, "help": true, "kb": true, "knowledge-base": true, "knowledgebase": true, "manual": true,
	"manuals": true, "handbook": true, "resources": true, "tutorials": true, "tutorial": true, "how-to": true,
	"howto": true, "faq": true, "faqs": true, "support": true, "wiki": true, "learn": true, "articles": true,
	"article": true, "hc": true, "help-center": true, "helpcenter": true,
	"yardim": true, "destek": true, "rehber": true, "rehberler": true, "kilavuz": true, "kullanim-kilavuzu": true,
	"belgeler": true, "dokumanlar": true, "sss": true, "makaleler": true, "makale": true, "bilgi-bankasi": true,
	"hilfe": true, "dokumentation": true, "doku": true, "anleitung": true, "anleitungen": true, "handbuch": true,
	"ratgeber": true, "wissen": true, "haeufige-fragen": true, "artikel": true, "hilfe-center": true,
}

// notDocSegments are pages a site has besides its documentation that must not become
// articles however much text they hold: contact, legal, company and account pages (unless
// they sit below a documentation segment, where the word names a guide's subject).
var notDocSegments = map[string]bool{
	"contact": true, "contact-us": true, "kontakt": true, "iletisim": true, "impressum": true, "imprint": true,
	"legal": true, "privacy": true, "privacy-policy": true, "datenschutz": true, "datenschutzerklaerung": true,
	"gizlilik": true, "gizlilik-politikasi": true, "kvkk": true, "terms": true, "terms-of-service": true,
	"terms-and-conditions": true, "tos": true, "agb": true, "nutzungsbedingungen": true, "kullanim-kosullari": true,
	"cookies": true, "cookie-policy": true, "cerez-politikasi": true, "about": true, "about-us": true,
	"hakkimizda": true, "ueber-uns": true, "uber-uns": true, "careers": true, "jobs": true, "kariyer": true,
	"karriere": true, "press": true, "presse": true, "basin": true, "cart": true, "checkout": true, "login": true,
	"signin": true, "register": true, "account": true, "sepet": true, "warenkorb": true, "kasse": true,
}

// Thresholds of documentation, in characters of the page's own text (outside links and
// chrome). A glossary entry under /docs/ has a few hundred; a page anywhere else must read
// as structured text: several sections and the length of a real guide.
const (
	docMinUnderPath = 200
	docMinAnywhere  = 1200
	docMinSections  = 2
)

// docShape is what the classifier measures on a page's content.
type docShape struct {
	own, linked int // characters of text outside and inside links, chrome left out
	sections    int // h2–h4 headings outside chrome
}

func shapeOf(doc *html.Node) docShape {
	var s docShape
	s.own, s.linked = textShares(doc)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Head || kb.IsChrome(n) {
				return
			}
			switch n.DataAtom {
			case atom.H2, atom.H3, atom.H4:
				s.sections++
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return s
}

// docArticleOf decides whether a page without help-centre markup reads as documentation: not a
// home page, not a contact, legal or account page, not a list of links, and either below a
// documentation path with some prose, or long structured text anywhere. Its category is the
// breadcrumb's (catName, catSlug) when it has one, else the site section its URL lives in.
func docArticleOf(doc *html.Node, u *url.URL, catName, catSlug string) (articleMeta, bool) {
	raw, off := contentPath(u)
	segs := raw[off:]
	if len(segs) == 0 {
		return articleMeta{}, false // a home page or a language root
	}
	underDocs := false
	for i, raw := range segs {
		s := slugOf(raw)
		// A file named like a listing ("/glossary/tag.html") is an entry, not the tag pages.
		file := i == len(segs)-1 && strings.Contains(raw, ".")
		// Below a documentation segment, "account" or "privacy" is the subject of a guide
		// ("/docs/account.html", a glossary's entry), not the site's account or legal page.
		if listingSegments[s] && !file || notDocSegments[s] && !underDocs {
			return articleMeta{}, false
		}
		if docSegments[s] {
			underDocs = true
		}
	}
	sh := shapeOf(doc)
	if 2*sh.linked > sh.own {
		return articleMeta{}, false // more a list of links than prose
	}
	if children(doc, u) >= sectionIndexChildren {
		return articleMeta{}, false // a section's index: its pages are the articles
	}
	switch {
	case underDocs && sh.own >= docMinUnderPath:
	case sh.own >= docMinAnywhere && sh.sections >= docMinSections:
	default:
		return articleMeta{}, false
	}
	a := articleMeta{slug: slugOf(segs[len(segs)-1]), categoryName: catName, categorySlug: catSlug}
	if catName == "" {
		a.categorySlug, a.categoryName = section(doc, u, raw, off)
	}
	return a, true
}

// contentPath is the URL's path segments (case kept) without a trailing index file, and the
// offset of the content below a leading language root ("en", "de-de"), if any.
func contentPath(u *url.URL) ([]string, int) {
	var raw []string
	for _, s := range strings.Split(u.Path, "/") {
		if s != "" {
			raw = append(raw, s)
		}
	}
	if n := len(raw); n > 0 && strings.HasPrefix(strings.ToLower(raw[n-1]), "index.") {
		raw = raw[:n-1]
	}
	if len(raw) > 0 && isLangRoot(strings.ToLower(raw[0])) {
		return raw, 1
	}
	return raw, 0
}

// isLangRoot tells a language segment ("tr", "en-us", "de_DE") from a word.
func isLangRoot(s string) bool {
	if len(s) == 2 {
		return s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z'
	}
	return len(s) == 5 && (s[2] == '-' || s[2] == '_') && isLangRoot(s[:2])
}

// section is the site section a documentation page lives in: the parent of its URL path, or
// the page's own segment when it sits at the top ("/en/faq/"). The name is the site's own
// link text for that section when the page links to it (its nav, an "up" link), else the
// segment made readable. Both come from the URL and the site's navigation, so a re-crawl
// finds the same category.
func section(doc *html.Node, u *url.URL, raw []string, off int) (slug, name string) {
	i := len(raw) - 2
	if i < off {
		i = off
	}
	seg := raw[i]
	if t := linkText(doc, u, "/"+strings.Join(raw[:i+1], "/")); t != "" {
		return slugOf(seg), t
	}
	return slugOf(seg), prettySegment(seg)
}

// linkText is the text of the page's first link to secPath (with or without a trailing slash
// or index file) that reads as a name: a few words, not a sentence.
func linkText(doc *html.Node, u *url.URL, secPath string) string {
	want := strings.ToLower(strings.TrimSuffix(secPath, "/"))
	var found string
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			if target, err := u.Parse(strings.TrimSpace(attr(n, "href"))); err == nil && attr(n, "href") != "" &&
				target.Host == u.Host {
				p := strings.ToLower(target.Path)
				for _, idx := range []string{"index.html", "index.htm", "index.php"} {
					p = strings.TrimSuffix(p, idx)
				}
				if strings.TrimSuffix(p, "/") == want {
					if t := extract.NodeText(n, 256); t != "" && utf8.RuneCountInString(t) <= 60 &&
						len(strings.Fields(t)) <= 6 {
						found = t
						return true
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(doc)
	return found
}

// prettySegment makes a URL segment a section name: "user-guides" → "User guides".
func prettySegment(seg string) string {
	if dec, err := url.PathUnescape(seg); err == nil {
		seg = dec
	}
	for _, ext := range []string{".html", ".htm", ".php", ".aspx"} {
		seg = strings.TrimSuffix(seg, ext)
	}
	words := strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '+' || unicode.IsSpace(r) })
	s := strings.Join(words, " ")
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return ""
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// sectionIndexChildren is how many pages below its own path a page must link to to be the
// index of a section (a glossary's list of entries with their summaries has prose enough to
// pass for an article, but its entries are the articles).
const sectionIndexChildren = 3

// children counts the distinct pages below u's path that the page links to.
func children(doc *html.Node, u *url.URL) int {
	dir := strings.ToLower(u.Path)
	i := strings.LastIndex(dir, "/")
	if i < 0 || (i < len(dir)-1 && !strings.HasPrefix(dir[i+1:], "index.")) {
		return 0 // a file ("/en/glossary/node.html") has siblings, not pages below it
	}
	dir = dir[:i+1] // "/en/glossary/" for "/en/glossary/" and "/en/glossary/index.html"
	seen := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.A && attr(n, "href") != "" {
			if t, err := u.Parse(strings.TrimSpace(attr(n, "href"))); err == nil && t.Host == u.Host {
				p := strings.ToLower(t.Path)
				if len(p) > len(dir) && strings.HasPrefix(p, dir) && !strings.HasPrefix(p[len(dir):], "index.") {
					seen[p] = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return len(seen)
}
