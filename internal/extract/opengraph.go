package extract

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// metaTags holds the page's <meta> values by lower-cased property or name, in page order.
// Both attributes are read because shops write OpenGraph as name="og:..." as often as
// property="og:...", and some platforms print them in the body.
type metaTags map[string][]string

func readMeta(doc *html.Node) metaTags {
	m := metaTags{}
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		if n.DataAtom == atom.Script || n.DataAtom == atom.Template {
			return false
		}
		if n.DataAtom != atom.Meta {
			return true
		}
		content, ok := attrOK(n, "content")
		if !ok {
			return true
		}
		for _, k := range [...]string{"property", "name"} {
			if key := strings.ToLower(strings.TrimSpace(attr(n, k))); key != "" {
				m[key] = append(m[key], content)
			}
		}
		return true
	})
	return m
}

// first returns the first non-empty value among keys, in the order of keys.
func (m metaTags) first(keys ...string) string {
	for _, k := range keys {
		for _, v := range m[k] {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
	}
	return ""
}

// hasPrefix reports whether any tag's key starts with prefix.
func (m metaTags) hasPrefix(prefix string) bool {
	for k, vals := range m {
		if strings.HasPrefix(k, prefix) && slices.ContainsFunc(vals, func(v string) bool { return strings.TrimSpace(v) != "" }) {
			return true
		}
	}
	return false
}

// ogProductPage reports whether og:type declares a product page.
func (m metaTags) ogProductPage() bool {
	switch strings.ToLower(m.first("og:type")) {
	case "product", "product.item", "og:product", "product.group":
		return true
	}
	return false
}

// ogProduct reads the OpenGraph product tags. It returns false unless og:type declares a
// product and the page also gives a price or another product:* tag: some platforms set
// og:type "product" on every page, and a bare title is too weak a sign of a product.
func ogProduct(m metaTags, base *url.URL) (draft, bool) {
	if !m.ogProductPage() {
		return draft{}, false
	}
	p := draft{
		source:     "opengraph",
		name:       ogTitle(m),
		url:        resolveURL(base, m.first("og:url")),
		image:      resolveURL(base, m.first("og:image:secure_url", "og:image", "og:image:url")),
		desc:       truncateText(cleanText(m.first("og:description")), maxDescription),
		ogCategory: lastCategoryPart(m.first("product:category", "og:product:category")),
	}
	// A sale price is the price a customer pays; the regular price is the fallback when the
	// page shows no sale price (a sale tag left behind after the sale ended).
	for _, pair := range [...][2]string{
		{"product:sale_price:amount", "product:sale_price:currency"},
		{"product:price:amount", "product:price:currency"},
		{"og:price:amount", "og:price:currency"},
	} {
		pr := priceText(m.first(pair[0]))
		if !pr.ok() {
			continue
		}
		if cur := normCurrency(m.first(pair[1])); cur != "" {
			pr.cur = cur
		}
		p.prices = append(p.prices, pr)
	}
	if p.name == "" || (len(p.prices) == 0 && !m.hasPrefix("product:")) {
		return draft{}, false
	}
	return p, true
}

// ogTitle is og:title without the " | Shop name" most platforms append.
func ogTitle(m metaTags) string {
	title := cleanText(m.first("og:title", "product:title"))
	site := cleanText(m.first("og:site_name"))
	if site == "" {
		return title
	}
	for _, sep := range [...]string{" | ", " - ", " – ", " — ", " :: ", " · ", " » "} {
		tail := sep + site
		if len(title) > len(tail) && strings.EqualFold(title[len(title)-len(tail):], tail) {
			return strings.TrimSpace(title[:len(title)-len(tail)])
		}
		head := site + sep
		if len(title) > len(head) && strings.EqualFold(title[:len(head)], head) {
			return strings.TrimSpace(title[len(head):])
		}
	}
	return title
}
