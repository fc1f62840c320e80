package lexicon

import "slices"

// Phrase is one entry of a phrase list as analyzed tokens, with the label and language the
// caller gave it.
type Phrase struct {
	Words []string
	Label string
	Lang  string
}

// Matcher finds phrases in analyzed tokens. The lexicon cannot tokenize (it sits below the
// analyzers), so the caller analyzes each entry the same way it analyzes the text and hands
// the tokens over; both sides are then compared token by token.
type Matcher struct {
	byFirst map[string][]Phrase // by first token, longest first
}

// NewMatcher indexes phrases. Phrases with no tokens are dropped.
func NewMatcher(phrases []Phrase) *Matcher {
	m := &Matcher{byFirst: make(map[string][]Phrase)}
	for _, p := range phrases {
		if len(p.Words) == 0 {
			continue
		}
		p.Words = slices.Clone(p.Words)
		m.byFirst[p.Words[0]] = append(m.byFirst[p.Words[0]], p)
	}
	for _, ps := range m.byFirst {
		slices.SortStableFunc(ps, func(a, b Phrase) int { return len(b.Words) - len(a.Words) })
	}
	return m
}

// At returns the phrases that tokens start with, longest first. The phrases are the
// matcher's; callers must not change them.
func (m *Matcher) At(tokens []string) []Phrase {
	if len(tokens) == 0 {
		return nil
	}
	var out []Phrase
	for _, p := range m.byFirst[tokens[0]] {
		if len(p.Words) <= len(tokens) && slices.Equal(tokens[:len(p.Words)], p.Words) {
			out = append(out, p)
		}
	}
	return out
}

// Cover splits tokens entirely into phrases, preferring longer ones, and returns the phrases
// used. It backtracks, so a short phrase that blocks a longer match later on does not cause
// a miss. Empty tokens are covered by no phrase.
func (m *Matcher) Cover(tokens []string) ([]Phrase, bool) {
	if len(tokens) == 0 {
		return nil, true
	}
	for _, p := range m.At(tokens) {
		if rest, ok := m.Cover(tokens[len(p.Words):]); ok {
			return append([]Phrase{p}, rest...), true
		}
	}
	return nil, false
}

// Contains reports whether any phrase occurs in tokens, and where the first one starts.
func (m *Matcher) Contains(tokens []string) (int, bool) {
	for i := range tokens {
		if len(m.At(tokens[i:])) > 0 {
			return i, true
		}
	}
	return -1, false
}
