package chat

import (
	"strings"
	"testing"

	"svc/internal/textindex"
)

// TestConfirmable: which rewordings of a curated question may be served it once the engine
// confirms; the terms are the analyzer's, so the cases are written as questions.
func TestConfirmable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, asked, curated string
		want                 bool
	}{
		{"de", "Kann ich mit PayPal zahlen?", "Kann ich mit PayPal bezahlen?", true},
		{"de", "Wird mir auf PayPal zurückerstattet?", "Wird mir auf PayPal erstattet?", true},
		{"en", "Can I make a payment with PayPal?", "Can I pay with PayPal?", true},
		{"en", "Do you refund to PayPal?", "Can I pay with PayPal?", false},          // refund for pay
		{"en", "Do you accept PayPal?", "Can I pay with PayPal?", false},             // a synonym is a swap too
		{"de", "Kann ich in Raten zahlen?", "Muss ich Zoll bezahlen?", false},        // Raten for Zoll
		{"en", "Can I pay order 5123 with PayPal?", "Can I pay with PayPal?", false}, // a number the entry lacks
		{"tr", "Kapıda ödeme var mı?", "PayPal ile ödeme yapabilir miyim?", false},
	}
	for _, tc := range tests {
		a := strings.Fields(textindex.NormalizeQuestion(tc.asked, tc.lang))
		b := strings.Fields(textindex.NormalizeQuestion(tc.curated, tc.lang))
		if got := confirmable(a, b, tc.lang); got != tc.want {
			t.Errorf("%q ~ %q (%v ~ %v): %v, want %v", tc.asked, tc.curated, a, b, got, tc.want)
		}
	}
}
