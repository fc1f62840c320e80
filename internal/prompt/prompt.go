// Package prompt holds what every model prompt of svc shares: fencing untrusted data (KB
// text, visitors' messages, briefs) so that it cannot close its fence and pose as
// instructions, and reading the one JSON object a model was asked for.
package prompt

import (
	"regexp"
	"strings"
)

// fenceTag matches tag-like text naming one of the tags our prompts fence data in, or
// system/instructions: data must not be able to close a fence and open "instructions".
var fenceTag = regexp.MustCompile(`(?i)<\s*/?\s*(kb|passage|products|summary|history|question|reply|previous|turns|brief|request|system|instructions?|assistant|user)\b[^>]*>`)

// Defuse makes text safe to put inside a fence: tag-like sequences that could end the fence
// become bracketed words, and control characters other than newlines and tabs go.
func Defuse(text string) string {
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

// Fence wraps defused data in a tag.
func Fence(tag, data string) string {
	return "<" + tag + ">\n" + strings.TrimSpace(Defuse(data)) + "\n</" + tag + ">\n"
}

// JSONObject finds the outermost {...} in text, which models sometimes wrap in a code fence
// or a sentence.
func JSONObject(text string) (string, bool) {
	start := strings.IndexByte(text, '{')
	end := strings.LastIndexByte(text, '}')
	if start < 0 || end < start {
		return "", false
	}
	return text[start : end+1], true
}
