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
