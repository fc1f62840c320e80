package intel

import (
	"testing"

	"svc/internal/lang/lexicon"
)

// TestLexiconData holds the data files to the code: every label and every concept has its
// words in each language, and no label in the files is unknown here.
func TestLexiconData(t *testing.T) {
	t.Parallel()
	for _, lg := range lexicon.Languages() {
		l, problems := labelsFrom(lexicon.Default().Table(lexicon.IntelLabels, lg))
		for _, p := range problems {
			t.Errorf("intel_labels/%s: %s", lg, p)
		}
		if len(l.attrs) == 0 {
			t.Errorf("intel_labels/%s: no attribute labels", lg)
		}
		for _, c := range concepts {
			if c.words(lg) == "" {
				t.Errorf("intel_concept_words/%s: no words for %s", lg, c.key)
			}
		}
		if n, want := lexicon.Default().Table(lexicon.IntelConceptWords, lg).Len(), len(concepts); n != want {
			t.Errorf("intel_concept_words/%s: %d concepts, the code knows %d", lg, n, want)
		}
	}
}
