package textindex

import (
	"slices"
	"testing"
)

// TestNameTerms: the capitalised words and numbers of a question, analyzed as its query
// terms are, so that they can be looked up among another text's terms.
func TestNameTerms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, lang string
		want       []string
	}{
		{"Wie viel kostet der Versand nach Österreich?", "de", []string{"versand", "osterreich"}},
		{"How much does the Kaçkar Pro hiking boot cost?", "en", []string{"kackar", "pro"}},
		{"Almanya'ya kargo ücreti ne kadar?", "tr", []string{"alman"}},
		{"How much does the Uludağ 2 tent weigh?", "en", []string{"uludag", "2"}},
		{"Can I pay with PayPal?", "en", []string{"paypal"}},
		{"was kostet der versand nach österreich", "de", []string{}},
		{"Is the 2.029,00 TL price for size 42?", "en", []string{"2029", "tl", "42"}},
	}
	for _, tc := range tests {
		if got := NameTerms(tc.text, tc.lang); !slices.Equal(got, tc.want) {
			t.Errorf("NameTerms(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
