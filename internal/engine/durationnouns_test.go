package engine

import (
	"slices"
	"testing"

	"svc/internal/textindex"
)

// TestDurationNounsLeaveAHowLongQuestion: a question that asks how long drops the nouns that
// only name a length of time, as it drops its question phrase; a question that asks anything
// else keeps them ("zur Zeit Martin Luthers" is an era).
func TestDurationNounsLeaveAHowLongQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, question, word string
		kind                 qtype
		kept                 bool
	}{
		{"de", "Wie lange habe ich Zeit, etwas zurückzuschicken?", "Zeit", askDuration, false},
		{"de", "Wie viel Zeit habe ich für eine Rücksendung?", "Zeit", askDuration, false},
		{"en", "How much time do I have to return an item?", "time", askDuration, false},
		{"tr", "İade için ne kadar zamanım var?", "zamanım", askDuration, false},
		{"de", "Was war zur Zeit Martin Luthers gefragt?", "Zeit", askOther, true},
		{"de", "Wie lange ist die Frist?", "Frist", askDuration, true}, // nothing else left
	}
	for _, tt := range tests {
		q := analyzeQuestion(tt.question, tt.lang)
		w := textindex.QueryTerms(tt.word, tt.lang)[0]
		if kept := slices.Contains(q.terms, w); kept != tt.kept || q.kind != tt.kind {
			t.Errorf("%s %q: kind %v, %q kept %v; want kind %v, kept %v (terms %v)", tt.lang, tt.question, q.kind, tt.word, kept, tt.kind, tt.kept, q.terms)
		}
	}
}
