package kb

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropped elements carry site chrome or code, not content: indexing them would make every
// page of a site match "menu", "cookie" or "login".
var dropped = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Nav: true, atom.Header: true,
	atom.Footer: true, atom.Aside: true, atom.Form: true, atom.Noscript: true,
	atom.Template: true, atom.Iframe: true, atom.Svg: true, atom.Button: true,
	atom.Select: true, atom.Object: true, atom.Canvas: true, atom.Dialog: true,
}

// blockLevel elements end the text run before them and start a new one.
var blockLevel = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.Dt: true, atom.Dd: true, atom.Table: true, atom.Tr: true, atom.Section: true,
	atom.Article: true, atom.Main: true, atom.Blockquote: true, atom.Pre: true,
	atom.Figure: true, atom.Figcaption: true, atom.Address: true, atom.Details: true,
	atom.Summary: true, atom.Br: true, atom.Hr: true, atom.Body: true, atom.Caption: true,
	atom.Fieldset: true, atom.Legend: true,
}

// headings are the heading elements by level.
var headings = map[atom.Atom]int{
	atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6,
}

// htmlBlocks parses an HTML body (a whole document or a fragment) into headings and
// paragraphs, with entities decoded and white space collapsed. A whole document goes through
// main-content extraction first. It also returns the page's title, when there is one.
func htmlBlocks(s string) ([]block, string) {
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil { // html.Parse only fails on reader errors; a string reader has none
		return textBlocks(s), ""
	}
	if wholeDocumentRE.MatchString(s) {
		return documentBlocks(doc)
	}
	return nodeBlocks(doc)
}

// nodeBlocks walks a parsed tree; it also returns the text of the <title> element, which
// lives in <head> and is otherwise dropped.
func nodeBlocks(n *html.Node) ([]block, string) {
	w := htmlWalker{}
	w.walk(n)
	w.flush(0)
	return w.blocks, collapseSpace(w.title)
}

type htmlWalker struct {
	blocks []block
	run    strings.Builder
	title  string
}

// flush ends the current text run as a block: a heading of that level, or a paragraph (0).
func (w *htmlWalker) flush(level int) {
	t := collapseSpace(w.run.String())
	w.run.Reset()
	if t != "" {
		w.blocks = append(w.blocks, block{heading: level > 0, level: level, text: t})
	}
}

func (w *htmlWalker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.run.WriteString(n.Data)
		return
	case html.ElementNode:
		if n.DataAtom == atom.Title && w.title == "" {
			w.title = textOf(n)
			return
		}
		if n.DataAtom == atom.Head {
			// <title> is the only part of <head> worth keeping.
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.DataAtom == atom.Title && w.title == "" {
					w.title = textOf(c)
				}
			}
			return
		}
		if dropped[n.DataAtom] || hiddenNode(n) || chromeNode(n) {
			return
		}
		switch {
		case headings[n.DataAtom] > 0:
			w.flush(0)
			w.children(n)
			w.flush(headings[n.DataAtom])
			return
		case blockLevel[n.DataAtom] && inPageLinks(n):
			return // the page's table of contents or tabs: its own headings again
		case blockLevel[n.DataAtom]:
			w.flush(0)
			w.children(n)
			w.flush(0)
			return
		case n.DataAtom == atom.Td || n.DataAtom == atom.Th:
			w.run.WriteString(" ")
			w.children(n)
			w.run.WriteString(" ")
			return
		case n.DataAtom == atom.Img:
			// Alt text is often the only description of a product photo.
			if alt := attr(n, "alt"); alt != "" {
				w.run.WriteString(" " + alt + " ")
			}
			return
		}
	case html.CommentNode, html.DoctypeNode:
		return
	}
	w.children(n)
}

func (w *htmlWalker) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

// chromeRoles are ARIA landmark and widget roles of site chrome.
var chromeRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "search": true, "complementary": true,
	"dialog": true, "alertdialog": true, "menu": true, "menubar": true, "toolbar": true,
}

// chromeTokens are words of class names and ids that real sites give their chrome when it is
// built from divs: cookie banners, mega menus, newsletter boxes, "customers also bought"
// carousels (whose product names must not read as this page's facts).
var chromeTokens = map[string]bool{
	"cookie": true, "cookies": true, "consent": true, "gdpr": true, "newsletter": true, "breadcrumb": true,
	"breadcrumbs": true, "navbar": true, "nav": true, "navigation": true, "menu": true, "megamenu": true,
	"sidebar": true, "footer": true, "copyright": true, "related": true, "share": true, "sharing": true,
	"social": true, "popup": true, "modal": true, "skip": true, "toolbar": true, "announcement": true,
	"carousel": true, "recommendations": true, "upsell": true, "crosssell": true, "minicart": true,
}

// chromeNode reports an element that is site chrome by its role or its class and id words.
func chromeNode(n *html.Node) bool {
	if n.DataAtom == atom.Body || n.DataAtom == atom.Html || n.DataAtom == atom.Main || n.DataAtom == atom.Article {
		return false
	}
	if chromeRoles[strings.ToLower(strings.TrimSpace(attr(n, "role")))] {
		return true
	}
	words := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	for _, tok := range strings.FieldsFunc(words, func(r rune) bool { return r == ' ' || r == '-' || r == '_' || r == '\t' || r == '\n' }) {
		if chromeTokens[tok] {
			return true
		}
	}
	return false
}

// hiddenNode reports elements the visitor never sees (cookie banners, modal templates).
func hiddenNode(n *html.Node) bool {
	if _, ok := attrOK(n, "hidden"); ok {
		return true
	}
	if attr(n, "aria-hidden") == "true" {
		return true
	}
	style := strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", "")
	return strings.Contains(style, "display:none") || strings.Contains(style, "visibility:hidden")
}

// inPageLinks reports an element whose text is all links to places on the same page
// ("#ransomware"): a table of contents, tabs or a "show more" control. It repeats the
// headings of the sections it points to, so a question about any of them matched it, and it
// answers nothing.
func inPageLinks(n *html.Node) bool {
	links := 0
	var own func(*html.Node) bool // whether n holds text outside in-page links
	own = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if strings.TrimSpace(c.Data) != "" {
					return true
				}
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.A && strings.HasPrefix(strings.TrimSpace(attr(c, "href")), "#"):
				links++
			case c.DataAtom == atom.A || c.DataAtom == atom.Img || own(c):
				return true // another link, an image's alt text or text of its own
			}
		}
		return false
	}
	return !own(n) && links > 0
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

// IsChrome reports whether the cleaner skips element n and everything inside it: site
// chrome, hidden elements, scripts and forms. The crawler uses it to measure a page's own text.
func IsChrome(n *html.Node) bool {
	return n.Type == html.ElementNode && n.DataAtom != atom.Head && (dropped[n.DataAtom] || hiddenNode(n) || chromeNode(n))
}
