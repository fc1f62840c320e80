package embed

import "strings"

// NormalizeVisitor accepts the widget's visitor id, a UUID in the canonical 8-4-4-4-12 hex
// form of any version and case, and returns it lower-cased so one visitor is one key.
// Anything else (braces, "urn:uuid:", no hyphens, surrounding spaces) is refused: the
// widget always sends the canonical form, and the id becomes part of a conversation's scope.
func NormalizeVisitor(s string) (string, bool) {
	if len(s) != 36 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return "", false
			}
		}
	}
	return strings.ToLower(s), true
}
