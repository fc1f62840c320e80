package lang

import (
	"testing"

	"svc/internal/textindex"
)

// TestListsAreFolded guards the contract that words, stems and suffixes
// are compared with textindex.Words output, which is lower-case ASCII:
// an entry with a diacritic or a capital letter could never match.
func TestListsAreFolded(t *testing.T) {
	check := func(kind, entry string) {
		if w := textindex.Words(entry, EN); len(w) != 1 || w[0] != entry {
			t.Errorf("%s %q is not a single folded word (got %q)", kind, entry, w)
		}
	}
	for w := range vocabulary {
		check("word", w)
	}
	for l := 0; l < numLangs; l++ {
		for _, s := range stems[l] {
			check("stem", s)
		}
		for _, s := range suffixes[l] {
			check("suffix", s)
		}
		for _, p := range patterns[l] {
			check("pattern", p)
		}
	}
}

func TestSharedWordsCountForBoth(t *testing.T) {
	tests := map[string][]int{"in": {en, de}, "was": {en, de}, "da": {de, tr}, "the": {en}, "ne": {tr}}
	for w, want := range tests {
		got := vocabulary[w]
		if len(got) != len(want) {
			t.Errorf("vocabulary[%q] = %v, want %v", w, got, want)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("vocabulary[%q] = %v, want %v", w, got, want)
			}
		}
	}
}
