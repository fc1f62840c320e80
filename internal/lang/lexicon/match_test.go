package lexicon

import (
	"strings"
	"testing"
)

func TestMatcher(t *testing.T) {
	t.Parallel()
	m := NewMatcher([]Phrase{
		{Words: strings.Fields("thank you"), Label: "thanks"},
		{Words: strings.Fields("thank you so much"), Label: "thanks"},
		{Words: strings.Fields("hi"), Label: "greeting"},
		{Words: strings.Fields("so"), Label: ""},
		{Words: nil, Label: "dropped"},
	})
	if got := m.At(strings.Fields("thank you so much")); len(got) != 2 || len(got[0].Words) != 4 {
		t.Errorf("At: %v, want the longest phrase first", got)
	}
	// "thank you so much hi" needs the long phrase; "thank you so hi" needs the short one and
	// the filler.
	for _, tc := range []struct {
		text string
		n    int
		ok   bool
	}{
		{"thank you so much hi", 2, true},
		{"thank you so hi", 3, true},
		{"thank you where", 0, false},
		{"", 0, true},
	} {
		used, ok := m.Cover(strings.Fields(tc.text))
		if ok != tc.ok || len(used) != tc.n {
			t.Errorf("Cover(%q) = %v, %v; want %d phrases, %v", tc.text, used, ok, tc.n, tc.ok)
		}
	}
	if i, ok := m.Contains(strings.Fields("well hi there")); !ok || i != 1 {
		t.Errorf("Contains = %d, %v", i, ok)
	}
	if _, ok := m.Contains(strings.Fields("nothing here")); ok {
		t.Error("Contains found a phrase in unrelated words")
	}
}
