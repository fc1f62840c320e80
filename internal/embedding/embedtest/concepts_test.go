package embedtest

import (
	"math"
	"strings"
	"testing"
)

func TestParaphrasesAndTranslationsLandTogether(t *testing.T) {
	t.Parallel()
	c, err := LoadConcepts()
	if err != nil {
		t.Fatal(err)
	}
	groups := [][]string{
		{"refund", "Can I get my money back?", "reimbursement", "geri ödeme", "iade", "Rückerstattung", "Geld zurück",
			"Paramı geri alabilir miyim?", "Wann bekomme ich mein Geld zurück?"},
		{"How long does shipping take?", "Delivery time", "Wie lange dauert der Versand?", "Lieferzeit",
			"Kargo ne kadar sürer?", "Teslimat süresi"},
		{"What are your opening hours?", "Öffnungszeiten", "Çalışma saatleriniz nedir?", "When are you open?"},
		{"I forgot my password", "Passwort vergessen", "Şifremi unuttum", "reset password"},
		{"Which payment methods do you accept?", "Zahlungsarten", "Ödeme yöntemleri", "How can I pay?"},
		{"Is there a warranty?", "Garantie", "Garanti süresi", "guarantee"},
		{"size chart", "Größentabelle", "beden tablosu"},
	}
	for _, g := range groups {
		for _, a := range g {
			for _, b := range g {
				if a >= b {
					continue
				}
				if cos := Cosine(c.Vector(a), c.Vector(b)); cos < 0.3 {
					t.Errorf("%q ~ %q: cosine %.2f, want them alike (concepts %v / %v)", a, b, cos, c.Found(a), c.Found(b))
				}
			}
		}
	}
	// Texts of different groups stay apart.
	for i, g := range groups {
		for _, h := range groups[i+1:] {
			if cos := Cosine(c.Vector(g[0]), c.Vector(h[0])); cos > 0.2 {
				t.Errorf("%q ~ %q: cosine %.2f, want them apart (concepts %v / %v)", g[0], h[0], cos, c.Found(g[0]), c.Found(h[0]))
			}
		}
	}
}

func TestAParaphraseFindsItsPageAmongOthers(t *testing.T) {
	t.Parallel()
	c, err := LoadConcepts()
	if err != nil {
		t.Fatal(err)
	}
	pages := []string{
		"Reimbursement policy: items sent back within 30 days are reimbursed in full to the original payment method.",
		"Shipping: we dispatch orders within 24 hours; parcels arrive in 2-3 business days.",
		"Our store is open Monday to Friday 9:00-18:00 and closed on public holidays.",
		"Forgotten your password? Use the reset link on the sign-in page.",
		"All appliances come with a two-year warranty covering manufacturing defects.",
	}
	tests := []struct {
		question string
		want     int
	}{
		{"Can I get my money back?", 0},
		{"Paramı geri alabilir miyim?", 0},
		{"Wann kommt mein Paket an?", 1},
		{"Kargom ne zaman gelir?", 1},
		{"Habt ihr am Feiertag geöffnet?", 2},
		{"Şifremi unuttum, ne yapmalıyım?", 3},
		{"Mein Gerät ist kaputt, gibt es Garantie?", 4},
	}
	for _, tc := range tests {
		q := c.Vector(tc.question)
		best, bestCos := -1, -1.0
		for i, p := range pages {
			if cos := Cosine(q, c.Vector(p)); cos > bestCos {
				best, bestCos = i, cos
			}
		}
		if best != tc.want {
			t.Errorf("%q found page %d (cosine %.2f), want %d; question concepts %v", tc.question, best, bestCos, tc.want, c.Found(tc.question))
		}
	}
}

func TestVectorsAreNormalisedAndDeterministic(t *testing.T) {
	t.Parallel()
	c, err := LoadConcepts()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Names()); n < 80 || n > 150 {
		t.Errorf("%d concepts, want 80 to 150", n)
	}
	for _, text := range []string{"", "the and of", "Zxqv 12345", "İADE İSTİYORUM", "Rückgabe"} {
		v := c.Vector(text)
		var sum float64
		for _, x := range v {
			sum += float64(x) * float64(x)
		}
		if len(v) != Dim || math.Abs(sum-1) > 1e-5 {
			t.Errorf("%q: %d dimensions, squared norm %f", text, len(v), sum)
		}
		if Cosine(v, c.Vector(text)) < 0.999999 {
			t.Errorf("%q: vector differs between calls", text)
		}
	}
	if Cosine(c.Vector("İADE"), c.Vector("iade")) < 0.999 || Cosine(c.Vector("RÜCKGABE"), c.Vector("ruckgabe")) < 0.999 {
		t.Error("case or diacritics changed a vector")
	}
}

func TestParseConceptsRejectsBadLines(t *testing.T) {
	t.Parallel()
	for _, tsv := range []string{"refund\ten", "refund\ten\t, *", "refund\ten\trefund\textra"} {
		if _, err := ParseConcepts(tsv); err == nil {
			t.Errorf("%q accepted", tsv)
		}
	}
}

// BenchmarkVector is what a fake embedding costs per chunk of about 600 bytes, for
// benchmarks that embed tens of thousands of chunks through the fake.
func BenchmarkVector(b *testing.B) {
	c, err := LoadConcepts()
	if err != nil {
		b.Fatal(err)
	}
	chunk := strings.Repeat("Reimbursement policy: items sent back within 30 days are reimbursed in full. ", 8)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		c.Vector(chunk)
	}
}
