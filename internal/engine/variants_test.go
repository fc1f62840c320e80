package engine

import (
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
)

// TestVariantExactPrices: a price question about one model gets that model's card and
// price, never its sibling's, in every language and with Sales Mode off as well; one naming
// no variant lists both, in the question's language.
func TestVariantExactPrices(t *testing.T) {
	t.Parallel()
	e, acct, products := docsShop(t)
	price := map[string]map[string]string{ // lang → model → price
		"en": {"Nova 12 Lite": "$399.00", "Nova 12 Pro": "$699.00"},
		"tr": {"Nova 12 Lite": "14.999,00 TL", "Nova 12 Pro": "24.999,00 TL"},
		"de": {"Nova 12 Lite": "379,00 €", "Nova 12 Pro": "649,00 €"},
	}
	for _, tt := range []struct {
		lang, question string
		want           []string
	}{
		{"tr", "Nova 12 Lite fiyatı ne kadar?", []string{"Nova 12 Lite"}},
		{"tr", "Nova 12 Lite'ın fiyatı nedir?", []string{"Nova 12 Lite"}},
		{"tr", "Nova 12 Pro kaç TL?", []string{"Nova 12 Pro"}},
		{"en", "How much is the Nova 12 Lite?", []string{"Nova 12 Lite"}},
		{"en", "What does the Nova 12 Pro cost?", []string{"Nova 12 Pro"}},
		{"de", "Was kostet das Nova 12 Lite?", []string{"Nova 12 Lite"}},
		{"de", "Wie viel kostet das Nova 12 Pro?", []string{"Nova 12 Pro"}},
		{"tr", "Nova 12 ne kadar?", []string{"Nova 12 Lite", "Nova 12 Pro"}},
		{"en", "How much is the Nova 12?", []string{"Nova 12 Lite", "Nova 12 Pro"}},
		{"de", "Was kostet das Nova 12?", []string{"Nova 12 Lite", "Nova 12 Pro"}},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if got := cardNames(a.Cards); !sameSet(got, tt.want) {
			t.Errorf("%s %q: cards %q, want %q", tt.lang, tt.question, got, tt.want)
		}
		for model, p := range price[tt.lang] {
			if in := strings.Contains(a.Text, p); in != slices.Contains(tt.want, model) {
				t.Errorf("%s %q: reply %q: %s's price %s shown %v", tt.lang, tt.question, a.Text, model, p, in)
			}
		}
		for _, c := range a.Cards {
			if c.Lang != tt.lang {
				t.Errorf("%s %q: card %q in %s", tt.lang, tt.question, c.Product.Name, c.Lang)
			}
		}
		checkCards(t, a, products)
		if len(tt.want) == 1 {
			off := askSales(t, e, acct, tt.lang, tt.question, false)
			sibling := "Nova 12 Pro"
			if tt.want[0] == sibling {
				sibling = "Nova 12 Lite"
			}
			if strings.Contains(off.Text, sibling) || len(off.Passages) == 0 || off.Passages[0].Title != tt.want[0] {
				t.Errorf("%s %q, Sales Mode off: reply %q quotes the sibling", tt.lang, tt.question, off.Text)
			}
		}
	}
}

// TestMissingVariantFallsBack: a question about a variant the shop does not sell gets no
// sibling's card or price.
func TestMissingVariantFallsBack(t *testing.T) {
	t.Parallel()
	e, acct, _ := docsShop(t)
	for _, tt := range [][2]string{{"en", "How much is the Nova 12 Max?"}, {"tr", "Nova 13 Lite fiyatı ne kadar?"},
		{"de", "Was kostet das Nova 12 Ultra?"}} {
		for _, sales := range []bool{true, false} {
			a := askSales(t, e, acct, tt[0], tt[1], sales)
			if len(a.Cards) != 0 || strings.Contains(a.Text, "Nova 12 Lite") || strings.Contains(a.Text, "Nova 12 Pro") {
				t.Errorf("%s %q (sales %v): cards %q, reply %q", tt[0], tt[1], sales, cardNames(a.Cards), a.Text)
			}
		}
	}
}

// TestNameGuardVariants: a sentence naming another variant of a carded product is no
// mention of the card, though their names share "Nova 12": it brings the variant in when it
// may join the cards, and goes otherwise.
func TestNameGuardVariants(t *testing.T) {
	t.Parallel()
	lite := Card{DocID: 1, Lang: "en", Product: store.Product{Name: "Nova 12 Lite", Category: "Phones"}}
	pro := Card{DocID: 2, Lang: "en", Product: store.Product{Name: "Nova 12 Pro", Category: "Phones"}}
	text := "The Nova 12 Lite has a 6.1-inch screen. The Nova 12 Pro has a secure element."
	got, cards := NameGuard{Lang: "en", Max: 8}.Apply(text, []Card{lite})
	if got != "The Nova 12 Lite has a 6.1-inch screen." || len(cards) != 1 {
		t.Errorf("nothing addable: %q, %d cards", got, len(cards))
	}
	got, cards = NameGuard{Lang: "en", Max: 8, Addable: []Card{pro}}.Apply(text, []Card{lite})
	if got != text || len(cards) != 2 || cards[1].DocID != 2 {
		t.Errorf("the Pro addable: %q, cards %v", got, cardNames(cards))
	}
	got, _ = NameGuard{Lang: "tr", Max: 8}.Apply("Nova 12 Pro'nun fiyatı 24.999,00 TL. Kargo ücretsizdir.", []Card{lite})
	if got != "Kargo ücretsizdir." {
		t.Errorf("tr: %q", got)
	}
	if NamesProduct("Nova 12 Lite fiyatı?", "tr", pro.Product) || !NamesProduct("Nova 12 Lite fiyatı?", "tr", lite.Product) {
		t.Error("NamesProduct ignores the variant")
	}
}

// TestQuoteInTheRepliesLanguage: a message that carries no language of its own ("42", a
// product's name) takes the conversation's, and the passage quoted is in it too: a German
// lead-in never stands before an English price line.
func TestQuoteInTheRepliesLanguage(t *testing.T) {
	t.Parallel()
	e, acct, _ := demoSalesKB(t)
	for _, lg := range []string{"de", "tr", "en"} {
		for _, q := range []string{"42", "Kaçkar Pro", "Toros"} {
			for _, sales := range []bool{true, false} {
				a := askSales(t, e, acct, lg, q, sales)
				if !a.Confident {
					continue
				}
				if a.Passages[0].Lang != lg {
					t.Errorf("%s %q (sales %v): quotes a passage in %s: %q", lg, q, sales, a.Passages[0].Lang, a.Text)
				}
				for _, c := range a.Cards {
					if c.Lang != lg {
						t.Errorf("%s %q: card %q in %s", lg, q, c.Product.Name, c.Lang)
					}
				}
				if lg != "en" && strings.Contains(a.Text, "Price:") {
					t.Errorf("%s %q: English price line in %q", lg, q, a.Text)
				}
			}
		}
	}
}
