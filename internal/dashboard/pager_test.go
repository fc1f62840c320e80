package dashboard

import (
	"strconv"
	"strings"
	"testing"
)

// The review queue and the KB lists number their pages alike: the first, the last and two
// either side of the current one, a gap for the rest.
func TestNumberPages(t *testing.T) {
	show := func(cur, pages int) string {
		var out []string
		for _, l := range numberPages(cur, pages, func(n int) string { return "?page=" + strconv.Itoa(n) }) {
			switch {
			case l.Gap:
				out = append(out, "…")
			case l.Href != "?page="+strconv.Itoa(l.N):
				t.Errorf("page %d links to %q", l.N, l.Href)
			case l.Current:
				out = append(out, "["+strconv.Itoa(l.N)+"]")
			default:
				out = append(out, strconv.Itoa(l.N))
			}
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		cur, pages int
		want       string
	}{
		{1, 1, ""},
		{1, 3, "[1] 2 3"},
		{1, 9, "[1] 2 3 … 9"},
		{5, 9, "1 … 3 4 [5] 6 7 … 9"},
		{4, 9, "1 2 3 [4] 5 6 … 9"},
		{9, 9, "1 … 7 8 [9]"},
	} {
		if got := show(tc.cur, tc.pages); got != tc.want {
			t.Errorf("page %d of %d: %q, want %q", tc.cur, tc.pages, got, tc.want)
		}
	}
}
