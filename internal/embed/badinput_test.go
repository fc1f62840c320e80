package embed

import (
	"strings"
	"testing"
)

func TestShown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"example.com", `"example.com"`},
		{"bücher.de", `"bücher.de"`},
		{"a\x00b\nc", "\"a\uFFFDb\uFFFDc\""},
		{"a\u202eb", "\"a\uFFFDb\""},
		{"a\xffb", "\"a\uFFFDb\""},
		{strings.Repeat("x", 60), `"` + strings.Repeat("x", 60) + `"`},
		{strings.Repeat("ü", 61), `"` + strings.Repeat("ü", 60) + `…"`},
	}
	for _, tc := range tests {
		if got := shown(tc.in); got != tc.want {
			t.Errorf("shown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
