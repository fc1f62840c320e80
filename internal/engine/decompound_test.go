package engine

import (
	"slices"
	"strings"
	"testing"

	"svc/internal/textindex"
)

// TestCompoundTheKBWritesApart: a German compound no page writes whole ("Baumarten",
// "Wikingersiedler") is asked by the parts the KB writes, so the page that writes them apart
// answers, and its subject is not taken for one the KB never names.
func TestCompoundTheKBWritesApart(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{},
		[3]string{"Regenwald", "Im Regenwald wachsen über 16.000 Arten von Bäumen; ein Baum kann 50 Meter hoch werden.", "de"},
		[3]string{"Wikinger", "Die ersten Siedler der Wikinger kamen 911 in die Normandie und nannten sich Normannen.", "de"},
		[3]string{"Lieferung", "Die Lieferung eines Artikels dauert 5–7 Werktage. Bestellungen bis 14 Uhr versenden wir am selben Tag.", "de"})
	eOff, err := New(e.kb, Options{Off: []string{FamilySplits}})
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"Wann kamen die Wikingersiedler in die Normandie?": "911",
	} {
		a := ask(t, e, acct, "de", q)
		if !strings.Contains(a.Text, want) {
			t.Errorf("%q: want %q, got %q", q, want, a.Text)
		}
		// Without the split the compound is met only in part, by a prefix of the stored words.
		if off := ask(t, eOff, acct, "de", q); off.Features[featCoverage] >= a.Features[featCoverage] {
			t.Errorf("%q: coverage %.2f with splits and %.2f without", q, a.Features[featCoverage], off.Features[featCoverage])
		}

	}
	// The analysis: split where both parts are KB terms, the most even split of several;
	// a lower-case word and a word the KB holds stay whole.
	q := analyzeQuestion("Wann kamen die Wikingersiedler in die Normandie?", "de")
	df := map[string]int{}
	for _, w := range []string{"wiking", "siedl", "normandi"} {
		df[textindex.QueryTerms(w, "de")[0].Text] = 1
	}
	splits := q.compoundSplits("de", df)
	for _, t := range splitLookups(splits) {
		if _, ok := df[t.Text]; !ok {
			df[t.Text] = 0
		}
	}
	q.splitCompounds(splits, df)
	var got []string
	for _, t := range q.terms {
		got = append(got, t.Text)
	}
	if !slices.Contains(got, "wiking") || !slices.Contains(got, "siedl") || slices.Contains(got, "wikingersiedl") {
		t.Errorf("terms %v: want the compound replaced by wiking and siedl", got)
	}
	if len(q.weak) != len(q.terms) || len(q.optional) != len(q.terms) || len(q.lower) != len(q.terms) {
		t.Errorf("flags %d/%d/%d for %d terms", len(q.weak), len(q.optional), len(q.lower), len(q.terms))
	}
}
