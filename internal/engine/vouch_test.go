package engine

import (
	"context"
	"strings"
	"testing"
)

// policyShop is a shop whose warranty page speaks of all its products and whose products
// never mention the warranty.
var policyShop = kbLines(
	map[string]string{
		"type":  "page",
		"url":   "https://shop.example/en/warranty",
		"title": "Warranty",
		"lang":  "en",
		"body":  "Every product comes with a 3-year warranty. Repairs under warranty are free.",
	},
	map[string]string{
		"type":  "page",
		"url":   "https://shop.example/de/garantie",
		"title": "Garantie",
		"lang":  "de",
		"body":  "Auf alle Produkte gewähren wir 3 Jahre Garantie. Reparaturen im Garantiefall sind kostenlos.",
	},
	map[string]string{
		"type":  "page",
		"url":   "https://shop.example/tr/garanti",
		"title": "Garanti",
		"lang":  "tr",
		"body":  "Tüm ürünlerimiz 3 yıl garantilidir. Garanti kapsamındaki onarımlar ücretsizdir.",
	},
	map[string]string{
		"type":        "product",
		"name":        "Lodos Rain Jacket",
		"url":         "https://shop.example/en/lodos",
		"price":       "$90.00",
		"category":    "Clothing",
		"lang":        "en",
		"description": "Hooded rain jacket, 20,000 mm waterproof rating.",
	},
	map[string]string{
		"type":        "product",
		"name":        "Lodos Regenjacke",
		"url":         "https://shop.example/de/lodos",
		"price":       "85,00 €",
		"category":    "Bekleidung",
		"lang":        "de",
		"description": "Regenjacke mit Kapuze, 20.000 mm Wassersäule.",
	},
	map[string]string{
		"type":        "product",
		"name":        "Lodos Yağmurluk",
		"url":         "https://shop.example/tr/lodos",
		"price":       "3.100 TL",
		"category":    "Giyim",
		"lang":        "tr",
		"description": "Kapüşonlu yağmurluk, 20.000 mm su geçirmezlik.",
	},
	map[string]string{
		"type":        "product",
		"name":        "Pusula Tent",
		"url":         "https://shop.example/en/pusula",
		"price":       "$150.00",
		"category":    "Tents",
		"lang":        "en",
		"description": "Two-person tent, 2.1 kg.",
	},
)

// TestPageVouchedByProductBehind: a policy page that ranks first and speaks of all products
// answers a question about one kind of product, which a product's name behind it holds; a
// question the page does not answer still falls back.
func TestPageVouchedByProductBehind(t *testing.T) {
	t.Parallel()
	e, acct, _ := salesKB(t, policyShop)
	tests := []struct{ lang, question, want string }{
		{"en", "How long is the warranty on a rain jacket?", "3-year warranty"},
		{"de", "Wie lange ist die Garantie auf eine Regenjacke?", "3 Jahre Garantie"},
		{"tr", "Yağmurluğun garantisi ne kadar?", "3 yıl"},
		{"en", "Can I rent a tent for a weekend instead of buying one?", ""},
	}
	for _, tt := range tests {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tt.question, Lang: tt.lang, SalesMode: true})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.want == "" && a.Confident:
			t.Errorf("%s %q: want the fallback, got %q", tt.lang, tt.question, a.Text)
		case tt.want != "" && (!a.Confident || !strings.Contains(a.Text, tt.want)):
			t.Errorf("%s %q: want %q in the reply, got %q", tt.lang, tt.question, tt.want, a.Text)
		}
	}
}
