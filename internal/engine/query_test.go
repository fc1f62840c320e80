package engine

import (
	"testing"

	"svc/internal/textindex"
)

// Turkish near matches the fixed-length prefix misses: a voiced final consonant, and a
// query word whose stem is a whole short word of the index ("Kalesi'nin" and "kale").
func TestSoftenedTurkish(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query, word string
		want        bool
	}{
		{"kitap", "kitabı", true},
		{"Kalesi'nin", "kale", true},
		{"türü", "tür", false},     // three letters: too many words start so
		{"kale", "kalesi", false},  // a short query word is a prefix term already
		{"karar", "kara", true},    // the cost: a longer word that starts with a short one
		{"kitap", "kitap", false},  // the same term is a full match, not a near one
		{"korunur", "korur", true}, // the passive after a vowel: koru-n-ur, koru-r
		{"yıkanır", "yıkar", true},
		{"kurtarmak", "kurum", false}, // four shared letters are no passive

	}
	for _, c := range cases {
		q := textindex.QueryTerms(c.query, "tr")
		ts := textindex.IndexTerms(c.word, "tr")
		if len(q) != 1 || len(ts) != 1 {
			t.Fatalf("%q / %q: terms %v %v", c.query, c.word, q, ts)
		}
		if got := softened(q[0], ts[0]); got != c.want {
			t.Errorf("softened(%q, %q) = %v, want %v", q[0].Text, ts[0], got, c.want)
		}
	}
}
