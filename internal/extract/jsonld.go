package extract

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxLDDepth bounds every walk over decoded JSON-LD: real data nests a handful of levels,
// and @id references can form cycles.
const maxLDDepth = 24

// ldBlock is the JSON decoded from one <script type="application/ld+json">, with the script
// element so products can be put back in page order.
type ldBlock struct {
	node   *html.Node
	values []any
}

// ldDoc is every JSON-LD block of a page with an index of the objects that carry an @id,
// so references like "offers": {"@id": "#offer"} resolve to the object they name.
type ldDoc struct {
	blocks []ldBlock
	ids    map[string]map[string]any
}

// isLDScript accepts the type attribute the way browsers and crawlers do: any case, spaces,
// and parameters ("application/ld+json; charset=utf-8").
func isLDScript(n *html.Node) bool {
	if n.Type != html.ElementNode || n.DataAtom != atom.Script {
		return false
	}
	t := strings.ToLower(attr(n, "type"))
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t) == "application/ld+json"
}

// readLD decodes every JSON-LD script of the page; unreadable ones are skipped.
func readLD(doc *html.Node) ldDoc {
	d := ldDoc{ids: map[string]map[string]any{}}
	walk(doc, func(n *html.Node) bool {
		if !isLDScript(n) {
			return true
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		if vals := decodeLenient(b.String()); len(vals) > 0 {
			d.blocks = append(d.blocks, ldBlock{node: n, values: vals})
		}
		return false
	})
	for _, b := range d.blocks {
		for _, v := range b.values {
			ldVisit(v, 0, func(o map[string]any) bool {
				if id, ok := o["@id"].(string); ok && id != "" && len(o) > 1 {
					if _, seen := d.ids[id]; !seen {
						d.ids[id] = o
					}
				}
				return true
			})
		}
	}
	return d
}

// deref replaces a bare reference {"@id": "..."} by the object it names, when the page has it.
func (d ldDoc) deref(v any) any {
	o, ok := v.(map[string]any)
	if !ok || len(o) != 1 {
		return v
	}
	id, ok := o["@id"].(string)
	if !ok {
		return v
	}
	if full, ok := d.ids[id]; ok {
		return full
	}
	return v
}

// ldVisit calls fn for every object in v, depth first; fn returns false to skip an object's
// insides. Keys are visited in sorted order so results do not depend on map iteration.
func ldVisit(v any, depth int, fn func(map[string]any) bool) {
	if depth > maxLDDepth {
		return
	}
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			ldVisit(e, depth+1, fn)
		}
	case map[string]any:
		if !fn(t) {
			return
		}
		for _, k := range sortedKeys(t) {
			ldVisit(t[k], depth+1, fn)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ldTypes returns an object's schema.org types as short names ("Product"), from "@type" as a
// string or an array, with schema.org URL or prefix forms reduced.
func ldTypes(o map[string]any) []string {
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok {
			if t := shortType(s); t != "" {
				out = append(out, t)
			}
		}
	}
	switch t := o["@type"].(type) {
	case []any:
		for _, e := range t {
			add(e)
		}
	default:
		add(t)
	}
	return out
}

// shortType reduces "http://schema.org/Product", "https://schema.org/Product",
// "schema:Product" to "Product"; types of other vocabularies come back empty.
func shortType(s string) string {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	for _, p := range [...]string{"https://schema.org/", "http://schema.org/", "https://www.schema.org/", "http://www.schema.org/", "schema.org/", "schema:"} {
		if strings.HasPrefix(low, p) {
			s = s[len(p):]
			break
		}
	}
	s = strings.Trim(s, "/ ")
	if s == "" || strings.ContainsAny(s, "/:#. ") {
		return ""
	}
	return s
}

// hasType reports whether types holds one of want (case-insensitive).
func hasType(types []string, want ...string) bool {
	for _, t := range types {
		for _, w := range want {
			if strings.EqualFold(t, w) {
				return true
			}
		}
	}
	return false
}

// isProductType reports the schema.org types whose instances are things a shop sells.
func isProductType(types []string) bool {
	return hasType(types, "Product", "ProductGroup", "IndividualProduct", "ProductModel",
		"SomeProducts", "Vehicle", "Car", "Motorcycle")
}

// ldString reads a text value: a string, a number, the first usable element of an array,
// or a language-tagged {"@value": ...} object.
func ldString(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case json.Number:
		return t.String()
	case []any:
		for _, e := range t {
			if s := ldString(e); s != "" {
				return s
			}
		}
	case map[string]any:
		if s := ldString(t["@value"]); s != "" {
			return s
		}
	}
	return ""
}

// objects returns v as a list of objects: one object, or the objects of an array.
func (d ldDoc) objects(v any) []map[string]any {
	switch t := d.deref(v).(type) {
	case map[string]any:
		return []map[string]any{t}
	case []any:
		var out []map[string]any
		for _, e := range t {
			if o, ok := d.deref(e).(map[string]any); ok {
				out = append(out, o)
			}
		}
		return out
	}
	return nil
}

// products finds the products a JSON-LD value declares. It looks only where a page puts
// its own products — top level, @graph, mainEntity, ItemList elements and their items, an
// Offer's itemOffered, hasPart — so a Review's itemReviewed, an article's "about" or an
// organisation's catalogue are not taken for products on sale here. It does not look
// inside a product: variants and related products are not separate cards.
func (d ldDoc) products(v any, base *url.URL) []draft {
	var out []draft
	// Decoded JSON is a tree; only @id references can make it a graph, so each reference is
	// followed once. Without that, a page whose objects refer to each other in a few wide
	// lists would be walked an exponential number of times.
	followed := map[string]bool{}
	var visit func(v any, depth int, fallbackURL string, offer map[string]any)
	visit = func(v any, depth int, fallbackURL string, offer map[string]any) {
		if depth > maxLDDepth {
			return
		}
		if ref, ok := v.(map[string]any); ok && len(ref) == 1 {
			if id, ok := ref["@id"].(string); ok {
				if followed[id] {
					return
				}
				followed[id] = true
			}
		}
		switch t := d.deref(v).(type) {
		case []any:
			for _, e := range t {
				visit(e, depth+1, fallbackURL, offer)
			}
		case map[string]any:
			if isProductType(ldTypes(t)) {
				out = append(out, d.product(t, base, fallbackURL, offer))
				return
			}
			for _, k := range [...]string{"@graph", "mainEntity", "itemListElement", "item", "itemOffered", "hasPart"} {
				val, ok := t[k]
				if !ok {
					continue
				}
				switch k {
				case "item":
					visit(val, depth+1, resolveURL(base, ldString(t["url"])), nil)
				case "itemOffered":
					visit(val, depth+1, resolveURL(base, ldString(t["url"])), t)
				default:
					visit(val, depth+1, "", nil)
				}
			}
		}
	}
	visit(v, 0, "", nil)
	return out
}

// product reads one product object. fallbackURL is the URL of the ListItem or Offer it came
// from; offer is the Offer it is the itemOffered of.
func (d ldDoc) product(o map[string]any, base *url.URL, fallbackURL string, offer map[string]any) draft {
	p := draft{
		source:   "jsonld",
		name:     cleanText(ldString(o["name"])),
		url:      ldProductURL(o, base),
		image:    d.image(o["image"], base),
		desc:     truncateText(cleanText(ldString(o["description"])), maxDescription),
		category: d.category(o["category"]),
	}
	if p.url == "" {
		p.url = fallbackURL
	}
	price := d.offers(o["offers"])
	if !price.ok() && offer != nil {
		price = d.offers(offer)
	}
	if !price.ok() || p.image == "" {
		// A ProductGroup states its price and picture on its variants.
		for _, v := range d.objects(o["hasVariant"]) {
			if !price.ok() {
				price = d.offers(v["offers"])
			}
			if p.image == "" {
				p.image = d.image(v["image"], base)
			}
		}
	}
	p.prices = []priceInfo{price}
	return p
}

// ldProductURL is the product's url, else its @id when that is a web address of a page
// (not the site root an id like "https://shop.example/#product" would reduce to).
func ldProductURL(o map[string]any, base *url.URL) string {
	if u := resolveURL(base, ldString(o["url"])); u != "" {
		return u
	}
	id := ldString(o["@id"])
	low := strings.ToLower(id)
	if !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "https://") {
		return ""
	}
	u := resolveURL(base, id)
	if u == "" || rootPath(u) {
		return ""
	}
	return u
}

// image reads an image value: a URL, an ImageObject (url or contentUrl), or an array of
// either, of which the first usable one wins.
func (d ldDoc) image(v any, base *url.URL) string {
	switch t := d.deref(v).(type) {
	case string:
		return resolveURL(base, t)
	case []any:
		for _, e := range t {
			if s := d.image(e, base); s != "" {
				return s
			}
		}
	case map[string]any:
		for _, k := range [...]string{"url", "contentUrl", "@id"} {
			if s, ok := t[k].(string); ok {
				if u := resolveURL(base, s); u != "" {
					return u
				}
			}
		}
	}
	return ""
}

// category reads a category: a string (the last part of a path like "Giyim > Elbise"), an
// object with a name, or an array, of which the last meaningful entry is the most specific.
func (d ldDoc) category(v any) string {
	switch t := d.deref(v).(type) {
	case string:
		return lastCategoryPart(t)
	case []any:
		for i := len(t) - 1; i >= 0; i-- {
			if s := d.category(t[i]); s != "" {
				return s
			}
		}
	case map[string]any:
		return lastCategoryPart(ldString(t["name"]))
	}
	return ""
}

// lastCategoryPart returns the most specific part of a category path, skipping ids and URLs.
func lastCategoryPart(s string) string {
	s = cleanText(s)
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '>' || r == '›' || r == '»' || r == '|' })
	for i := len(parts) - 1; i >= 0; i-- {
		p := strings.TrimSpace(parts[i])
		if sub := strings.Split(p, " / "); len(sub) > 1 {
			p = strings.TrimSpace(sub[len(sub)-1])
		}
		low := strings.ToLower(p)
		if p == "" || onlyDigits(p) || strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") {
			continue
		}
		return p
	}
	return ""
}

// offers reads the price of an offers value: an Offer, an AggregateOffer (lowPrice first),
// an array (the first offer with a price), a priceSpecification, or offers nested in an
// AggregateOffer. The currency comes from the offer, else from where the price was found.
func (d ldDoc) offers(v any) priceInfo {
	budget := 64 // offers read at most: @id references could otherwise nest them without end
	return d.offersWithin(v, &budget)
}

func (d ldDoc) offersWithin(v any, budget *int) priceInfo {
	for _, o := range d.objects(v) {
		if *budget <= 0 {
			break
		}
		*budget--
		keys := [...]string{"price", "lowPrice"}
		if hasType(ldTypes(o), "AggregateOffer") {
			keys = [...]string{"lowPrice", "price"}
		}
		var p priceInfo
		for _, k := range keys {
			if p = structuredPrice(o[k]); p.ok() {
				break
			}
		}
		if !p.ok() {
			p = d.priceSpec(o["priceSpecification"])
		}
		if !p.ok() {
			p = d.offersWithin(o["offers"], budget)
		}
		if !p.ok() {
			continue
		}
		if cur := normCurrency(ldString(o["priceCurrency"])); cur != "" {
			p.cur = cur
		}
		return p
	}
	return priceInfo{}
}

// priceSpec reads a priceSpecification, preferring a sale price over a list or strike-through
// price when several are given.
func (d ldDoc) priceSpec(v any) priceInfo {
	var fallback priceInfo
	for _, o := range d.objects(v) {
		p := structuredPrice(o["price"])
		if !p.ok() {
			p = structuredPrice(o["minPrice"])
		}
		if !p.ok() {
			continue
		}
		if cur := normCurrency(ldString(o["priceCurrency"])); cur != "" {
			p.cur = cur
		}
		pt := strings.ToLower(ldString(o["priceType"]))
		if strings.Contains(pt, "listprice") || strings.Contains(pt, "strikethrough") || strings.Contains(pt, "msrp") {
			if !fallback.ok() {
				fallback = p
			}
			continue
		}
		return p
	}
	return fallback
}
