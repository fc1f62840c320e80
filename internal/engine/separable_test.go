package engine

import (
	"strings"
	"testing"
)

// TestSeparableInfinitive: a German question that writes a verb as an infinitive with "zu"
// inside ("zurückzuschicken") finds the page that writes the verb without it, or another
// verb of its prefix ("zurückgeben"), rather than the page that shares only its other words.
func TestSeparableInfinitive(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{},
		[3]string{"Rückgabe", "Sie können jeden Artikel innerhalb von 30 Tagen nach Erhalt zurückgeben. Der Artikel muss ungetragen sein.", "de"},
		[3]string{"Lieferung", "Die Lieferung eines Artikels dauert 5–7 Werktage. Bestellungen bis 14 Uhr versenden wir am selben Tag.", "de"},
		[3]string{"Umtausch", "Ein Umtausch in eine andere Größe ist einmal kostenlos; die neue Größe schicken wir sofort los.", "de"})
	for _, q := range []string{
		"Wie lange dauert es, einen Artikel zurückzuschicken?",
		"Wie lange dauert es, einen Artikel zurückzugeben?",
	} {
		a := ask(t, e, acct, "de", q)
		if !strings.Contains(a.Text, "30 Tagen") {
			t.Errorf("%q: want the return page, got %q", q, a.Text)
		}
	}
}
