package engine

import (
	"testing"

	"svc/internal/textindex"
)

// TestNameSlots: a question word that stands where the product's name has a word the
// question does not write, between two it does, counts as the name's; a word outside the
// name's span, or in a gap that would need more words than the name has there, does not.
func TestNameSlots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, question, name string
		word                 string // the question word whose term is asked about
		want                 bool
	}{
		{"en", "How much does the Kaçkar Pro hiking boot cost?", "Kaçkar Pro Trekking Boot", "hiking", true},
		{"en", "Is the Kaçkar hiking boot waterproof?", "Kaçkar Pro Trekking Boot", "hiking", true},
		{"tr", "Kaçkar Pro yürüyüş botu kaç TL?", "Kaçkar Pro Trekking Botu", "yürüyüş", true},
		{"en", "Is the Kaçkar Pro Trekking Boot good for winter hiking?", "Kaçkar Pro Trekking Boot", "winter", false},
		{"en", "Can I wash the Kaçkar Pro boot in warm soapy water?", "Kaçkar Pro Trekking Boot", "warm", false},
		{"en", "How heavy is the Kaçkar big light hiking boot?", "Kaçkar Pro Trekking Boot", "hiking", false},
	}
	for _, tt := range tests {
		q := query{lang: tt.lang, terms: textindex.QueryTerms(tt.question, tt.lang)}
		name := textindex.IndexTerms(tt.name, tt.lang)
		_, held := q.termFreqs(name, 0.5)
		nameSlots(&q, tt.question, name, held)
		w := textindex.QueryTerms(tt.word, tt.lang)[0]
		got := false
		for i, qt := range q.terms {
			if qt == w {
				got = held[i] == 1
			}
		}
		if got != tt.want {
			t.Errorf("%s %q: %q in the name %q: %v, want %v", tt.lang, tt.question, tt.word, tt.name, got, tt.want)
		}
	}
}
