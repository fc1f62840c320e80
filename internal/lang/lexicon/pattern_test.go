package lexicon

import "testing"

func TestPattern(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, word string
		want          bool
	}{
		{"jahr", "jahr", true},
		{"jahr", "jahre", false},
		{"jahrhundert*", "jahrhunderts", true},
		{"jahrhundert*", "jahrhundert", true},
		{"*preis", "versandpreis", true},
		{"*preis", "preisliste", false},
		{"*rabatt*", "sommerrabattaktion", true},
		{"*rabatt*", "rabat", false},
		{"", "", false},
		{"*", "anything", false},
	} {
		if got := MatchWord(c.pattern, c.word); got != c.want {
			t.Errorf("MatchWord(%q, %q) = %v, want %v", c.pattern, c.word, got, c.want)
		}
	}
	words := []string{"how", "long", "does", "delivery", "take"}
	for _, c := range []struct {
		phrase []string
		want   int
	}{
		{[]string{"how", "long"}, 0},
		{[]string{"deliver*", "take"}, 3},
		{[]string{"long", "take"}, -1},
		{nil, 0},
		{[]string{"take", "more"}, -1},
	} {
		if got := PhraseAt(words, c.phrase); got != c.want {
			t.Errorf("PhraseAt(%v) = %d, want %d", c.phrase, got, c.want)
		}
	}
}
