package grounding

import (
	"testing"

	"svc/internal/demo"
	"svc/internal/kb"
)

// TestDemoKBSupportsItself grounds on the bundled demo knowledge base (three languages, HTML
// pages, Q&A, products, policies full of prices, days and percentages) and checks that the
// guard finds nothing unsupported in the KB's own text, names and prices: whatever the
// scanners read in generated text they must read the same way in the sources.
func TestDemoKBSupportsItself(t *testing.T) {
	for _, lang := range []string{"tr", "en", "de"} {
		src := demoSources(t, lang)
		if len(src.Passages) == 0 || len(src.Products) == 0 {
			t.Fatalf("%s: the demo KB has no passages or products", lang)
		}
		g := New(src, lang)
		for _, p := range src.Passages {
			if got, claims := g.Clean(p.Text); got != p.Text {
				t.Errorf("%s %q: removed %v from the KB's own text", lang, p.Title, claims)
			}
		}
		for _, p := range src.Products {
			if ok, claims := g.Supported(p.Name + ": " + p.Price); !ok {
				t.Errorf("%s %q: %v unsupported", lang, p.Name+": "+p.Price, claims)
			}
		}
	}
}

// demoSources returns the demo knowledge base of lang as the sources of one generation.
func demoSources(tb testing.TB, lang string) Sources {
	tb.Helper()
	recs, err := kb.ParseJSONL(demo.Reader())
	if err != nil {
		tb.Fatal(err)
	}
	docs, err := kb.BuildAll(recs)
	if err != nil {
		tb.Fatal(err)
	}
	src := Sources{Business: "Yolcu Outdoor"}
	for i, d := range docs {
		if d.Lang != lang {
			continue
		}
		src.Passages = append(src.Passages, Passage{DocID: int64(i + 1), Type: d.Type, Title: d.Title, URL: d.URL,
			Text: d.Body, Lang: d.Lang})
		if d.Product != nil {
			src.Products = append(src.Products, *d.Product)
		}
	}
	return src
}

// BenchmarkNew measures reading a whole knowledge base (the demo's Turkish part, far more
// than one generation retrieves) into a guard.
func BenchmarkNew(b *testing.B) {
	src := demoSources(b, "tr")
	for b.Loop() {
		New(src, "tr")
	}
}

// BenchmarkClean measures checking one generated body against that knowledge base.
func BenchmarkClean(b *testing.B) {
	g := New(demoSources(b, "tr"), "tr")
	text := "Yolcu Outdoor ile doğaya hazır olun! Kara Cuma'ya özel tüm ürünlerde %50 indirim.\n" +
		"- 1.500 TL ve üzeri siparişlerde kargo ücretsiz\n- 30 gün içinde iade\n- Ömür boyu garanti\n" +
		"Kaçkar Pro Trekking Botu şimdi 2.499,90 TL. Detaylar yolcu-outdoor.example/tr/kara-cuma adresinde."
	for b.Loop() {
		g.Clean(text)
	}
}
