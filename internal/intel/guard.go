package intel

import (
	"strings"

	"svc/internal/grounding"
	"svc/internal/store"
	"svc/internal/textindex"
)

// Guard removes from a (after Parse, and inside Compose) whatever src does not support, and
// returns what it removed:
//
//   - every sentence of the answer text, the quotes, the points and the verdict goes
//     through the grounding guard's Clean, which drops the unsupported ones; a point or an
//     answer source left empty goes;
//   - every short value (a compared attribute, an extracted field) goes through Supported
//     and becomes "" when it states anything unsupported; its numbers must also be stated
//     where it comes from: a compared attribute in that product's own text (so that a tent's
//     weight is never shown for a boot), an extracted value in its passage or product;
//   - a compared row must be a product of src: its price, category and link must be that
//     product's own, else they become "" ("price", "feature", "url" claims);
//   - a source must be a passage or product of src, and its link the one src gives.
func Guard(a *Answer, req Request, src grounding.Sources) []grounding.Claim {
	lg := req.Lang
	if lg == "" {
		lg = a.Lang
	}
	g := grounding.New(src, lg)
	var claims []grounding.Claim
	clean := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return ""
		}
		out, cs := g.Clean(s)
		claims = append(claims, cs...)
		return strings.TrimSpace(out)
	}
	short := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return ""
		}
		ok, cs := g.Supported(s)
		claims = append(claims, cs...)
		if !ok {
			return ""
		}
		return s
	}
	source := func(s Source) (Source, bool) {
		s, ok, cs := checkSource(s, src)
		claims = append(claims, cs...)
		if !ok {
			return Source{}, false
		}
		s.Quote = clean(s.Quote)
		return s, true
	}

	// answer
	a.Text = clean(a.Text)
	var sources []Source
	for i, s := range a.Sources {
		hadQuote := s.Quote != ""
		s, ok := source(s)
		if !ok || hadQuote && s.Quote == "" && i > 0 {
			continue
		}
		sources = append(sources, s)
	}
	if a.Text == "" {
		sources = nil // a source of nothing
	}
	a.Sources = sources

	// summarize
	var points []Point
	for _, p := range a.Points {
		p.Text = clean(p.Text)
		if p.Text == "" {
			continue
		}
		s, ok := source(p.Source)
		if !ok {
			s = Source{}
		}
		s.Quote = p.Text
		p.Source = s
		points = append(points, p)
	}
	a.Points = points

	// compare
	var rows []Row
	for _, r := range a.Rows {
		r, ok, cs := checkRow(r, src, req.Lang, short)
		claims = append(claims, cs...)
		if ok {
			rows = append(rows, r)
		}
	}
	a.Rows = rows
	var attrs []Attribute
	for _, at := range a.Attributes {
		for _, r := range a.Rows {
			if r.Values[at.Key] != "" {
				attrs = append(attrs, at)
				break
			}
		}
	}
	a.Attributes = attrs
	for i := range a.Rows {
		a.Rows[i].Details = clean(a.Rows[i].Details)
		for k := range a.Rows[i].Values {
			if !hasAttr(a.Attributes, k) {
				delete(a.Rows[i].Values, k)
			}
		}
	}
	a.Verdict = clean(a.Verdict)
	if len(a.Rows) < 2 {
		a.Verdict = "" // nothing left to compare
	}

	// extract
	for i := range a.Fields {
		f := &a.Fields[i]
		if f.Value != "" && !numbersIn(f.Value, valueContext(f.Source, src)) {
			claims = append(claims, grounding.Claim{Kind: "quantity", Text: f.Value})
			f.Value = ""
		}
		f.Value = short(f.Value)
		claimed := f.Source.Passage > 0 || f.Source.Title != "" || f.Source.URL != ""
		s, ok := source(f.Source)
		if !ok {
			s = Source{}
			if claimed {
				f.Value = "" // a value from a source that does not exist
			}
		}
		f.Source = s
		if f.Value == "" {
			f.Source = Source{}
		}
	}
	return claims
}

func hasAttr(attrs []Attribute, key string) bool {
	for _, a := range attrs {
		if a.Key == key {
			return true
		}
	}
	return false
}

// checkSource keeps a source that is a passage or a product of src, with the link src gives
// it. A source named by passage number takes that passage's title and link.
func checkSource(s Source, src grounding.Sources) (Source, bool, []grounding.Claim) {
	if s.Passage > 0 {
		if s.Passage > len(src.Passages) {
			return s, false, []grounding.Claim{{Kind: "url", Text: s.Title + " " + s.URL}}
		}
		p := src.Passages[s.Passage-1]
		var cs []grounding.Claim
		if s.URL != "" && s.URL != p.URL {
			cs = append(cs, grounding.Claim{Kind: "url", Text: s.URL})
		}
		s.Title, s.URL, s.Type = p.Title, p.URL, p.Type
		return s, true, cs
	}
	if s.Title == "" && s.URL == "" {
		return s, false, nil
	}
	for _, p := range src.Products {
		if sameText(p.Name, s.Title) {
			var cs []grounding.Claim
			if s.URL != p.URL {
				if s.URL != "" {
					cs = append(cs, grounding.Claim{Kind: "url", Text: s.URL})
				}
				s.URL = p.URL
			}
			s.Title, s.Type = p.Name, store.DocProduct
			return s, true, cs
		}
	}
	for i, p := range src.Passages {
		if sameText(p.Title, s.Title) && (s.URL == "" || s.URL == p.URL) {
			s.Title, s.URL, s.Type, s.Passage = p.Title, p.URL, p.Type, i+1
			return s, true, nil
		}
	}
	return s, false, []grounding.Claim{{Kind: "url", Text: strings.TrimSpace(s.Title + " " + s.URL)}}
}

// checkRow keeps a compared row only for a product of src, with that product's own data:
// a price, category or link that differs from it is removed, and every attribute value must
// be supported and stated in the product's own text.
func checkRow(r Row, src grounding.Sources, lang string, short func(string) string) (Row, bool, []grounding.Claim) {
	var p *store.Product
	for i := range src.Products {
		if sameText(src.Products[i].Name, r.Name) {
			p = &src.Products[i]
			break
		}
	}
	if p == nil {
		return r, false, []grounding.Claim{{Kind: "product", Text: r.Name}}
	}
	var cs []grounding.Claim
	r.Name = p.Name
	if r.Price != "" && !samePrice(r.Price, p.Price) {
		cs = append(cs, grounding.Claim{Kind: "price", Text: r.Price})
		r.Price = ""
	} else if r.Price != "" {
		r.Price = p.Price
	}
	if r.Category != "" && !sameText(r.Category, p.Category) {
		cs = append(cs, grounding.Claim{Kind: "feature", Text: r.Category})
		r.Category = ""
	}
	if r.URL != "" && r.URL != p.URL {
		cs = append(cs, grounding.Claim{Kind: "url", Text: r.URL})
		r.URL = ""
	}
	own := ownText(p.Name, src)
	values := map[string]string{}
	for k, v := range r.Values {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if !numbersIn(v, own) {
			cs = append(cs, grounding.Claim{Kind: "quantity", Text: v})
			continue
		}
		// An attribute is read from the product's own text, so its words must be there: a
		// model's "warranty: lifetime" carries no number and no claim word the guard knows
		// on its own, but "lifetime" is nowhere in the product's text.
		if !wordsIn(v, own, lang) {
			cs = append(cs, grounding.Claim{Kind: "feature", Text: k + ": " + v})
			continue
		}
		if v = short(v); v != "" {
			values[k] = v
		}
	}
	r.Values = values
	if r.Passage > len(src.Passages) {
		r.Passage = 0
	}
	return r, true, cs
}

// valueContext is the text an extracted value must come from: its passage, or its
// product's data and text, or all of src when it names no source.
func valueContext(s Source, src grounding.Sources) string {
	if s.Passage > 0 && s.Passage <= len(src.Passages) {
		return src.Passages[s.Passage-1].Text
	}
	for _, p := range src.Products {
		if s.Title != "" && sameText(p.Name, s.Title) {
			return strings.Join([]string{p.Name, p.Price, p.Category, p.URL, p.Image, ownText(p.Name, src)}, "\n")
		}
	}
	parts := []string{}
	for _, p := range src.Passages {
		parts = append(parts, p.Text)
	}
	for _, p := range src.Products {
		parts = append(parts, p.Name, p.Price, p.Category, p.URL, src.ProductText[p.Name])
	}
	return strings.Join(parts, "\n")
}

// ownText is what src says of one product: its description and its passages.
func ownText(name string, src grounding.Sources) string {
	parts := []string{src.ProductText[name]}
	for _, p := range src.Passages {
		if p.Type == store.DocProduct && sameText(p.Title, name) {
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// samePrice reports whether two price texts state the same amount in the same currency.
func samePrice(a, b string) bool {
	if a == b {
		return true
	}
	ca, va, oka := parsePrice(a)
	cb, vb, okb := parsePrice(b)
	return oka && okb && ca == cb && va == vb
}

// numbersIn reports whether every number of v occurs in text (separators ignored).
// wordsIn reports whether every analyzed word of v occurs in text.
func wordsIn(v, text, lang string) bool {
	have := map[string]bool{}
	for _, t := range textindex.IndexTerms(text, lang) {
		have[t] = true
	}
	for _, t := range textindex.IndexTerms(v, lang) {
		if !have[t] {
			return false
		}
	}
	return true
}

func numbersIn(v, text string) bool {
	have := map[string]bool{}
	for _, n := range amountRe.FindAllString(text, -1) {
		have[digitsOnly(n)] = true
	}
	for _, n := range amountRe.FindAllString(v, -1) {
		if !have[digitsOnly(n)] {
			return false
		}
	}
	return true
}

func digitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
