package intel

import (
	"testing"

	"svc/internal/i18n"
	"svc/internal/lang/lexicon"
)

// TestLabelsComplete holds the catalog to the code: every label, the attribute labels among
// them, is there in each language, and no "intel.*" key is unknown here.
func TestLabelsComplete(t *testing.T) {
	t.Parallel()
	c, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	all, err := loadLabels(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, lg := range i18n.Langs {
		if l := all[lg]; l.noAnswer == "" || len(l.attrs) == 0 {
			t.Errorf("%s: labels not read: %+v", lg, l)
		}
	}
}

// TestLexiconData holds the data files to the code: every concept has its words in each
// language, and the files name no concept the code does not know.
func TestLexiconData(t *testing.T) {
	t.Parallel()
	for _, lg := range lexicon.Languages() {
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
