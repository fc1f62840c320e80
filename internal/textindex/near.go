package textindex

import "strings"

// Extends reports whether one analyzed term is the other plus more letters ("dau" and
// "dauert", "finanzi" and "finanziert"), with the shorter at least minLen letters long. The
// stemmers leave such pairs apart ("dauern" becomes "dau", "dauert" stays whole), so callers
// treat them as near matches. How short a stem may be depends on what is compared: ranking a
// term against a whole corpus needs a long stem to avoid matching unrelated words, while
// matching two whole questions can accept a shorter one because their other terms must agree
// too. Terms are ASCII-folded, so letters are bytes.
func Extends(a, b string, minLen int) bool {
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= minLen && short != long && strings.HasPrefix(long, short)
}
