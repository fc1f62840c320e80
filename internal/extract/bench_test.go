package extract

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
)

// BenchmarkProducts measures Products over the whole corpus, one parsed page after another,
// the way the crawler calls it.
func BenchmarkProducts(b *testing.B) {
	files, err := filepath.Glob(filepath.Join("testdata", "products", "*.html"))
	if err != nil || len(files) == 0 {
		b.Fatal("no corpus")
	}
	var docs []*html.Node
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, parse(b, string(raw)))
	}
	page := mustURL(b, "https://shop.test/p/x")
	b.ResetTimer()
	for b.Loop() {
		for _, doc := range docs {
			Products(doc, page, "tr")
		}
	}
}
