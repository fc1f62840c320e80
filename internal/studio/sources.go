package studio

import (
	"context"
	"strings"

	"svc/internal/engine"
	"svc/internal/grounding"
	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/variant"
)

// How much one generation may read: enough for grounded copy or an answer, little enough
// that a model prompt stays small.
const (
	maxPassages    = 6
	maxProducts    = 8
	catalogScanCap = 500 // products compared by name when a request names one
)

// gather collects a generation's sources from the account (of siteID when non-zero): the
// best passages for text, and the products to feature, the named ones first, then those the
// passages are about. Everything comes through the account's own store queries, so no other
// tenant's data can enter.
func (s *Service) gather(ctx context.Context, a store.Account, siteID int64, text, lang string, named []string) (grounding.Sources, error) {
	src := grounding.Sources{Business: a.Name, Passages: []grounding.Passage{}, Products: []store.Product{},
		ProductText: map[string]string{}}
	seen := map[string]bool{}
	addProduct := func(p store.Product, text string) {
		key := textindex.Fold(p.Name)
		if p.Name == "" || seen[key] || len(src.Products) >= maxProducts {
			return
		}
		seen[key] = true
		src.Products = append(src.Products, p)
		src.ProductText[p.Name] = text
	}
	if len(named) > 0 {
		catalog, err := s.st.Products(ctx, a.ID, store.ProductQuery{SiteID: siteID, Limit: catalogScanCap})
		if err != nil {
			return src, err
		}
		for _, name := range named {
			if hit, ok := bestProduct(catalog, name, lang); ok {
				addProduct(*hit.Product, hit.Text)
			}
		}
	}
	if strings.TrimSpace(text) == "" {
		return src, nil
	}
	ps, err := s.eng.ForSite(siteID).Passages(ctx, a.ID, text, lang, maxPassages)
	if err != nil {
		return src, err
	}
	fit := fitPassages(ps, text, named)
	for i, p := range ps {
		if !fit[i] {
			continue // another variant than the one the request names: not its facts
		}
		if p.Product != nil {
			addProduct(*p.Product, p.Text)
		}
		src.Passages = append(src.Passages, grounding.Passage{DocID: p.DocID, Type: p.DocType, Title: p.Title,
			URL: p.URL, Text: p.Text, Lang: p.Lang})
	}
	return src, nil
}

// fitPassages reports, per passage, whether it may be a source of a request about text and
// the named products: a product passage whose name the request's variant tokens exclude
// (variant.Fit: "Nova 12 Pro" for a brief about the "Nova 12 Lite") is not, so its price
// never reaches the generation. Other passages always are.
func fitPassages(ps []engine.Passage, text string, named []string) []bool {
	out := make([]bool, len(ps))
	var names []string
	var idx []int
	for i, p := range ps {
		out[i] = true
		if p.Product != nil {
			names = append(names, p.Product.Name)
			idx = append(idx, i)
		}
	}
	if len(names) == 0 {
		return out
	}
	about := strings.Join(append([]string{text}, named...), "\n")
	for k, ok := range variant.Fit(about, names) {
		out[idx[k]] = ok
	}
	return out
}

// bestProduct finds the product a person means by name: the one whose analyzed name shares
// the most terms with it (all of the query's terms when possible), preferring the query's
// language, among those whose variant the name does not exclude (variant.Fit: "Nova 12
// Lite" never finds "Nova 12 Pro"). Names are matched on the analyzer's terms, so "Uludağ
// çadır" finds "Uludağ 2 Kişilik Çadır" and case or Turkish letters do not matter.
func bestProduct(catalog []store.ChunkHit, name, lang string) (store.ChunkHit, bool) {
	want := textindex.IndexTerms(name, lang)
	if len(want) == 0 {
		return store.ChunkHit{}, false
	}
	names := make([]string, len(catalog))
	for i, h := range catalog {
		if h.Product != nil {
			names[i] = h.Product.Name
		}
	}
	fit := variant.Fit(name, names)
	var best store.ChunkHit
	bestScore := 0.0
	for i, h := range catalog {
		if h.Product == nil || !fit[i] {
			continue
		}
		have := map[string]bool{}
		for _, t := range textindex.IndexTerms(h.Product.Name, h.Lang) {
			have[t] = true
		}
		shared := 0
		for _, t := range want {
			if have[t] {
				shared++
			}
		}
		if shared == 0 {
			continue
		}
		score := float64(shared) / float64(len(want))
		if h.Lang == lang {
			score += 0.01
		}
		if score > bestScore {
			best, bestScore = h, score
		}
	}
	return best, bestScore >= 0.5
}
