package lexicon

import "strings"

// Pattern is one word of a word or phrase list in the lists' notation: a plain word matches
// itself, "k*" every word starting with k, "*k" every word ending in k and "*k*" every word
// holding k. Every list of the lexicon, the engine's cues, the generators' keywords and the
// grounding guard's concept phrases match words through it, so the notation means one thing
// wherever it is written.
type Pattern struct {
	Text           string
	Prefix, Suffix bool // Prefix: a final "*" (the word goes on); Suffix: a leading "*"
}

// ParsePattern reads one word of a list.
func ParsePattern(s string) Pattern {
	var p Pattern
	s, p.Suffix = strings.CutPrefix(s, "*")
	p.Text, p.Prefix = strings.CutSuffix(s, "*")
	return p
}

// Match reports whether the word w (analyzed as the list was) is one the pattern stands for.
// An empty pattern matches nothing.
func (p Pattern) Match(w string) bool {
	switch {
	case p.Text == "":
		return false
	case p.Prefix && p.Suffix:
		return strings.Contains(w, p.Text)
	case p.Suffix:
		return strings.HasSuffix(w, p.Text)
	case p.Prefix:
		return strings.HasPrefix(w, p.Text)
	}
	return w == p.Text
}

// MatchWord reports whether the word w matches the pattern written as pattern. A plain word,
// most of every list, is compared at once: the engine asks this for every word of every
// candidate sentence against its cue lists.
func MatchWord(pattern, w string) bool {
	if n := len(pattern); n > 0 && pattern[0] != '*' && pattern[n-1] != '*' {
		return w == pattern
	}
	return ParsePattern(pattern).Match(w)
}

// PhraseAt returns where the words of phrase (patterns) occur in order and adjacent in
// words, or -1; the empty phrase occurs at 0.
func PhraseAt(words, phrase []string) int {
	for i := 0; i+len(phrase) <= len(words); i++ {
		ok := true
		for j, p := range phrase {
			if ok = MatchWord(p, words[i+j]); !ok {
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}
