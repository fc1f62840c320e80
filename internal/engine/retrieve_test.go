package engine

import (
	"context"
	"strings"
	"testing"
)

// TestRetrieveFindsThePage asks the shop KB questions typed the way visitors type them
// (no diacritics, inflected words, apostrophe suffixes) and checks the page that answers
// comes first.
func TestRetrieveFindsThePage(t *testing.T) {
	e, acct := shopKB(t)
	tests := []struct {
		lang, question string
		wantTitle      string
		wantText       string // a text the first passage must contain
	}{
		{"tr", "ayakkabı iadesi nasıl yapılır", "İade ve değişim", "Ayakkabıların iadesi"},
		{"tr", "nasil siparis veririm", "Nasıl sipariş veririm?", "sepete ekleyin"},
		{"tr", "İstanbul'da mağazanız var mı", "İstanbul mağazası", "Beşiktaş"},
		{"tr", "kargo ücreti ne kadar", "Kargo ve teslimat", "79,90 TL"},
		{"de", "Wie lange dauern Lieferungen?", "Lieferung", "2–4 Werktagen"},
		{"de", "Kann ich Schuhe zurückgeben?", "Rücksendung", "30 Tage"},
		{"de", "wie bestelle ich", "Wie bestelle ich?", "Warenkorb"},
		{"en", "Can I return shoes for free?", "Returns", "free of charge"},
		{"en", "how long does shipping take", "Shipping", "2–4 business days"},
		{"en", "When is the Istanbul store open?", "Our stores", "10:00 to 20:00"},
		{"en", "How much is the Storm Jacket?", "Storm Jacket", "3,450.00 TL"},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			ps, err := e.Retrieve(context.Background(), acct, tt.question, tt.lang, 3)
			if err != nil {
				t.Fatalf("Retrieve: %v", err)
			}
			if len(ps) == 0 {
				t.Fatal("no passages")
			}
			if ps[0].Title != tt.wantTitle || !strings.Contains(ps[0].Text, tt.wantText) {
				t.Errorf("first passage %q (%q), want %q containing %q", ps[0].Title, ps[0].Text, tt.wantTitle, tt.wantText)
			}
			seen := map[int64]bool{}
			for i, p := range ps {
				if seen[p.DocID] {
					t.Errorf("document %d listed twice", p.DocID)
				}
				seen[p.DocID] = true
				if i > 0 && p.Score > ps[i-1].Score {
					t.Errorf("passage %d scores %.3f above passage %d (%.3f)", i, p.Score, i-1, ps[i-1].Score)
				}
			}
		})
	}
}

func TestRetrieveProduct(t *testing.T) {
	e, acct := shopKB(t)
	ps, err := e.Retrieve(context.Background(), acct, "Fırtına mont fiyatı", "tr", 1)
	if err != nil {
		t.Fatalf("Retrieve: %v", err)
	}
	if len(ps) != 1 || ps[0].Product == nil {
		t.Fatalf("got %+v, want one product passage", ps)
	}
	if ps[0].Product.Price != "3.450,00 TL" || ps[0].DocType != "product" {
		t.Errorf("product = %+v, type %q", ps[0].Product, ps[0].DocType)
	}
}

func TestRetrieveNothing(t *testing.T) {
	e, acct := shopKB(t)
	tests := []struct{ lang, question string }{
		{"en", ""},
		{"en", "what is it?"},               // stop words only
		{"tr", "kuantum dolanıklığı nedir"}, // no term in the KB
	}
	for _, tt := range tests {
		ps, err := e.Retrieve(context.Background(), acct, tt.question, tt.lang, 5)
		if err != nil {
			t.Fatalf("Retrieve(%q): %v", tt.question, err)
		}
		if len(ps) != 0 {
			t.Errorf("Retrieve(%q) = %d passages, want none", tt.question, len(ps))
		}
	}
}

// TestRetrieveAccountsAreSeparate checks that one account's question never sees another
// account's pages.
func TestRetrieveAccountsAreSeparate(t *testing.T) {
	e, acct := shopKB(t)
	ps, err := e.Retrieve(context.Background(), acct+1000, "Can I return shoes for free?", "en", 3)
	if err != nil {
		t.Fatalf("Retrieve: %v", err)
	}
	if len(ps) != 0 {
		t.Errorf("unknown account got %d passages", len(ps))
	}
}
