package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// Meta is what a page says about itself, for the crawler to decide what kind of page it is.
type Meta struct {
	// Types holds every schema.org type the page declares in JSON-LD @type or microdata
	// itemtype, as short names ("Product", "FAQPage", "BreadcrumbList"), each once:
	// JSON-LD blocks first, in page order, then microdata in page order.
	Types []string
	// OGType is og:type, lower-case.
	OGType string
	// Description is the meta description, else og:description.
	Description string
}

// PageMeta reads the page's declared types, og:type and description.
func PageMeta(doc *html.Node) Meta {
	var m Meta
	if doc == nil {
		return m
	}
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			m.Types = append(m.Types, t)
		}
	}
	for _, b := range readLD(doc).blocks {
		for _, v := range b.values {
			ldVisit(v, 0, func(o map[string]any) bool {
				for _, t := range ldTypes(o) {
					add(t)
				}
				return true
			})
		}
	}
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			for _, t := range strings.Fields(attr(n, "itemtype")) {
				add(shortType(t))
			}
		}
		return true
	})
	tags := readMeta(doc)
	m.OGType = strings.ToLower(tags.first("og:type"))
	m.Description = truncateText(cleanText(tags.first("description")), maxDescription)
	if m.Description == "" {
		m.Description = truncateText(cleanText(tags.first("og:description")), maxDescription)
	}
	return m
}
