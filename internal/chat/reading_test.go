package chat

import (
	"reflect"
	"strings"
	"testing"
)

// A remembered reading is the reading itself, whatever was asked before it, and a caller
// changing its terms changes nobody else's.
func TestReadingsRemembered(t *testing.T) {
	t.Parallel()
	rs := newReadings()
	texts := []struct{ text, conv string }{
		{"How long does delivery to Germany take?", "en"},
		{"Wie lange dauert der Versand nach Deutschland?", "en"},
		{"hello", "de"},
		{"merhaba", "en"},
		{"ok", "tr"}, // too short to tell: the conversation's language
		{"ok", "de"},
		{strings.Repeat("İade süresi kaç gün? ", 20), "tr"}, // longer than is kept
	}
	for round := range 2 {
		for _, c := range texts {
			want := readText(c.text, c.conv)
			got := rs.read(c.text, c.conv)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %q in %s: %+v, want %+v", round, c.text, c.conv, got, want)
			}
			if len(got.q.terms) > 0 {
				got.q.terms[0] = "changed"
			}
		}
	}
	if got := rs.read("ok", "tr").lang; got != "tr" {
		t.Fatalf("a short text kept the language of another conversation: %s", got)
	}
	if rs.memo.Len() != len(texts)-1 {
		t.Fatalf("%d readings kept, want all but the long one", rs.memo.Len())
	}
}
