package intel

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"svc/internal/store"
)

var catalogProducts = []store.CatalogProduct{
	{DocID: 1, Name: "Kaçkar Pro Trekking Boot", URL: "https://yolcu-outdoor.example/en/products/kackar-pro-trekking-boot",
		Price: "$129.00", Category: "Footwear", Image: "https://yolcu-outdoor.example/img/kackar.jpg",
		Description: "Waterproof nubuck leather trekking boot | breathable membrane.", Lang: "en"},
	{DocID: 2, Name: "Aladağ 35 Backpack", Price: "$69.00", Category: "Backpacks", Lang: "en"},
}

var catalogFAQ = []store.CatalogFAQ{
	{DocID: 3, Question: "How long does delivery take?", Answer: "1–3 business days within Turkey.", Lang: "en"},
	{DocID: 4, Question: "Can I pay in instalments?", Answer: "Yes, in 2, 3, 6 or 9 instalments.", Lang: "en"},
}

var catalogCategories = []store.CatalogCategory{
	{Kind: "product", Name: "Footwear", Count: 1},
	{Kind: "article", Name: "Returns", Slug: "returns", Count: 2},
}

func TestDataShapes(t *testing.T) {
	type shaper func(format, depth string, empty bool) any
	kinds := map[string]struct {
		shape           shaper
		lean, full      []string // table columns
		rows            int
		jsonKeys        string
		markdownHasPipe bool
	}{
		"products": {func(f, d string, e bool) any {
			if e {
				return DataProducts(f, nil, d)
			}
			return DataProducts(f, catalogProducts, d)
		}, []string{"name", "price", "category", "url", "description"},
			[]string{"name", "price", "category", "url", "description", "image", "lang"}, 2,
			"category,description,name,price,url", true},
		"faq": {func(f, d string, e bool) any {
			if e {
				return DataFAQ(f, nil, d)
			}
			return DataFAQ(f, catalogFAQ, d)
		}, []string{"question", "answer"}, []string{"question", "answer"}, 2, "answer,question", false},
		"categories": {func(f, d string, e bool) any {
			if e {
				return DataCategories(f, nil, d)
			}
			return DataCategories(f, catalogCategories, d)
		}, []string{"kind", "name", "slug", "count"}, []string{"kind", "name", "slug", "count"}, 2, "count,kind,name,slug", true},
	}
	for kind, k := range kinds {
		for _, depth := range []string{DepthLean, DepthFull} {
			for _, format := range formats {
				name := fmt.Sprintf("%s/%s/%s", kind, depth, format)
				res := k.shape(format, depth, false)
				empty := k.shape(format, depth, true)
				for _, r := range []any{res, empty} {
					if b, _ := json.Marshal(r); strings.Contains(string(b), "null") {
						t.Errorf("%s: null in %s", name, b)
					}
				}
				switch format {
				case FormatTable:
					tb := res.(Table)
					want := k.lean
					if depth == DepthFull {
						want = k.full
					}
					if strings.Join(tb.Columns, ",") != strings.Join(want, ",") || len(tb.Rows) != k.rows {
						t.Errorf("%s: %+v", name, tb)
					}
					for _, r := range tb.Rows {
						if len(r) != len(tb.Columns) {
							t.Errorf("%s: row %q", name, r)
						}
					}
					if len(empty.(Table).Rows) != 0 || len(empty.(Table).Columns) != len(want) {
						t.Errorf("%s: empty %+v", name, empty)
					}
				case FormatList:
					if l := res.(List); len(l.Items) != k.rows {
						t.Errorf("%s: %+v", name, l)
					}
				case FormatJSON:
					b, _ := json.Marshal(res.(JSONData).Data)
					var arr []map[string]any
					if err := json.Unmarshal(b, &arr); err != nil || len(arr) != k.rows {
						t.Fatalf("%s: %s", name, b)
					}
					var keys []string
					for key := range arr[0] {
						keys = append(keys, key)
					}
					want := k.jsonKeys
					if kind == "products" && depth == DepthFull {
						want = "category,description,image,lang,name,price,url"
					}
					if got := strings.Join(sorted(keys), ","); got != want {
						t.Errorf("%s: keys %s, want %s", name, got, want)
					}
					if b, _ := json.Marshal(empty.(JSONData)); string(b) != `{"data":[]}` {
						t.Errorf("%s: empty %s", name, b)
					}
				default:
					txt := res.(Text).Result
					if txt == "" {
						t.Errorf("%s: empty", name)
					}
					if format == FormatMarkdown && k.markdownHasPipe && !strings.HasPrefix(txt, "| ") {
						t.Errorf("%s: not a table:\n%s", name, txt)
					}
				}
			}
		}
	}
}

func TestDataDetails(t *testing.T) {
	md := DataProducts(FormatMarkdown, catalogProducts, DepthLean).(Text).Result
	if !strings.Contains(md, "| Name | Price | Category | Description |") ||
		!strings.Contains(md, "[Kaçkar Pro Trekking Boot](https://yolcu-outdoor.example/en/products/kackar-pro-trekking-boot)") ||
		!strings.Contains(md, `boot \| breathable`) {
		t.Errorf("markdown:\n%s", md)
	}
	tr := []store.CatalogProduct{{Name: "Kaçkar Pro Trekking Botu", Price: "4.290,00 TL", Category: "Ayakkabı", Lang: "tr"}}
	if md := DataProducts(FormatMarkdown, tr, DepthLean).(Text).Result; !strings.Contains(md, "| Ad | Fiyat | Kategori | Açıklama |") {
		t.Errorf("Turkish markdown:\n%s", md)
	}
	if l := DataProducts(FormatList, catalogProducts, DepthLean).(List); l.Items[0] != "Kaçkar Pro Trekking Boot — $129.00 (Footwear)" {
		t.Errorf("list %q", l.Items)
	}
	if tb := DataCategories(FormatTable, catalogCategories, DepthLean).(Table); tb.Rows[1][3] != "2" || tb.Rows[1][2] != "returns" {
		t.Errorf("categories %+v", tb)
	}
	b, _ := json.Marshal(DataCategories(FormatJSON, catalogCategories, DepthLean))
	if !strings.Contains(string(b), `{"kind":"article","name":"Returns","slug":"returns","count":2}`) {
		t.Errorf("categories json %s", b)
	}
	if txt := DataFAQ(FormatText, catalogFAQ, DepthLean).(Text).Result; !strings.HasPrefix(txt, "How long does delivery take?\n1–3 business days within Turkey.\n\nCan I pay") {
		t.Errorf("faq text %q", txt)
	}
}

func sorted(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}
