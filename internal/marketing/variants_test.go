package marketing

import (
	"testing"

	"svc/internal/store"
)

// TestBestProductKeepsTheVariant: a request naming one model features that model, never its
// sibling, in every language; one naming no variant features one of them.
func TestBestProductKeepsTheVariant(t *testing.T) {
	t.Parallel()
	products := []store.Product{{Name: "Nova 12 Pro", Price: "$699.00"}, {Name: "Nova 12 Lite", Price: "$399.00"}}
	for _, tt := range []struct {
		lang, query string
		brief       bool
		want        int
	}{
		{"en", "Nova 12 Lite", false, 1},
		{"tr", "Nova 12 Lite", false, 1},
		{"de", "Nova 12 Pro", false, 0},
		{"en", "Launch post for the Nova 12 Lite, our budget phone", true, 1},
		{"tr", "Nova 12 Lite için kampanya duyurusu", true, 1},
		{"de", "Ankündigung für das Nova 12 Lite", true, 1},
		{"en", "Nova 13 Lite", false, -1},
	} {
		if got := bestProduct(tt.query, products, tt.lang, tt.brief); got != tt.want {
			t.Errorf("%s %q: product %d, want %d", tt.lang, tt.query, got, tt.want)
		}
	}
	if got := bestProduct("Nova 12", products, "en", false); got < 0 {
		t.Errorf("Nova 12: no product")
	}
}
