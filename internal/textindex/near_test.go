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

// TestSeparableParts: an infinitive with "zu" after a verb prefix splits into the prefix and
// the verb; a word whose "zu" is no infinitive's ("Aufzug", "Anzug") or that has none does
// not.
func TestSeparableParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word, prefix, verb string
		ok                 bool
	}{
		{"zurückzuschicken", "zuruck", "schick", true},
		{"zurückzugeben", "zuruck", "geb", true},
		{"auszusprechen", "aus", "sprech", true},
		{"anzurufen", "an", "ruf", true},
		{"Aufzug", "", "", false},
		{"Anzug", "", "", false},
		{"zurückschicken", "", "", false},
		{"bezahlen", "", "", false},
	}
	for _, tc := range tests {
		terms := QueryTerms(tc.word, "de")
		if len(terms) != 1 {
			t.Fatalf("%q: terms %v", tc.word, terms)
		}
		p, v, ok := SeparableParts(terms[0].Text)
		if ok != tc.ok || p != tc.prefix || v != tc.verb {
			t.Errorf("SeparableParts(%q) = %q, %q, %v; want %q, %q, %v", terms[0].Text, p, v, ok, tc.prefix, tc.verb, tc.ok)
		}
	}
}
