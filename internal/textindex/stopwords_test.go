package textindex

import "testing"

func TestIsStopWord(t *testing.T) {
	tests := []struct {
		word, lang string
		want       bool
	}{
		{"what", "en", true},
		{"how", "en", true},
		{"many", "en", true},
		{"the", "xx", true},
		{"order", "en", false},
		{"return", "en", false},
		{"was", "de", true},
		{"wie", "de", true},
		{"viele", "de", true},
		{"fur", "de", true},
		{"fuer", "de", true},
		{"uber", "de", true},
		{"bestellung", "de", false},
		{"ne", "tr", true},
		{"nasil", "tr", true},
		{"kac", "tr", true},
		{"icin", "tr", true},
		{"mi", "tr", true},
		{"mu", "tr", true},
		{"miyim", "tr", true}, // "ödeyebilir miyim": the particle in the first person
		{"muyuz", "tr", true},
		{"siparis", "tr", false},
		{"on", "tr", false},
		{"was", "tr", false},
		{"ne", "en", false},
	}
	for _, tt := range tests {
		if got := IsStopWord(tt.word, tt.lang); got != tt.want {
			t.Errorf("IsStopWord(%q, %q) = %v, want %v", tt.word, tt.lang, got, tt.want)
		}
	}
}

// TestStopWordListsAreFolded guards the contract that IsStopWord takes a
// folded word: every stored entry must already be ASCII-folded.
func TestStopWordListsAreFolded(t *testing.T) {
	for lang, set := range stopWords {
		if len(set) < 100 {
			t.Errorf("%s: only %d stop words", lang, len(set))
		}
		for w := range set {
			if fold(w) != w {
				t.Errorf("%s: stop word %q is not folded", lang, w)
			}
		}
	}
}
