package engine

import (
	"os"
	"strings"
	"testing"

	"svc/internal/store"
)

// ridgeShop is testdata/kinds.jsonl: documentation pages (wallet types, getting coins,
// backing up) beside a shop whose siblings differ by a model's line word (Falcon R7
// Lite/Pro), an amount (Summit flask 500 ml/750 ml) and a line word after a kind
// (Keyguard Mini/Max hardware wallet), in tr, en and de. The flask's copy says "the best
// way to carry water" and the coin logo, and the wallets and phones speak of wallets: the
// documentation's words.
func ridgeShop(t *testing.T) (*Engine, int64, []store.Product) {
	t.Helper()
	b, err := os.ReadFile("testdata/kinds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return salesKB(t, string(b))
}

// TestVariantNamedApart: a question that names the variant apart from the product's full
// name (the model code without the brand, "the Pro model", "das Pro-Modell des …", "mit 500
// ml", a word of the name that is a stop word elsewhere) gets that variant's card and price
// alone.
func TestVariantNamedApart(t *testing.T) {
	t.Parallel()
	e, acct, products := ridgeShop(t)
	for _, tt := range []struct {
		lang, question, want, price, sibling string
	}{
		{"en", "How much is the R7 Lite phone?", "Falcon R7 Lite", "$329.00", "$589.00"},
		{"en", "How much is the Pro model phone?", "Falcon R7 Pro", "$589.00", "$329.00"},
		{"en", "What does the 750 ml flask cost?", "Summit water flask 750 ml", "$23.00", "$18.00"},
		{"de", "Wie teuer ist das Pro-Modell des Falcon R7?", "Falcon R7 Pro", "549,00 €", "309,00 €"},
		{"de", "Was kostet das Lite-Modell?", "Falcon R7 Lite", "309,00 €", "549,00 €"},
		{"de", "Was kostet die Trinkflasche mit 500 ml?", "Summit Trinkflasche 500 ml", "17,00 €", "21,00 €"},
		{"tr", "R7 Pro telefonun fiyatı ne kadar?", "Falcon R7 Pro", "19.999,00 TL", "10.999,00 TL"},
		{"tr", "500 ml su matarasının fiyatı nedir?", "Summit su matarası 500 ml", "599,00 TL", "749,00 TL"},
		{"tr", "Lite model telefon kaç TL?", "Falcon R7 Lite", "10.999,00 TL", "19.999,00 TL"},
		{"tr", "Pro modelin fiyatı nedir?", "Falcon R7 Pro", "19.999,00 TL", "10.999,00 TL"},
		{"de", "Was kostet die Pro-Variante?", "Falcon R7 Pro", "549,00 €", "309,00 €"},
		{"de", "Wie viel kostet die 750-ml-Flasche?", "Summit Trinkflasche 750 ml", "21,00 €", "17,00 €"},
		{"en", "How much is the Pro version?", "Falcon R7 Pro", "$589.00", "$329.00"},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if got := cardNames(a.Cards); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s %q: cards %q, want only %q", tt.lang, tt.question, got, tt.want)
		}
		if !strings.Contains(a.Text, tt.price) || strings.Contains(a.Text, tt.sibling) {
			t.Errorf("%s %q: reply %q, want %s and not the sibling's %s", tt.lang, tt.question, a.Text, tt.price, tt.sibling)
		}
		checkCards(t, a, products)
	}
}

// TestBestWayIsNoProduct: "what is the best way to …" asks for a way. A product whose copy
// shares the way ("the best way to carry water", "en iyi yolu", "der beste Weg") and the
// site's ubiquitous word (the coin logo) neither gets a card nor is quoted, with Sales Mode
// on or off: the reply is the page that answers, or the fallback when the pages hold too
// little of the question.
func TestBestWayIsNoProduct(t *testing.T) {
	t.Parallel()
	e, acct, _ := ridgeShop(t)
	for _, tt := range []struct{ lang, question, page string }{
		{"tr", "Coin almanın en iyi yolu nedir?", ""},
		{"en", "What is the best way to buy coins?", "Getting coins"},
		{"de", "Was ist der beste Weg, Coins zu bekommen?", ""},
		{"tr", "Cüzdanımın yedeğini almanın en iyi yolu nedir?", ""},
		{"en", "What is the best way to back up my wallet?", "Backing up your wallet"},
		{"de", "Was ist der beste Weg, mein Wallet zu sichern?", "Wallet sichern"},
	} {
		for _, sales := range []bool{true, false} {
			a := askSales(t, e, acct, tt.lang, tt.question, sales)
			if len(a.Cards) != 0 {
				t.Errorf("%s %q (sales %v): cards %q", tt.lang, tt.question, sales, cardNames(a.Cards))
			}
			if strings.Contains(a.Text, "/shop/") || strings.Contains(strings.ToLower(a.Text), "coin-logo") || strings.Contains(strings.ToLower(a.Text), "coin logo") {
				t.Errorf("%s %q (sales %v): reply %q quotes a product", tt.lang, tt.question, sales, a.Text)
			}
			if tt.page != "" && !strings.Contains(a.Text, ": "+tt.page+" (") {
				t.Errorf("%s %q (sales %v): reply %q does not quote %q", tt.lang, tt.question, sales, a.Text, tt.page)
			}
		}
	}
}

// TestKindComparisonIsNoProductComparison: a comparison of kinds of a thing that the pages
// describe ("a light wallet and a full wallet"), asked of a shop of hardware wallets, gets the
// page and no card: the modifiers that tell the kinds apart are nowhere in the products. A
// comparison of the products themselves, a recommendation of a kind the shop sells and "the
// best" of such a kind keep their cards, and so does "the best way" to do what a product's
// text holds entirely.
func TestKindComparisonIsNoProductComparison(t *testing.T) {
	t.Parallel()
	e, acct, products := ridgeShop(t)
	for _, tt := range []struct{ lang, question, page string }{
		{"tr", "Hafif cüzdan ile tam cüzdan arasında ne fark var?", "Cüzdan türleri"},
		{"en", "What is the difference between a light wallet and a full wallet?", "Wallet types"},
		{"de", "Was ist der Unterschied zwischen einem leichten Wallet und einem vollen Wallet?", "Wallet-Arten"},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if len(a.Cards) != 0 {
			t.Errorf("%s %q: cards %q", tt.lang, tt.question, cardNames(a.Cards))
		}
		if !strings.Contains(a.Text, ": "+tt.page+" (") {
			t.Errorf("%s %q: reply %q does not quote %q", tt.lang, tt.question, a.Text, tt.page)
		}
	}
	for _, tt := range []struct {
		lang, question string
		want           []string
	}{
		{"tr", "Keyguard Mini ile Keyguard Max arasındaki fark ne?", []string{"Keyguard Mini donanım cüzdanı", "Keyguard Max donanım cüzdanı"}},
		{"en", "What is the difference between the Keyguard Mini and the Keyguard Max?", []string{"Keyguard Mini hardware wallet", "Keyguard Max hardware wallet"}},
		{"de", "Was ist der Unterschied zwischen Keyguard Mini und Keyguard Max?", []string{"Keyguard Mini Hardware-Wallet", "Keyguard Max Hardware-Wallet"}},
		{"en", "Which hardware wallet do you recommend?", []string{"Keyguard Mini hardware wallet", "Keyguard Max hardware wallet"}},
		{"tr", "Donanım cüzdanlarını karşılaştırır mısınız?", []string{"Keyguard Mini donanım cüzdanı", "Keyguard Max donanım cüzdanı"}},
		{"de", "Welche Hardware-Wallets gibt es?", []string{"Keyguard Mini Hardware-Wallet", "Keyguard Max Hardware-Wallet"}},
		{"en", "What is the best flask for hiking?", []string{"Summit water flask 500 ml", "Summit water flask 750 ml"}},
		{"tr", "Yürüyüş için en iyi matara hangisi?", []string{"Summit su matarası 500 ml", "Summit su matarası 750 ml"}},
		{"de", "Welche ist die beste Trinkflasche zum Wandern?", []string{"Summit Trinkflasche 500 ml", "Summit Trinkflasche 750 ml"}},
		{"en", "What is the best way to keep water cold on a hike?", []string{"Summit water flask 500 ml", "Summit water flask 750 ml"}},
	} {
		a := askSales(t, e, acct, tt.lang, tt.question, true)
		if got := cardNames(a.Cards); !sameSet(got, tt.want) {
			t.Errorf("%s %q: cards %q, want %q", tt.lang, tt.question, got, tt.want)
		}
		checkCards(t, a, products)
	}
}
