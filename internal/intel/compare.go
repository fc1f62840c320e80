package intel

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"svc/internal/engine"
	"svc/internal/grounding"
	"svc/internal/kb"
	"svc/internal/lang"
	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/variant"
)

// compareKinds are the attributes the built-in engine reads from a product's text, in column
// order.
var compareKinds = []valueKind{kindWeight, kindCapacity, kindWater, kindTemp, kindLength, kindSizes}

// composeCompare makes one row per product of src (the products the caller matched to the
// items or the query), in the order of the items when given: its name, price, category and
// link from the product data, and the attributes its description states. The verdict names
// the cheapest product when the prices can be compared.
func composeCompare(a *Answer, req Request, src grounding.Sources, c *corpus) {
	seenAttr := map[valueKind]bool{}
	for _, p := range orderProducts(req, src, c) {
		row := Row{Name: p.Name, Price: p.Price, Category: p.Category, URL: p.URL, Values: map[string]string{},
			Passage: productPassage(c, p.Name)}
		sents := productSentences(p.Name, src, c)
		for _, k := range compareKinds {
			if v := attrValue(k, sents); v != "" {
				row.Values[string(k)] = v
				seenAttr[k] = true
			}
		}
		if req.full() {
			for _, s := range sents {
				if quotable(s) {
					row.Details = endSentence(engine.Clip(s, maxQuote))
					break
				}
			}
		}
		a.Rows = append(a.Rows, row)
	}
	for _, k := range compareKinds {
		if seenAttr[k] {
			a.Attributes = append(a.Attributes, Attribute{Key: string(k), Label: attrLabel(string(k), req.Lang)})
		}
	}
	a.Verdict = priceVerdict(a.Rows, req.Lang)
}

// attrValue is the first value of kind in the sentences; temperatures are all given (a
// sleeping bag has a comfort and a limit temperature), up to two.
func attrValue(k valueKind, sents []string) string {
	var vals []string
	for _, s := range sents {
		for _, v := range findValues(k, s) {
			vals = append(vals, v)
			if k != kindTemp || len(vals) == 2 {
				return strings.Join(vals, " / ")
			}
		}
	}
	return strings.Join(vals, " / ")
}

// orderProducts chooses the rows of a comparison. With items, each item gets the product of
// src whose name and category share the most terms with it (the request's language winning
// a tie) among those whose variant it does not exclude (variant.Fit: the item "Nova 12 Lite"
// never gets the "Nova 12 Pro" row), in the items' order; products no item names are left out. Without items, or when
// no item names any, the products of src come in the caller's order, those known to be in
// another language left out when some are in the request's.
func orderProducts(req Request, src grounding.Sources, c *corpus) []store.Product {
	var uniq []store.Product
	seen := map[string]bool{}
	for _, p := range src.Products {
		k := strings.ToLower(strings.TrimSpace(p.Name))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		uniq = append(uniq, p)
	}
	langs := make([]string, len(uniq))
	for i, p := range uniq {
		langs[i] = productLang(c, p.Name)
	}
	if len(req.Items) > 0 {
		names := make([]map[string]bool, len(uniq))
		for i, p := range uniq {
			names[i] = termSet(p.Name+" "+p.Category, c.lang)
		}
		used := make([]bool, len(uniq))
		all := make([]string, len(uniq))
		for i, p := range uniq {
			all[i] = p.Name
		}
		var out []store.Product
		for _, item := range req.Items {
			terms := textindex.QueryTerms(item, c.lang)
			fit := variant.Fit(item, all)
			best, bestScore := -1, 0.0
			for i := range uniq {
				if used[i] || !fit[i] {
					continue
				}
				n := 0.0
				for _, t := range terms {
					if hasTerm(names[i], t) {
						n++
					}
				}
				if n == 0 {
					continue
				}
				if langs[i] == c.lang {
					n += 0.5
				}
				if n > bestScore {
					best, bestScore = i, n
				}
			}
			if best >= 0 {
				used[best] = true
				out = append(out, uniq[best])
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	inLang := false
	for _, l := range langs {
		inLang = inLang || l == c.lang
	}
	var out []store.Product
	for i, p := range uniq {
		if !inLang || langs[i] == "" || langs[i] == c.lang {
			out = append(out, p)
		}
	}
	return out
}

// productLang is the language of a product's passage among the sources, "" if it has none.
func productLang(c *corpus, name string) string {
	for _, p := range c.passages {
		if p.p.Type == store.DocProduct && sameText(p.p.Title, name) {
			return p.p.Lang
		}
	}
	return ""
}

// productSentences are the sentences of a product's description: its document text when
// the caller gave it, otherwise its passages, without the name and facts lines.
func productSentences(name string, src grounding.Sources, c *corpus) []string {
	text := src.ProductText[name]
	if text == "" {
		var parts []string
		for _, p := range src.Passages {
			if p.Type == store.DocProduct && sameText(p.Title, name) {
				parts = append(parts, p.Text)
			}
		}
		text = strings.Join(parts, "\n")
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || sameText(line, name) || kb.IsFactLine(line) {
			continue
		}
		out = append(out, engine.SplitLine(line, c.lang)...)
	}
	return out
}

// productPassage is the 1-based index of the product's passage among the sources, 0 if none.
func productPassage(c *corpus, name string) int {
	for _, p := range c.passages {
		if p.p.Type == store.DocProduct && sameText(p.p.Title, name) {
			return p.n
		}
	}
	return 0
}

// priceVerdict compares the prices of the rows when at least two are priced in one currency
// and they differ: the cheaper (of two) or the cheapest and dearest (of more). Otherwise
// there is no verdict, because nothing else is known to compare on.
func priceVerdict(rows []Row, lg string) string {
	type priced struct {
		name, price string
		v           float64
	}
	var ps []priced
	cur := ""
	for _, r := range rows {
		c, v, ok := parsePrice(r.Price)
		if !ok {
			continue
		}
		if len(ps) > 0 && c != cur {
			return ""
		}
		cur = c
		ps = append(ps, priced{r.Name, r.Price, v})
	}
	if len(ps) < 2 {
		return ""
	}
	lo, hi := 0, 0
	for i, p := range ps {
		if p.v < ps[lo].v {
			lo = i
		}
		if p.v > ps[hi].v {
			hi = i
		}
	}
	if ps[lo].v == ps[hi].v {
		return ""
	}
	a, z := ps[lo], ps[hi]
	two := len(ps) == 2
	switch lg {
	case lang.TR:
		if two {
			return fmt.Sprintf("%s, %s ile daha uygun fiyatlı seçenektir; %s ise %s.", a.name, a.price, z.name, z.price)
		}
		return fmt.Sprintf("En uygun fiyatlı seçenek %s ile %s; en pahalısı %s ile %s.", a.price, a.name, z.price, z.name)
	case lang.DE:
		if two {
			return fmt.Sprintf("%s ist mit %s die günstigere Wahl; %s kostet %s.", a.name, a.price, z.name, z.price)
		}
		return fmt.Sprintf("Am günstigsten ist %s mit %s, am teuersten %s mit %s.", a.name, a.price, z.name, z.price)
	default:
		if two {
			return fmt.Sprintf("%s is the cheaper option at %s; %s costs %s.", a.name, a.price, z.name, z.price)
		}
		return fmt.Sprintf("%s is the most affordable at %s; the most expensive is %s at %s.", a.name, a.price, z.name, z.price)
	}
}

var amountRe = regexp.MustCompile(`\d[\d.,]*`)

// parsePrice reads a displayed price ("4.290,00 TL", "$129.00", "119,90 €") into its
// currency and amount. The last separator is the decimal one unless three digits follow it
// and it is the only one ("1.500 TL").
func parsePrice(s string) (string, float64, bool) {
	cur := ""
	switch {
	case strings.Contains(s, "TL") || strings.Contains(s, "₺"):
		cur = "TRY"
	case strings.Contains(s, "€") || strings.Contains(strings.ToUpper(s), "EUR"):
		cur = "EUR"
	case strings.Contains(s, "$") || strings.Contains(s, "USD"):
		cur = "USD"
	case strings.Contains(s, "£") || strings.Contains(s, "GBP"):
		cur = "GBP"
	}
	m := amountRe.FindString(s)
	m = strings.TrimRight(m, ".,")
	if m == "" || cur == "" {
		return "", 0, false
	}
	last := strings.LastIndexAny(m, ".,")
	digits := m
	if last >= 0 {
		sep := m[last]
		count := strings.Count(m, string(sep))
		mixed := strings.ContainsAny(m[:last], string(other(sep)))
		if (len(m)-last-1 == 3 && count == 1 && !mixed) || count > 1 {
			digits = strings.NewReplacer(".", "", ",", "").Replace(m)
		} else {
			digits = strings.NewReplacer(".", "", ",", "").Replace(m[:last]) + "." + m[last+1:]
		}
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil || math.IsNaN(v) {
		return "", 0, false
	}
	return cur, v, true
}

func other(sep byte) byte {
	if sep == '.' {
		return ','
	}
	return '.'
}
