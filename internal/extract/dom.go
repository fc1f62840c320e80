package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// attr returns an attribute's value; the parser has already lower-cased attribute names.
func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

// attrOK tells an absent attribute from an empty one: `content=""` still states a value.
func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasAttr(n *html.Node, key string) bool {
	_, ok := attrOK(n, key)
	return ok
}

// walk visits every node below root in document order without recursion, so a page nested
// thousands of levels deep costs no stack. fn returns false to skip a node's subtree.
func walk(root *html.Node, fn func(*html.Node) bool) {
	if root == nil {
		return
	}
	n := root.FirstChild
	for n != nil {
		if fn(n) && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for n != root && n.NextSibling == nil {
			n = n.Parent
		}
		if n == root || n == nil {
			return
		}
		n = n.NextSibling
	}
}

// unseen reports elements whose text a reader never sees: code, templates and the head.
func unseen(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Title,
		atom.Iframe, atom.Svg, atom.Object:
		return true
	}
	return false
}

// blockLevel elements separate words: "<p>a</p><p>b</p>" reads "a b", not "ab".
func blockLevel(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd, atom.Table,
		atom.Tr, atom.Td, atom.Th, atom.Section, atom.Article, atom.Main, atom.Header,
		atom.Footer, atom.Nav, atom.Aside, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Br, atom.Hr, atom.Blockquote, atom.Pre, atom.Figure, atom.Figcaption,
		atom.Form, atom.Address, atom.Details, atom.Summary, atom.Option, atom.Caption,
		atom.Fieldset, atom.Legend, atom.Body, atom.Img:
		return true
	}
	return false
}

// NodeText is the visible text of n with white space collapsed. limit > 0 stops reading after
// about that many bytes, or after visiting 16 nodes per byte of it (so a short text buried
// under thousands of empty elements costs no more than a long one), for callers that only
// care about short texts.
func NodeText(n *html.Node, limit int) string {
	r := textReader{limit: limit, nodes: 16 * limit}
	r.read(n)
	return collapse(r.b.String())
}

// textReader collects the text under a node; skip, when set, leaves out more elements than
// unseen ones.
type textReader struct {
	b     strings.Builder
	limit int // bytes, 0 for no limit
	nodes int // nodes left to visit when limit > 0
	skip  func(*html.Node) bool
}

func (r *textReader) full() bool {
	return r.limit > 0 && (r.b.Len() > r.limit || r.nodes <= 0)
}

func (r *textReader) read(n *html.Node) {
	for c := n.FirstChild; c != nil && !r.full(); c = c.NextSibling {
		r.nodes--
		switch c.Type {
		case html.TextNode:
			r.b.WriteString(c.Data)
		case html.ElementNode:
			if unseen(c) || (r.skip != nil && r.skip(c)) {
				continue
			}
			block := blockLevel(c.DataAtom)
			if block {
				r.b.WriteByte(' ')
			}
			r.read(c)
			if block {
				r.b.WriteByte(' ')
			}
		}
	}
}

// body returns the <body> element, or doc itself for a fragment without one.
func body(doc *html.Node) *html.Node {
	var found *html.Node
	walk(doc, func(n *html.Node) bool {
		if found != nil {
			return false
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Body {
			found = n
			return false
		}
		return true
	})
	if found == nil {
		return doc
	}
	return found
}

// hasClassPart reports whether n's class or id contains one of parts (case-insensitive), the
// way themes name price and breadcrumb elements ("product-price", "urun-fiyat", "preis").
func hasClassPart(n *html.Node, parts ...string) bool {
	cls := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	for _, p := range parts {
		if strings.Contains(cls, p) {
			return true
		}
	}
	return false
}

// docOrder numbers every element in document order, so products found by different readers
// (JSON-LD, microdata) can be put back in the order the page shows them.
func docOrder(doc *html.Node) map[*html.Node]int {
	order := map[*html.Node]int{}
	i := 0
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			order[n] = i
			i++
		}
		return true
	})
	return order
}
