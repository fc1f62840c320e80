package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLabelChars is the longest label, in characters, an owner may give a token.
const MaxLabelChars = 80

// NormalizeLabel cleans the owner's name for a token before it is stored and shown in lists:
// line breaks and tabs become spaces, other control characters and bidi controls (which can
// make a label display as something else) are removed, the ends are trimmed. An empty label
// is allowed; invalid UTF-8 or more than MaxLabelChars characters is refused.
func NormalizeLabel(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", badKey("err.embed.label_utf8", "The label is not valid UTF-8 text.")
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsControl(r) && unicode.IsSpace(r):
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
		default:
			b.WriteRune(r)
		}
	}
	label := strings.TrimSpace(b.String())
	if n := utf8.RuneCountInString(label); n > MaxLabelChars {
		return "", badKey("err.embed.label_too_long", "The label %s is too long: %d characters, at most %d.", shown(label), n, MaxLabelChars)
	}
	return label, nil
}
