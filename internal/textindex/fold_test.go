package textindex

import "testing"

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"nasıl", "nasil"},
		{"çğışöü", "cgisou"},
		{"ärger", "arger"},
		{"straße", "strasse"},
		{"âîû", "aiu"},
		{"café", "cafe"},
		{"señor", "senor"},
		{"øre", "ore"},
		{"ǿre ǽ", "ore ae"}, // a special letter with an accent on it
		{"i\u0307", "i"},
		{"москва", "москва"},
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The table of folded Latin letters gives what folding each letter on its own gives.
func TestFoldedTable(t *testing.T) {
	t.Parallel()
	for r := rune(0x80); r < foldedEnd; r++ {
		if got, want := fold(string(r)), foldRune(r); got != want {
			t.Errorf("fold(%q) = %q, want %q", r, got, want)
		}
	}
	for _, tt := range []struct{ in, want string }{{"düğün", "dugun"}, {"größe", "grosse"}, {"ışık", "isik"},
		{"şirketin", "sirketin"}, {"ȋ", "i"}, {"ǿ", "o"}} {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
