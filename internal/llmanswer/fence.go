package llmanswer

import (
	"regexp"
	"strings"
)

// fenceTags are the tags that delimit data in our prompts. Data must not be able to close
// one and open its own "instructions", so any tag-like text naming one of them, or naming
// system/instructions, is defused before the data is placed inside a fence.
var fenceTag = regexp.MustCompile(`(?i)<\s*/?\s*(kb|passage|products|summary|history|question|reply|previous|turns|system|instructions?|assistant|user)\b[^>]*>`)

// defuse makes text safe to put inside a fence: tag-like sequences that could end the fence
// become bracketed words, and control characters other than newlines and tabs go.
func defuse(text string) string {
	text = fenceTag.ReplaceAllStringFunc(text, func(m string) string {
		return "[" + strings.Trim(m, "<>/ \t") + "]"
	})
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' {
			return ' '
		}
		return r
	}, text)
}

// fence wraps defused data in a tag.
func fence(tag, data string) string {
	return "<" + tag + ">\n" + strings.TrimSpace(defuse(data)) + "\n</" + tag + ">\n"
}
