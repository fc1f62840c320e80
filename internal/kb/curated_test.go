package kb

import (
	"strings"
	"testing"

	"svc/internal/store"
)

func TestCuratedAnswerFollowsTheQARecordRules(t *testing.T) {
	doc, err := CuratedAnswer("  Do you sell gift cards?  ", " Yes, from 25 €. ", "en")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Type != store.DocQA || doc.Title != "Do you sell gift cards?" || doc.Body != "Yes, from 25 €." || doc.Lang != "en" ||
		len(doc.Chunks) != 1 {
		t.Fatalf("doc: %+v", doc)
	}
	// The same entry as an import line would make: the same hash, so re-answering upserts.
	imported, err := BuildAll([]Record{{Type: TypeQA, Question: "Do you sell gift cards?", Answer: "Yes, from 25 €.", Lang: "en"}})
	if err != nil || imported[0].Hash != doc.Hash {
		t.Errorf("import builds hash %q, review %q (%v)", imported[0].Hash, doc.Hash, err)
	}
	for name, in := range map[string][3]string{
		"no question":      {" ", "Yes.", "en"},
		"no answer":        {"Gift cards?", "  ", "en"},
		"markup only":      {"Gift cards?", "<p></p>", "en"},
		"long question":    {strings.Repeat("q", MaxQuestionLen+1), "Yes.", "en"},
		"unknown language": {"Gift cards?", "Yes.", "fr"},
	} {
		if _, err := CuratedAnswer(in[0], in[1], in[2]); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
