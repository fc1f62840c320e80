package grounding

import (
	"testing"

	"svc/internal/lang/lexicon"
)

// TestUnitWordsRead holds the unit data files to the form the scanner reads: every entry is
// "form = base scale", and each unit the scanner relied on before the move is still there.
func TestUnitWordsRead(t *testing.T) {
	t.Parallel()
	us, bad := readUnitWords(lexicon.Default())
	for _, b := range bad {
		t.Errorf("unit entry not read: %q", b)
	}
	if len(us) != 144 {
		t.Errorf("%d unit words, want 144", len(us))
	}
	for _, tc := range []struct {
		raw, lang, base string
		scale           float64
	}{
		{"kg", "en", "g", 1000},
		{"yıl", "tr", "month", 12},
		{"Jahren", "de", "month", 12},
		{"GB", "de", "MB", 1000},
		{"°C", "en", "degC", 1},
		{"kişilik", "tr", "person", 1},
	} {
		u, ok := lookupUnit(tc.raw, tc.lang)
		if !ok || u.base != tc.base || u.scale != tc.scale {
			t.Errorf("lookupUnit(%q, %s) = %v, %v; want %s × %v", tc.raw, tc.lang, u, ok, tc.base, tc.scale)
		}
	}
	if _, ok := lookupUnit("tags", "en"); ok {
		t.Error(`"tags" is a unit in English text`)
	}
}

// TestConceptPhrases holds concept_phrases.txt to the families: every family has phrases,
// and every section belongs to a family.
func TestConceptPhrases(t *testing.T) {
	t.Parallel()
	ids := map[string]bool{}
	for _, f := range conceptFamilies {
		ids[f.id], ids[f.id+".not"] = true, true
		if len(f.phrases) == 0 {
			t.Errorf("family %s has no phrases", f.id)
		}
	}
	for _, sec := range lexicon.Default().Sections(lexicon.ConceptPhrases, "") {
		if !ids[sec.Name] {
			t.Errorf("section [%s] names no concept family", sec.Name)
		}
	}
}
