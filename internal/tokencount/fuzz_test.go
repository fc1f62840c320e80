package tokencount

import (
	"testing"
)

// FuzzCountMatchesLibrary compares every count with the library's. The seeds are in
// testdata/fuzz/FuzzCountMatchesLibrary; run with
// go test -run '^$' -fuzz FuzzCountMatchesLibrary ./internal/tokencount/
func FuzzCountMatchesLibrary(f *testing.F) {
	c, lib := counter(f), library(f)
	f.Fuzz(func(t *testing.T, s string) {
		sameCount(t, c, lib, s)
	})
}
