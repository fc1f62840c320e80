package textindex

import "testing"

func TestExtends(t *testing.T) {
	tests := []struct {
		a, b   string
		minLen int
		want   bool
	}{
		{"dau", "dauert", 3, true},
		{"dauert", "dau", 3, true},
		{"dau", "dauert", 5, false},
		{"finanzi", "finanziert", 5, true},
		{"ab", "abc", 3, false},
		{"same", "same", 1, false},
		{"liefer", "lager", 3, false},
		{"", "x", 0, true},
	}
	for _, tc := range tests {
		if got := Extends(tc.a, tc.b, tc.minLen); got != tc.want {
			t.Errorf("Extends(%q, %q, %d) = %v, want %v", tc.a, tc.b, tc.minLen, got, tc.want)
		}
	}
}

func TestPrefixVariant(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b, lang string
		want       bool
	}{
		{"bezahl", "zahl", "de", true},
		{"zahl", "gezahlt", "de", true},
		{"erstatt", "zuruckerstattet", "de", true},
		{"bezahl", "zahl", "en", false},
		{"rat", "zahl", "de", false},
		{"anmeld", "abmeld", "de", false}, // neither is the other behind a prefix
		{"be", "bebe", "de", false},       // too short
		{"zahl", "zahl", "de", false},
	}
	for _, tc := range tests {
		if got := PrefixVariant(tc.a, tc.b, tc.lang, 3); got != tc.want {
			t.Errorf("PrefixVariant(%q, %q, %s) = %v, want %v", tc.a, tc.b, tc.lang, got, tc.want)
		}
	}
}
