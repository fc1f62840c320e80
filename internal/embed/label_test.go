package embed

import (
	"strings"
	"testing"
)

func TestNormalizeLabel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Shop widget", "Shop widget"},
		{"  Shop widget \n", "Shop widget"},
		{"a\tb", "a b"},
		{"line1\r\nline2", "line1  line2"},
		{"a\x00b\x1bc\x7fd", "abcd"},
		{"a\u0085b", "a b"},
		{"\u202eevil\u202c", "evil"},
		{"a\u2066b\u2069", "ab"},
		{"\x00 \n", ""},
		{"Mağaza — Ürünler 🛒", "Mağaza — Ürünler 🛒"},
		{strings.Repeat("ü", MaxLabelChars), strings.Repeat("ü", MaxLabelChars)},
		{" " + strings.Repeat("x", MaxLabelChars) + "\x00 ", strings.Repeat("x", MaxLabelChars)},
	}
	for _, tc := range tests {
		got, err := NormalizeLabel(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("NormalizeLabel(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestNormalizeLabelRejects(t *testing.T) {
	tests := []struct{ in, reason string }{
		{strings.Repeat("ü", MaxLabelChars+1), "81 characters, at most 80"},
		{strings.Repeat("x\x01", MaxLabelChars+1), "81 characters"},
		{"bad \xff byte", "UTF-8"},
	}
	for _, tc := range tests {
		got, err := NormalizeLabel(tc.in)
		if err == nil {
			t.Errorf("NormalizeLabel(%q) = %q, want an error", tc.in, got)
			continue
		}
		checkBadRequest(t, err, "")
		if !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("NormalizeLabel(%q): message %q does not say %q", tc.in, err.Error(), tc.reason)
		}
	}
}
