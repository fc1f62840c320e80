package embed

import "testing"

func TestNormalizeVisitor(t *testing.T) {
	const v4 = "123e4567-e89b-42d3-a456-426614174000"
	tests := []struct {
		in, want string // want "" for refused
	}{
		{v4, v4},
		{"123E4567-E89B-42D3-A456-426614174000", v4},
		{"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"},
		{"018f3a5c-7b2e-7c4d-9e8f-0a1b2c3d4e5f", "018f3a5c-7b2e-7c4d-9e8f-0a1b2c3d4e5f"}, // version 7
		{"", ""},
		{"{" + v4 + "}", ""},
		{"urn:uuid:" + v4, ""},
		{"123e4567e89b42d3a456426614174000", ""},
		{" " + v4, ""},
		{v4 + " ", ""},
		{v4[:35], ""},
		{v4 + "0", ""},
		{"123e4567-e89b-42d3-a456-42661417400g", ""},
		{"123e4567-e89b-42d3-a4564-26614174000", ""},
		{"123e4567_e89b_42d3_a456_426614174000", ""},
		{"123e4567-e89b-42d3-a456-42661417400é", ""},
	}
	for _, tc := range tests {
		got, ok := NormalizeVisitor(tc.in)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("NormalizeVisitor(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}
