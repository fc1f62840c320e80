package engine

import (
	"testing"

	"svc/internal/store"
)

// TestSupportLeavesOutWhatTheCardShows: the sentences after the list of products leave out a
// line that only repeats a carded product's name or price (a crawled product page shows the
// price on a line of its own), in any language's price format, and keep the rest.
func TestSupportLeavesOutWhatTheCardShows(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ price, text, want string }{
		{"$299.00", "$299.00", ""},
		{"279,00 €", "279,00 €\nDas Kestrel ist ein Smartphone.", "Das Kestrel ist ein Smartphone."},
		{"9.999,00 TL", "Kestrel X2 Lite\n 9.999,00 TL \nKestrel X2 Lite bir telefondur.", "Kestrel X2 Lite bir telefondur."},
		{"$299.00", "It costs $299.00 with free shipping.", "It costs $299.00 with free shipping."},
		{"", "A phone.", "A phone."},
	} {
		sh := shelf{cards: []Card{{DocID: 7, Product: store.Product{Name: "Kestrel X2 Lite", Price: tt.price}}}}
		if got := sh.support(extract{text: tt.text, docID: 7}, nil, 0); got != tt.want {
			t.Errorf("price %q, text %q: support %q, want %q", tt.price, tt.text, got, tt.want)
		}
	}
}
