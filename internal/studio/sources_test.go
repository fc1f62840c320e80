package studio

import (
	"slices"
	"testing"

	"svc/internal/engine"
	"svc/internal/store"
)

// TestNamedProductKeepsTheVariant: a request naming one model gets that model as its source,
// never a sibling, and a passage of the sibling's product page is no source of it.
func TestNamedProductKeepsTheVariant(t *testing.T) {
	t.Parallel()
	hit := func(id int64, name, lang string) store.ChunkHit {
		return store.ChunkHit{DocID: id, Lang: lang, Product: &store.Product{Name: name}}
	}
	catalog := []store.ChunkHit{hit(1, "Nova 12 Pro Max", "en"), hit(2, "Nova 12 Pro", "en"), hit(3, "Nova 12 Lite", "tr")}
	for _, tt := range []struct {
		name, lang string
		want       int64
	}{
		{"Nova 12 Pro", "en", 2},
		{"Nova 12 Lite", "en", 3},
		{"nova 12 lite", "tr", 3},
		{"Nova 12 Pro Max", "de", 1},
	} {
		got, ok := bestProduct(catalog, tt.name, tt.lang)
		if !ok || got.DocID != tt.want {
			t.Errorf("%q: product %d (%v), want %d", tt.name, got.DocID, ok, tt.want)
		}
	}
	if _, ok := bestProduct(catalog, "Nova 13 Lite", "en"); ok {
		t.Error("Nova 13 Lite found a product")
	}
	ps := []engine.Passage{{DocID: 9, Title: "Shipping"}, {DocID: 2, Product: &store.Product{Name: "Nova 12 Pro"}},
		{DocID: 3, Product: &store.Product{Name: "Nova 12 Lite"}}}
	for _, tt := range []struct {
		text  string
		named []string
		want  []bool
	}{
		{"Launch post for the Nova 12 Lite", nil, []bool{true, false, true}},
		{"Kampanya duyurusu", []string{"Nova 12 Pro"}, []bool{true, true, false}},
		{"Our phones", nil, []bool{true, true, true}},
	} {
		if got := fitPassages(ps, tt.text, tt.named); !slices.Equal(got, tt.want) {
			t.Errorf("%q %q: %v, want %v", tt.text, tt.named, got, tt.want)
		}
	}
}
