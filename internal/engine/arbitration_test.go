package engine

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
)

// docsShop is testdata/variants.jsonl: a wallet's documentation beside its shop, in tr, en
// and de, with two sibling phones (Nova 12 Lite and Nova 12 Pro) and a water bottle whose
// description shares words with a how-to question ("way", "Weg", "yolu", "back").
func docsShop(t *testing.T) (*Engine, int64, []store.Product) {
	t.Helper()
	b, err := os.ReadFile("testdata/variants.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return salesKB(t, string(b))
}

func askSales(t *testing.T, e *Engine, acct int64, lang, q string, sales bool) Answer {
	t.Helper()
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: q, Lang: lang, SalesMode: sales})
	if err != nil {
		t.Fatalf("%s %q: %v", lang, q, err)
	}
	return a
}

// TestArbitrationHowToGetsThePage: "the best way to …" asks for a way, not for a product;
// a product whose text shares a word with it (the bottle that keeps drinks cold "the whole
// way") gets no card, and the reply is the page's, the same as with Sales Mode off.
func TestArbitrationHowToGetsThePage(t *testing.T) {
	t.Parallel()
	e, acct, products := docsShop(t)
	for _, tt := range []struct{ lang, question, source string }{
		{"en", "What is the best way to back up my wallet?", "Backing up your wallet"},
		{"tr", "Cüzdanımı yedeklemenin en iyi yolu nedir?", "Cüzdanınızı yedekleme"},
		{"de", "Was ist der beste Weg, meine Wallet zu sichern?", "Wallet sichern"},
		{"en", "How do I restore my wallet?", "Backing up your wallet"},
	} {
		on := askSales(t, e, acct, tt.lang, tt.question, true)
		off := askSales(t, e, acct, tt.lang, tt.question, false)
		if len(on.Cards) != 0 {
			t.Errorf("%s %q: cards %q", tt.lang, tt.question, cardNames(on.Cards))
		}
		if !on.Confident || !strings.Contains(on.Text, "25") || !strings.Contains(on.Text, ": "+tt.source+" (") {
			t.Errorf("%s %q: reply %q does not quote %q", tt.lang, tt.question, on.Text, tt.source)
		}
		if on.Text != off.Text {
			t.Errorf("%s %q: Sales Mode changed the reply\n on: %q\noff: %q", tt.lang, tt.question, on.Text, off.Text)
		}
		checkCards(t, on, products)
	}
}

// TestArbitrationPolicyOfAProductGetsThePolicy: a question about the returns of a product
// the shop sells is answered by the returns page, without a card and without the product's
// price, whatever the product wording ("was kostet", "ne kadar").
func TestArbitrationPolicyOfAProductGetsThePolicy(t *testing.T) {
	t.Parallel()
	e, acct, products := docsShop(t)
	for _, tt := range []struct{ lang, question, source, cost string }{
		{"en", "What is your return policy for a phone?", "Return policy", ""},
		{"en", "How much does it cost to return a phone?", "Return policy", "9.90 USD"},
		{"tr", "Telefon iadesi ne kadar?", "İade koşulları", "79,90 TL"},
		{"de", "Rücksendung eines Telefons – was kostet das?", "Rücksendung", ""},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if len(a.Cards) != 0 {
			t.Errorf("%s %q: cards %q", tt.lang, tt.question, cardNames(a.Cards))
		}
		if !strings.Contains(a.Text, ": "+tt.source+" (") || !strings.Contains(a.Text, tt.cost) {
			t.Errorf("%s %q: reply %q, want the %q page and %q", tt.lang, tt.question, a.Text, tt.source, tt.cost)
		}
		for _, p := range products {
			if strings.Contains(a.Text, p.Price) {
				t.Errorf("%s %q: reply gives the price of %s: %q", tt.lang, tt.question, p.Name, a.Text)
			}
		}
		checkCards(t, a, products)
	}
}

// TestArbitrationProductQuestionsKeepTheirCards: real product questions (price, stock,
// listing, comparison, recommendation, "the best phone") still get their cards.
func TestArbitrationProductQuestionsKeepTheirCards(t *testing.T) {
	t.Parallel()
	e, acct, products := docsShop(t)
	both := []string{"Nova 12 Lite", "Nova 12 Pro"}
	for _, tt := range []struct {
		lang, question string
		want           []string
	}{
		{"en", "Show me phones", both},
		{"tr", "Telefonlarınızı gösterir misiniz?", both},
		{"de", "Welche Smartphones haben Sie?", both},
		{"en", "Compare the Nova 12 Lite and the Nova 12 Pro", both},
		{"tr", "Nova 12 Lite ile Nova 12 Pro arasındaki fark nedir?", both},
		{"de", "Was ist der Unterschied zwischen Nova 12 Lite und Nova 12 Pro?", both},
		{"en", "Which phone do you recommend?", both},
		{"en", "What is the best phone?", both},
		{"tr", "En iyi telefon hangisi?", both},
		{"de", "Welches ist das beste Smartphone?", both},
		{"en", "Is the Nova 12 Lite in stock?", []string{"Nova 12 Lite"}},
		{"tr", "Nova 12 Lite stokta var mı?", []string{"Nova 12 Lite"}},
		{"de", "Ist das Nova 12 Pro lieferbar?", []string{"Nova 12 Pro"}},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if got := cardNames(a.Cards); !sameSet(got, tt.want) {
			t.Errorf("%s %q: cards %q, want %q", tt.lang, tt.question, got, tt.want)
		}
		for _, c := range a.Cards {
			if c.Lang != tt.lang {
				t.Errorf("%s %q: card %q is in %s", tt.lang, tt.question, c.Product.Name, c.Lang)
			}
		}
		checkCards(t, a, products)
	}
}

// TestArbitrationDemoShop: the demo's failures. The return policy for a sleeping bag is the
// return policy, with no card; the German return cost of a sleeping bag is the return cost,
// not the bag's price; a how-to question with "best" is answered from the pages.
func TestArbitrationDemoShop(t *testing.T) {
	t.Parallel()
	e, acct, products := demoSalesKB(t)
	for _, tt := range []struct{ lang, question, want string }{
		{"en", "What is your return policy for a sleeping bag?", "30 days"},
		{"en", "How much does it cost to return a sleeping bag?", "$12.00"},
		{"de", "Rücksendung eines Schlafsacks – was kostet das?", "5,90 €"},
		{"tr", "Uyku tulumu iadesi ne kadar?", "49,90 TL"},
		{"en", "What is the best way to wash a sleeping bag?", "easy to wash"},
		{"de", "Was ist der beste Weg, einen Schlafsack zu waschen?", "leicht zu waschen"},
		{"tr", "Uyku tulumunu yıkamanın en iyi yolu nedir?", ""},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if len(a.Cards) != 0 {
			t.Errorf("%s %q: cards %q", tt.lang, tt.question, cardNames(a.Cards))
		}
		if !strings.Contains(a.Text, tt.want) {
			t.Errorf("%s %q: reply %q lacks %q", tt.lang, tt.question, a.Text, tt.want)
		}
		for _, p := range products {
			if strings.Contains(a.Text, p.Price) && !slices.Contains([]string{"$12.00"}, p.Price) {
				t.Errorf("%s %q: reply gives the price of %s: %q", tt.lang, tt.question, p.Name, a.Text)
			}
		}
		checkCards(t, a, products)
	}
}
