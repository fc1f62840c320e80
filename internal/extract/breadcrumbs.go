package extract

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Crumb is one step of a page's breadcrumb trail. URL is absolute, or "" for a step
// without a link (usually the current page).
type Crumb struct{ Name, URL string }

// Breadcrumbs returns the page's breadcrumb trail from, in order of trust, a JSON-LD
// BreadcrumbList, a microdata BreadcrumbList, or a breadcrumb navigation in the HTML
// (nav[aria-label*=breadcrumb i], .breadcrumb, .breadcrumbs, ol/ul with a class containing
// "breadcrumb"). pageURL resolves relative links. It returns nil when the page has none.
func Breadcrumbs(doc *html.Node, pageURL *url.URL) []Crumb {
	if doc == nil {
		return nil
	}
	return pageCrumbs(doc, readLD(doc), readMicrodata(doc), pageURL)
}

func pageCrumbs(doc *html.Node, ld ldDoc, items []*mdItem, base *url.URL) []Crumb {
	if c := ld.breadcrumbs(base); len(c) > 0 {
		return c
	}
	if c := mdBreadcrumbs(items, base); len(c) > 0 {
		return c
	}
	return htmlBreadcrumbs(doc, base)
}

// rankedCrumb is a crumb with the position its source states, for sorting.
type rankedCrumb struct {
	Crumb
	pos    int
	hasPos bool
}

// sortCrumbs orders crumbs by their stated positions when all have one (JSON-LD does not
// promise array order), else keeps the order of the page.
func sortCrumbs(list []rankedCrumb) []Crumb {
	all := len(list) > 0
	for _, c := range list {
		all = all && c.hasPos
	}
	if all {
		slices.SortStableFunc(list, func(a, b rankedCrumb) int { return a.pos - b.pos })
	}
	out := make([]Crumb, 0, len(list))
	for _, c := range list {
		out = append(out, c.Crumb)
	}
	return out
}

func position(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil && n > -1000000 && n < 1000000
}

// breadcrumbs returns the first non-empty BreadcrumbList of the page's JSON-LD.
func (d ldDoc) breadcrumbs(base *url.URL) []Crumb {
	var found []Crumb
	for _, b := range d.blocks {
		for _, v := range b.values {
			ldVisit(v, 0, func(o map[string]any) bool {
				if found != nil {
					return false
				}
				if !hasType(ldTypes(o), "BreadcrumbList") {
					return true
				}
				if c := d.crumbList(o, base); len(c) > 0 {
					found = c
				}
				return false
			})
		}
	}
	return found
}

func (d ldDoc) crumbList(o map[string]any, base *url.URL) []Crumb {
	var list []rankedCrumb
	for _, li := range d.objects(o["itemListElement"]) {
		name := cleanText(ldString(li["name"]))
		link := ""
		switch it := d.deref(li["item"]).(type) {
		case string:
			link = resolveURL(base, it)
		case map[string]any:
			if name == "" {
				name = cleanText(ldString(it["name"]))
			}
			link = resolveURL(base, ldString(it["url"]))
			if link == "" {
				link = resolveURL(base, ldString(it["@id"]))
			}
		}
		if link == "" {
			link = resolveURL(base, ldString(li["url"]))
		}
		if name == "" {
			continue
		}
		pos, ok := position(ldString(li["position"]))
		list = append(list, rankedCrumb{Crumb: Crumb{Name: name, URL: link}, pos: pos, hasPos: ok})
	}
	return sortCrumbs(list)
}

// mdBreadcrumbs returns the first non-empty microdata BreadcrumbList, wherever it nests.
func mdBreadcrumbs(items []*mdItem, base *url.URL) []Crumb {
	var found []Crumb
	var visit func(it *mdItem, depth int)
	visit = func(it *mdItem, depth int) {
		if found != nil || depth > maxItemDepth {
			return
		}
		if it.is("BreadcrumbList") {
			if c := mdCrumbList(it, base); len(c) > 0 {
				found = c
			}
			return
		}
		for _, p := range it.props {
			if p.item != nil {
				visit(p.item, depth+1)
			}
		}
	}
	for _, it := range items {
		visit(it, 0)
	}
	return found
}

func mdCrumbList(list *mdItem, base *url.URL) []Crumb {
	var out []rankedCrumb
	for _, p := range list.all("itemListElement") {
		li := p.item
		if li == nil { // itemprop on a plain link, without a ListItem
			if name := crumbName(p.text()); name != "" {
				out = append(out, rankedCrumb{Crumb: Crumb{Name: name, URL: p.link(base)}})
			}
			continue
		}
		name := crumbName(li.text("name"))
		link := ""
		for _, ip := range li.all("item") {
			if ip.item != nil {
				if name == "" {
					name = crumbName(ip.item.text("name"))
				}
				link = ip.item.ownURL(base)
			} else {
				link = ip.link(base)
				if name == "" {
					name = crumbName(ip.text())
				}
			}
			break
		}
		if link == "" {
			link = li.link("url", base)
		}
		if name == "" {
			continue
		}
		pos, ok := position(li.text("position"))
		out = append(out, rankedCrumb{Crumb: Crumb{Name: name, URL: link}, pos: pos, hasPos: ok})
	}
	return sortCrumbs(out)
}

// htmlBreadcrumbs reads the first breadcrumb navigation of the page that yields crumbs.
func htmlBreadcrumbs(doc *html.Node, base *url.URL) []Crumb {
	var out []Crumb
	walk(doc, func(n *html.Node) bool {
		if out != nil {
			return false
		}
		if n.Type != html.ElementNode {
			return true
		}
		if unseen(n) {
			return false
		}
		if !crumbContainer(n) {
			return true
		}
		if c := crumbsIn(n, base); len(c) > 0 {
			out = c
		}
		return false
	})
	return out
}

// crumbContainer recognises the elements themes wrap breadcrumbs in.
func crumbContainer(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Nav, atom.Ol, atom.Ul, atom.Div, atom.P, atom.Section, atom.Header:
	default:
		return false
	}
	label := strings.ToLower(attr(n, "aria-label"))
	for _, w := range [...]string{"breadcrumb", "brotkr", "sayfa yolu", "ekmek kırıntısı"} {
		if strings.Contains(label, w) {
			return true
		}
	}
	cls := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	if n.DataAtom == atom.Ol || n.DataAtom == atom.Ul || n.DataAtom == atom.Nav {
		return strings.Contains(cls, "breadcrumb")
	}
	for _, tok := range strings.Fields(cls) {
		if tok == "breadcrumb" || tok == "breadcrumbs" || strings.HasPrefix(tok, "breadcrumb-") ||
			strings.HasPrefix(tok, "breadcrumbs-") || strings.HasPrefix(tok, "breadcrumb_") {
			return true
		}
	}
	return false
}

// crumbHidden reports what a breadcrumb shows only to screen readers or not at all:
// "You are here:" labels and separator icons.
func crumbHidden(n *html.Node) bool {
	if strings.EqualFold(attr(n, "aria-hidden"), "true") || hasAttr(n, "hidden") {
		return true
	}
	return hasClassPart(n, "sr-only", "visually-hidden", "visuallyhidden", "screen-reader", "separator", "divider")
}

// crumbsIn reads the crumbs of a breadcrumb container: one per innermost list item when it
// is a list, else one per link and per piece of text between separators.
func crumbsIn(c *html.Node, base *url.URL) []Crumb {
	var items []*html.Node
	walk(c, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		if unseen(n) || crumbHidden(n) {
			return false
		}
		if n.DataAtom == atom.Li && !hasDescendant(n, atom.Li) {
			items = append(items, n)
			return false
		}
		return true
	})
	var out []Crumb
	if len(items) > 0 {
		for _, li := range items {
			r := textReader{limit: 400, nodes: 6400, skip: crumbHidden}
			r.read(li)
			name := crumbName(r.b.String())
			if name == "" || strings.HasSuffix(name, ":") {
				continue
			}
			link := ""
			walk(li, func(n *html.Node) bool {
				if link == "" && n.Type == html.ElementNode && n.DataAtom == atom.A {
					link = resolveURL(base, attr(n, "href"))
				}
				return link == ""
			})
			out = append(out, Crumb{Name: name, URL: link})
		}
		return out
	}
	walk(c, func(n *html.Node) bool {
		switch {
		case n.Type == html.ElementNode && (unseen(n) || crumbHidden(n)):
			return false
		case n.Type == html.ElementNode && n.DataAtom == atom.A:
			r := textReader{limit: 400, nodes: 6400, skip: crumbHidden}
			r.read(n)
			if name := crumbName(r.b.String()); name != "" {
				out = append(out, Crumb{Name: name, URL: resolveURL(base, attr(n, "href"))})
			}
			return false
		case n.Type == html.TextNode:
			for _, piece := range strings.FieldsFunc(strings.ReplaceAll(n.Data, " / ", "›"), splitSeparator) {
				if name := crumbName(piece); name != "" && !strings.HasSuffix(name, ":") {
					out = append(out, Crumb{Name: name})
				}
			}
		}
		return true
	})
	return out
}

func hasDescendant(n *html.Node, a atom.Atom) bool {
	found := false
	walk(n, func(c *html.Node) bool {
		if c.Type == html.ElementNode && c.DataAtom == a {
			found = true
		}
		return !found
	})
	return found
}

func crumbSeparator(r rune) bool {
	switch r {
	case '›', '»', '>', '|', '→', '·', '•', '‣', '/', '\\', '❯', '〉':
		return true
	}
	return false
}

// splitSeparator splits text between crumbs; a slash only separates when spaced (" / "),
// since names like "T-Shirts/Tops" contain one.
func splitSeparator(r rune) bool { return r != '/' && crumbSeparator(r) }

// crumbName cleans a crumb's text: collapsed, without separators at either end.
func crumbName(s string) string {
	s = collapse(s)
	return strings.TrimFunc(s, func(r rune) bool { return crumbSeparator(r) || r == ' ' })
}
