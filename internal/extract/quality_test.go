package extract

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"golang.org/x/net/html"
)

// goldPage is one page of testdata/products/gold.json: where the page lives, its language,
// and the exact products a careful reader takes from it.
type goldPage struct {
	URL      string `json:"url"`
	Lang     string `json:"lang"`
	Products []struct {
		Source   string `json:"source"`
		Name     string `json:"name"`
		Price    string `json:"price"`
		Category string `json:"category"`
		Image    string `json:"image"`
		URL      string `json:"url"`
	} `json:"products"`
}

// TestProductQuality runs Products over the corpus of real-style shop pages and measures it
// against the gold file. A product counts as found when its name and its price text both
// match exactly; category, image and URL are reported as field accuracy over found products.
// Precision must be perfect (no invented card, ever) and recall at least 0.95.
//
// Run `go test -run TestProductQuality -v ./internal/extract` to see the table.
func TestProductQuality(t *testing.T) {
	dir := filepath.Join("testdata", "products")
	raw, err := os.ReadFile(filepath.Join(dir, "gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gold map[string]goldPage
	if err := json.Unmarshal(raw, &gold); err != nil {
		t.Fatalf("gold.json: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("corpus has %d pages, want at least 30", len(files))
	}
	for name := range gold {
		if !slices.Contains(files, filepath.Join(dir, name)) {
			t.Errorf("gold.json lists %s, which is not in %s", name, dir)
		}
	}

	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "page\tgold\tgot\tfound\tcategory\timage\turl\t")
	var nGold, nGot, nFound, okCat, okImg, okURL int
	for _, path := range files {
		name := filepath.Base(path)
		g, ok := gold[name]
		if !ok {
			t.Errorf("%s has no entry in gold.json", name)
			continue
		}
		page, err := url.Parse(g.URL)
		if err != nil {
			t.Fatalf("%s: page url: %v", name, err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := Products(doc, page, g.Lang)
		used := make([]bool, len(g.Products))
		found, cat, img, link := 0, 0, 0, 0
		for _, p := range got {
			match := -1
			for i, want := range g.Products {
				if !used[i] && want.Name == p.Name && want.Price == p.Price {
					match = i
					break
				}
			}
			if match < 0 {
				t.Errorf("%s: product not in gold: %+v", name, p)
				continue
			}
			used[match] = true
			want := g.Products[match]
			found++
			if want.Source != p.Source {
				// The source shows which reader produced the card: a broken JSON-LD block
				// that an OpenGraph fallback happens to cover must still fail here.
				t.Errorf("%s: %q came from %s, gold says %s", name, p.Name, p.Source, want.Source)
			}
			if want.Category == p.Category {
				cat++
			} else {
				t.Logf("%s: %q category %q, gold %q", name, p.Name, p.Category, want.Category)
			}
			if want.Image == p.Image {
				img++
			} else {
				t.Logf("%s: %q image %q, gold %q", name, p.Name, p.Image, want.Image)
			}
			if want.URL == p.URL {
				link++
			} else {
				t.Logf("%s: %q url %q, gold %q", name, p.Name, p.URL, want.URL)
			}
		}
		for i, want := range g.Products {
			if !used[i] {
				t.Logf("%s: missed %q (%s)", name, want.Name, want.Price)
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, len(g.Products), len(got), found, cat, img, link)
		nGold += len(g.Products)
		nGot += len(got)
		nFound += found
		okCat += cat
		okImg += img
		okURL += link
	}
	precision, recall := ratio(nFound, nGot), ratio(nFound, nGold)
	fmt.Fprintf(tw, "TOTAL (%d pages)\t%d\t%d\t%d\t%d\t%d\t%d\t\n", len(files), nGold, nGot, nFound, okCat, okImg, okURL)
	tw.Flush()
	t.Logf("\n%s", table.String())
	t.Logf("precision %.3f  recall %.3f  category %.3f  image %.3f  url %.3f",
		precision, recall, ratio(okCat, nFound), ratio(okImg, nFound), ratio(okURL, nFound))
	if precision < 1 {
		t.Errorf("precision %.3f < 1.0: a product card was invented or mis-priced", precision)
	}
	if recall < 0.95 {
		t.Errorf("recall %.3f < 0.95", recall)
	}
}

// ratio is a/b, and 1 when there is nothing to measure.
func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}
