package extract

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxItemDepth bounds how deep items nest in items; real pages nest a few levels.
const maxItemDepth = 32

// maxPropText bounds the text read for one property, far above any name, price or FAQ
// answer, and above maxDescription so descriptions are cut by truncateText, not here.
const maxPropText = 16000

// mdItem is one microdata item (an element with itemscope) and its properties. Properties
// inside a nested itemscope belong to the nested item, never to this one, so a Brand's or a
// Review's name cannot become the product's name.
type mdItem struct {
	node  *html.Node
	types []string // short schema.org names from itemtype
	id    string   // itemid
	props []mdProp // in document order
}

// mdProp is one itemprop: its element, and the nested item when the element has itemscope.
type mdProp struct {
	name string
	node *html.Node
	item *mdItem
}

// readMicrodata returns the page's top-level items: itemscope elements that are not a
// property of an enclosing item. An itemscope with itemprop but no item around it (a
// "mainEntity" on a page without a WebPage item) is top-level too.
func readMicrodata(doc *html.Node) []*mdItem {
	var out []*mdItem
	var find func(n *html.Node, inItem bool)
	find = func(n *html.Node, inItem bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom == atom.Script || c.DataAtom == atom.Template {
				continue
			}
			if !hasAttr(c, "itemscope") {
				find(c, inItem)
				continue
			}
			if !hasAttr(c, "itemprop") || !inItem {
				out = append(out, buildItem(c, 0))
			}
			find(c, true)
		}
	}
	if doc != nil {
		find(doc, false)
	}
	return out
}

func buildItem(n *html.Node, depth int) *mdItem {
	it := &mdItem{node: n, id: strings.TrimSpace(attr(n, "itemid"))}
	for _, t := range strings.Fields(attr(n, "itemtype")) {
		if s := shortType(t); s != "" {
			it.types = append(it.types, s)
		}
	}
	if depth < maxItemDepth {
		it.collect(n, depth)
	}
	return it
}

// collect gathers the properties under n that belong to it, stopping at nested items.
func (it *mdItem) collect(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom == atom.Script || c.DataAtom == atom.Template {
			continue
		}
		scope := hasAttr(c, "itemscope")
		if names := strings.Fields(attr(c, "itemprop")); len(names) > 0 {
			var sub *mdItem
			if scope {
				sub = buildItem(c, depth+1)
			}
			for _, name := range names {
				if i := strings.LastIndexAny(name, "/#"); i >= 0 {
					name = name[i+1:] // "http://schema.org/name"
				}
				it.props = append(it.props, mdProp{name: name, node: c, item: sub})
			}
		}
		if !scope {
			it.collect(c, depth)
		}
	}
}

func (it *mdItem) is(types ...string) bool { return hasType(it.types, types...) }

// all returns the properties with the given name.
func (it *mdItem) all(name string) []mdProp {
	var out []mdProp
	for _, p := range it.props {
		if strings.EqualFold(p.name, name) {
			out = append(out, p)
		}
	}
	return out
}

// text returns the first non-empty text value of a property.
func (it *mdItem) text(name string) string {
	for _, p := range it.all(name) {
		if p.item != nil {
			continue
		}
		if s := p.text(); s != "" {
			return s
		}
	}
	return ""
}

// link returns the first usable URL value of a property, absolute.
func (it *mdItem) link(name string, base *url.URL) string {
	for _, p := range it.all(name) {
		if p.item != nil {
			if u := p.item.ownURL(base); u != "" {
				return u
			}
			continue
		}
		if u := p.link(base); u != "" {
			return u
		}
	}
	return ""
}

// ownURL is the address of a nested item: its url or contentUrl property, its itemid, or
// the link of the element that carries it.
func (it *mdItem) ownURL(base *url.URL) string {
	for _, k := range [...]string{"url", "contentUrl"} {
		if u := it.link(k, base); u != "" {
			return u
		}
	}
	if u := resolveURL(base, it.id); u != "" && strings.Contains(it.id, "/") {
		return u
	}
	return elementURL(it.node, base)
}

// text is a property's value as text. A content attribute wins (themes put the machine value
// there and the display text inside); otherwise the element's text, as microdata defines it
// for all but media, link and meta elements.
func (p mdProp) text() string {
	if v, ok := attrOK(p.node, "content"); ok {
		return cleanText(v)
	}
	switch p.node.DataAtom {
	case atom.Meta:
		return ""
	case atom.Data, atom.Meter:
		if v := attr(p.node, "value"); v != "" {
			return cleanText(v)
		}
	case atom.Time:
		if v := attr(p.node, "datetime"); v != "" {
			return cleanText(v)
		}
	case atom.Img:
		return collapse(attr(p.node, "alt"))
	}
	// Bounded: a theme may put itemprop on a container holding the whole page, and nested
	// items would each read it again.
	return NodeText(p.node, maxPropText)
}

// link is a property's value as a URL: content, then the element's own link attribute.
func (p mdProp) link(base *url.URL) string {
	if v, ok := attrOK(p.node, "content"); ok {
		return resolveURL(base, v)
	}
	if u := elementURL(p.node, base); u != "" {
		return u
	}
	t := NodeText(p.node, 400)
	if strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") || strings.HasPrefix(t, "/") {
		return resolveURL(base, t)
	}
	return ""
}

// elementURL is the link an element carries: href, src (or the lazy-loading attribute a
// theme leaves the real picture in while src holds a placeholder), data.
func elementURL(n *html.Node, base *url.URL) string {
	switch n.DataAtom {
	case atom.A, atom.Area, atom.Link:
		return resolveURL(base, attr(n, "href"))
	case atom.Img, atom.Source, atom.Video, atom.Audio, atom.Embed, atom.Track, atom.Iframe:
		src := attr(n, "src")
		if src == "" || strings.HasPrefix(src, "data:") {
			for _, k := range [...]string{"data-src", "data-lazy-src", "data-original", "data-zoom-image"} {
				if v := attr(n, k); v != "" {
					src = v
					break
				}
			}
		}
		return resolveURL(base, src)
	case atom.Object:
		return resolveURL(base, attr(n, "data"))
	}
	return ""
}

// mdProductItems finds the product items among the page's items, looking where a page puts
// its own products (top level, mainEntity, list elements and their items, an Offer's
// itemOffered, hasPart) and not inside a product or a review.
func mdProductItems(items []*mdItem) []*mdItem {
	var out []*mdItem
	var visit func(it *mdItem, depth int)
	visit = func(it *mdItem, depth int) {
		if isProductType(it.types) {
			out = append(out, it)
			return
		}
		if depth > maxItemDepth {
			return
		}
		for _, p := range it.props {
			if p.item == nil {
				continue
			}
			switch strings.ToLower(p.name) {
			case "mainentity", "itemlistelement", "item", "itemoffered", "haspart":
				visit(p.item, depth+1)
			}
		}
	}
	for _, it := range items {
		visit(it, 0)
	}
	return out
}

// mdProduct reads a product item.
func mdProduct(it *mdItem, base *url.URL) draft {
	p := draft{
		source: "microdata",
		node:   it.node,
		name:   it.text("name"),
		url:    it.link("url", base),
		image:  it.link("image", base),
		desc:   truncateText(it.text("description"), maxDescription),
	}
	if p.url == "" {
		if u := resolveURL(base, it.id); u != "" && strings.Contains(it.id, "/") && !rootPath(u) {
			p.url = u
		}
	}
	for _, c := range it.all("category") {
		s := ""
		if c.item != nil {
			s = c.item.text("name")
		} else {
			s = c.text()
		}
		if s = lastCategoryPart(s); s != "" {
			p.category = s
		}
	}
	var price priceInfo
	for _, o := range it.all("offers") {
		if o.item != nil {
			price = mdOffer(o.item, 0)
		} else {
			price = priceText(o.text())
		}
		if price.ok() {
			break
		}
	}
	if !price.ok() {
		// Some themes put price and currency on the product itself.
		price = mdPrice(it, "price")
	}
	p.prices = []priceInfo{price}
	return p
}

// mdOffer reads an Offer or AggregateOffer item like its JSON-LD counterpart.
func mdOffer(it *mdItem, depth int) priceInfo {
	keys := [...]string{"price", "lowPrice"}
	if it.is("AggregateOffer") {
		keys = [...]string{"lowPrice", "price"}
	}
	for _, k := range keys {
		if p := mdPrice(it, k); p.ok() {
			return p
		}
	}
	if depth < 4 {
		for _, k := range [...]string{"priceSpecification", "offers"} {
			for _, sub := range it.all(k) {
				if sub.item == nil {
					continue
				}
				if p := mdOffer(sub.item, depth+1); p.ok() {
					if cur := normCurrency(it.text("priceCurrency")); cur != "" {
						p.cur = cur
					}
					return p
				}
			}
		}
	}
	return priceInfo{}
}

// mdPrice reads one price property and the item's currency.
func mdPrice(it *mdItem, key string) priceInfo {
	for _, pr := range it.all(key) {
		if pr.item != nil {
			continue
		}
		p := priceText(pr.text())
		if !p.ok() {
			continue
		}
		if cur := normCurrency(it.text("priceCurrency")); cur != "" {
			p.cur = cur
		}
		return p
	}
	return priceInfo{}
}
