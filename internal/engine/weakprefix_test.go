package engine

import (
	"testing"

	"svc/internal/textindex"
)

// TestTurkishWeakByPrefixOnly: a Turkish word that shares only its indexed prefix with a
// light verb ("Öğrenci" and "öğrenmek") is no light word when the KB never holds it; the
// verb itself, last in its clause or in a listed form, stays light whether or not the KB
// holds it.
func TestTurkishWeakByPrefixOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		question, word string
		seen, weak     bool
	}{
		{"Öğrenci indirimi var mı?", "Öğrenci", false, false},
		{"Öğrenci indirimi var mı?", "Öğrenci", true, true},
		{"Siparişimin durumunu nasıl öğrenebilirim?", "öğrenebilirim", false, true},
		{"İade süresi kaç gün?", "süresi", false, true},
	}
	for _, tt := range tests {
		q := analyzeQuestion(tt.question, "tr")
		want := textindex.QueryTerms(tt.word, "tr")[0]
		df := map[string]int{}
		if tt.seen {
			df[want.Text] = 3
		}
		q.keepSeen(df)
		found := false
		for i, term := range q.terms {
			if term.Text == want.Text {
				found = true
				if q.weak[i] != tt.weak {
					t.Errorf("%q, %q in the KB %v: weak %v, want %v", tt.question, tt.word, tt.seen, q.weak[i], tt.weak)
				}
			}
		}
		if !found {
			t.Errorf("%q: no term %v in %v", tt.question, want, q.terms)
		}
	}
}
