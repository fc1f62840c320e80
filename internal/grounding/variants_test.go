package grounding

import (
	"testing"

	"svc/internal/store"
)

// TestGuardKeepsPricesWithTheirVariant: every amount below is a source product's price, so
// the price check alone passes them; attached to the sibling they are false, and go.
func TestGuardKeepsPricesWithTheirVariant(t *testing.T) {
	t.Parallel()
	phones := map[string][2]string{ // lang → Lite's price, Pro's price
		"tr": {"14.999,00 TL", "24.999,00 TL"},
		"en": {"$399.00", "$699.00"},
		"de": {"379,00 €", "649,00 €"},
	}
	tests := []struct {
		lang, text string
		removed    bool
	}{
		{"tr", "Nova 12 Lite'ın fiyatı 24.999,00 TL.", true},
		{"tr", "Nova 12 Lite'ın fiyatı 14.999,00 TL.", false},
		{"tr", "Nova 12 Lite: 14.999,00 TL; Nova 12 Pro: 24.999,00 TL.", false},
		{"tr", "Nova 12 serisi 14.999,00 TL'den başlar.", false},
		{"en", "The Nova 12 Lite costs $699.00.", true},
		{"en", "The Nova 12 Pro costs $699.00.", false},
		{"en", "Shipping is free on orders over $75.", false},
		{"de", "Das Nova 12 Pro kostet 379,00 €.", true},
		{"de", "Das Nova 12 Lite kostet 379,00 €.", false},
	}
	for _, tt := range tests {
		p := phones[tt.lang]
		src := Sources{Business: "Vault", Passages: []Passage{{Lang: "en", Title: "Shipping", Text: "Orders over $75 ship free."}},
			Products: []store.Product{{Name: "Nova 12 Lite", Price: p[0], Category: "Phones"}, {Name: "Nova 12 Pro", Price: p[1], Category: "Phones"}}}
		got, claims := New(src, tt.lang).Clean(tt.text)
		if removed := got != tt.text; removed != tt.removed {
			t.Errorf("%s %q: cleaned to %q (claims %v), want removed %v", tt.lang, tt.text, got, claims, tt.removed)
		}
	}
}
