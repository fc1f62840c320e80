package marketing

import (
	"sync"
	"testing"

	"svc/internal/demo"
	"svc/internal/grounding"
	"svc/internal/kb"
	"svc/internal/store"
)

var (
	demoOnce sync.Once
	demoDocs []store.Document
	demoErr  error
)

// demoSources builds the Sources the caller would for the bundled sample KB in lg: the chunks
// of pages, Q&A entries and articles as passages, products with their prices and the text of
// their chunk.
func demoSources(t *testing.T, lg string) grounding.Sources {
	t.Helper()
	demoOnce.Do(func() {
		recs, err := kb.ParseJSONL(demo.Reader())
		if err != nil {
			demoErr = err
			return
		}
		demoDocs, demoErr = kb.BuildAll(recs)
	})
	if demoErr != nil {
		t.Fatalf("demo KB: %v", demoErr)
	}
	src := grounding.Sources{Business: "Yolcu Outdoor", ProductText: map[string]string{}}
	for _, d := range demoDocs {
		if d.Lang != lg {
			continue
		}
		// The caller's passages are retrieved chunks: a product's chunk starts with its name,
		// category and price lines, a Q&A entry's with its question.
		for _, c := range d.Chunks {
			src.Passages = append(src.Passages, grounding.Passage{DocID: int64(len(src.Passages) + 1), Type: d.Type, Title: d.Title, URL: d.URL, Text: c.Text, Lang: d.Lang})
		}
		if d.Type == store.DocProduct && d.Product != nil {
			src.Products = append(src.Products, *d.Product)
			src.ProductText[d.Product.Name] = d.Chunks[0].Text
		}
	}
	if len(src.Passages) == 0 || len(src.Products) == 0 {
		t.Fatalf("demo KB has no %s documents", lg)
	}
	return src
}

// demoProducts names a product of the sample KB per language, with its price.
var demoProducts = map[string]struct{ query, name, price string }{
	"en": {"Poyraz rain jacket", "Poyraz Rain Jacket", "$94.00"},
	"tr": {"Poyraz yağmurluk", "Poyraz Yağmurluk", "2.749,00 TL"},
	"de": {"Poyraz Regenjacke", "Poyraz Regenjacke", "89,90 €"},
}

var langs = []string{"tr", "en", "de"}

// onlyProducts keeps the product cards and their texts and the "about us" page: sources in
// which free shipping, discounts and other products are not supported.
func onlyProducts(src grounding.Sources) grounding.Sources {
	out := grounding.Sources{Business: src.Business, Products: src.Products, ProductText: src.ProductText}
	for _, ps := range src.Passages {
		if ps.Type == store.DocProduct {
			out.Passages = append(out.Passages, ps)
		}
	}
	return out
}
