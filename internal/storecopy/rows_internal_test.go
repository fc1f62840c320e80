package storecopy

import (
	"strings"
	"testing"
)

// A copy that lost a row or a cent is reported, table by table and account by account.
func TestDiffNamesEveryMismatch(t *testing.T) {
	src := counts{rows: map[string]int64{"accounts": 2, "ledger": 5}, ledgerTotal: 900, archiveTotal: 10,
		accounts: map[int64][3]int64{1: {500, 450, 0}, 2: {400, 400, 50}}}
	if d := src.diff(src); len(d) != 0 {
		t.Fatalf("a copy equal to its source: %v", d)
	}
	dst := counts{rows: map[string]int64{"accounts": 2, "ledger": 4}, ledgerTotal: 800, archiveTotal: 10,
		accounts: map[int64][3]int64{1: {500, 450, 0}, 2: {300, 400, 50}, 3: {}}}
	got := strings.Join(src.diff(dst), "\n")
	for _, want := range []string{"ledger: 5 rows in the source, 4 in the target", "ledger total: 900 in the source, 800",
		"account 2: ledger, balance, reserved [400 400 50] in the source, [300 400 50]", "account 3 is in the target only"} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %q:\n%s", want, got)
		}
	}
}

// Values take the kind of the target column: SQLite may hold another type than it declares.
func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		in   any
		typ  string
		want any
	}{
		{int64(7), "bigint", int64(7)},
		{"7", "integer", int64(7)},
		{true, "bigint", int64(1)},
		{float64(3), "integer", int64(3)},
		{[]byte("x"), "text", "x"},
		{int64(42), "text", "42"},
		{"ab", "bytea", []byte("ab")},
		{[]byte{0, 1}, "blob", []byte{0, 1}},
		{nil, "text", nil},
	} {
		got, err := convert(tc.in, tc.typ)
		if err != nil || !equal(got, tc.want) {
			t.Errorf("convert(%#v, %s) = %#v, %v; want %#v", tc.in, tc.typ, got, err, tc.want)
		}
	}
	if _, err := convert(1.5, "bigint"); err == nil {
		t.Error("1.5 into an integer column was accepted")
	}
}

func equal(a, b any) bool {
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && string(ab) == string(bb)
	}
	return a == b
}
