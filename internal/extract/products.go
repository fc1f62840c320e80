package extract

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// Product is a product card learned from a page. Every field is what the page states;
// nothing is invented, and a field the page does not give stays empty.
type Product struct {
	Name, URL, Price, Category, Image, Description string
	Source                                         string // "jsonld", "microdata" or "opengraph"
}

// draft is a product as one source states it, before sources are merged and the price is
// matched to the page's text.
type draft struct {
	name, url, image, desc, category string
	ogCategory                       string      // product:category, the last resort
	prices                           []priceInfo // in order of preference
	source                           string
	node                             *html.Node // the element it was read from, for page order
}

func (d draft) hasPrice() bool {
	return slices.ContainsFunc(d.prices, priceInfo.ok)
}

// fill completes d's empty fields from another statement of the same product.
func (d *draft) fill(o draft) {
	for _, f := range [...]struct {
		dst *string
		src string
	}{
		{&d.url, o.url}, {&d.image, o.image}, {&d.desc, o.desc}, {&d.category, o.category},
		{&d.ogCategory, o.ogCategory},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if !d.hasPrice() {
		d.prices = o.prices
	}
}

// dedupe merges the statements of one product: the same name (case aside), and the same URL
// or no URL on one side (microdata often leaves out the url a JSON-LD block states).
// Nameless statements are dropped. Names are looked up in a map so a listing of thousands
// of products stays linear.
func dedupe(drafts []draft) []draft {
	var found []draft
	byName := map[string][]int{}
	for _, d := range drafts {
		if d.name == "" {
			continue
		}
		key := strings.ToLower(d.name)
		merged := false
		for _, i := range byName[key] {
			if u := found[i].url; u == "" || d.url == "" || sameURL(u, d.url) {
				found[i].fill(d)
				merged = true
				break
			}
		}
		if !merged {
			byName[key] = append(byName[key], len(found))
			found = append(found, d)
		}
	}
	return found
}

// Products returns the products the page declares in JSON-LD, microdata or OpenGraph,
// deduplicated (a product stated in JSON-LD and microdata is one card), in page order.
// pageURL resolves relative URLs and is the URL of a product that states none. lang
// ("tr", "en", "de") only matters when a price without a currency must be formatted.
//
// OpenGraph counts only when the page has no JSON-LD or microdata product, or to fill the
// empty fields of the single product of a product page.
func Products(doc *html.Node, pageURL *url.URL, lang string) []Product {
	if doc == nil {
		return nil
	}
	ld := readLD(doc)
	items := readMicrodata(doc)
	var drafts []draft
	for _, b := range ld.blocks {
		for _, v := range b.values {
			for _, p := range ld.products(v, pageURL) {
				p.node = b.node
				drafts = append(drafts, p)
			}
		}
	}
	for _, it := range mdProductItems(items) {
		drafts = append(drafts, mdProduct(it, pageURL))
	}
	if len(drafts) > 1 {
		order := docOrder(doc)
		slices.SortStableFunc(drafts, func(a, b draft) int { return order[a.node] - order[b.node] })
	}
	found := dedupe(drafts)
	if og, ok := ogProduct(readMeta(doc), pageURL); ok {
		switch {
		case len(found) == 0:
			found = []draft{og}
		case len(found) == 1 && namesMatch(found[0].name, og.name):
			found[0].fill(og)
		}
	}
	if len(found) == 0 {
		return nil
	}
	page := pageString(pageURL)
	if len(found) == 1 && found[0].category == "" {
		// A product page's breadcrumb ends in the product's category; a listing's
		// breadcrumb says nothing about each listed product.
		found[0].category = crumbCategory(pageCrumbs(doc, ld, items, pageURL), found[0], page)
	}
	var prices priceIndex
	if slices.ContainsFunc(found, draft.hasPrice) {
		prices = visiblePrices(doc)
	}
	lang = strings.ToLower(strings.TrimSpace(lang))
	if len(lang) > 2 {
		lang = lang[:2]
	}
	out := make([]Product, 0, len(found))
	for _, d := range found {
		p := Product{
			Name:        d.name,
			URL:         d.url,
			Price:       displayPrice(d.prices, prices, lang),
			Category:    d.category,
			Image:       d.image,
			Description: d.desc,
			Source:      d.source,
		}
		if p.URL == "" {
			p.URL = page
		}
		if p.Category == "" {
			p.Category = d.ogCategory
		}
		out = append(out, p)
	}
	return out
}

// namesMatch reports whether OpenGraph's title names the structured product: equal, or one
// starting with the other (og:title often adds a variant or a slogan).
func namesMatch(a, b string) bool {
	a, b = strings.ToLower(collapse(a)), strings.ToLower(collapse(b))
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 3 && strings.HasPrefix(b, a)
}

// crumbCategory is the category a breadcrumb gives a product: the last crumb before the
// product's own, skipping a leading home crumb ("Home", "Ana Sayfa", "Startseite").
func crumbCategory(crumbs []Crumb, p draft, page string) string {
	if n := len(crumbs); n > 0 && selfCrumb(crumbs[n-1], p, page) {
		crumbs = crumbs[:n-1]
	}
	for len(crumbs) > 0 && homeCrumb(crumbs[0]) {
		crumbs = crumbs[1:]
	}
	for i := len(crumbs) - 1; i >= 0; i-- {
		if name := crumbs[i].Name; !onlyDigits(name) && name != "" {
			return name
		}
	}
	return ""
}

// selfCrumb reports the crumb of the product's own page: unlinked, linking to the product
// or the page, or named like the product (possibly cut short).
func selfCrumb(c Crumb, p draft, page string) bool {
	if c.URL == "" || sameURL(c.URL, p.url) || sameURL(c.URL, page) || sameText(c.Name, p.name) {
		return true
	}
	name := strings.ToLower(strings.TrimRight(c.Name, ".… "))
	full := strings.ToLower(p.name)
	return len(name) >= 6 && strings.HasPrefix(full, name) && 2*len(name) >= len(full)
}

// homeCrumb reports a breadcrumb's first step back to the home page.
func homeCrumb(c Crumb) bool {
	switch strings.ToLower(c.Name) {
	case "home", "homepage", "home page", "start", "startseite", "hauptseite", "ana sayfa",
		"anasayfa", "shop", "mağaza", "main":
		return true
	}
	return c.URL != "" && rootPath(c.URL)
}
