package engine

import (
	"unicode/utf8"

	"svc/internal/textindex"
)

// German compounds the KB writes apart. The analyzer splits a compound only at a linking
// suffix ("Bevölkerungs|größe"); "Wikingersiedler", "Rippenquallen" or "Baumarten" it keeps
// whole, and a KB that writes "die Siedler der Wikinger" never holds the whole word, so the
// question's heaviest term met nothing and its subject looked absent. The KB's own words are
// the dictionary: a question term no chunk holds is split where its parts are terms the KB
// holds (both, or failing that one), and queried by the parts, as a compound split at a
// linking suffix is. The stemmer takes the linking elements off the first part ("Rippen" →
// "ripp").

// minCompoundPart is the fewest letters of either part of a split: a shorter one matches
// too many words of the KB by chance.
const minCompoundPart = 4

// compoundSplit is one way to split a term in two.
type compoundSplit struct {
	term       int // the index of the split term in the question's terms
	head, tail textindex.Term
}

// compoundSplits returns every two-part split of each German noun term no chunk holds, to be
// looked up before splitCompounds chooses. A word written in lower case is no compound noun
// (a verb "zurückzuschicken" has alternates of its own, separable.go).
func (q *question) compoundSplits(lang string, docFreq map[string]int) []compoundSplit {
	if lang != "de" {
		return nil
	}
	var out []compoundSplit
	for i, t := range q.terms {
		n := utf8.RuneCountInString(t.Text)
		if t.Prefix || docFreq[t.Text] > 0 || n < 2*minCompoundPart || q.lower != nil && q.lower[i] {
			continue
		}
		runes := []rune(t.Text)
		for cut := minCompoundPart; cut+minCompoundPart <= n; cut++ {
			head := textindex.QueryTerms(string(runes[:cut]), lang)
			tail := textindex.QueryTerms(string(runes[cut:]), lang)
			if len(head) != 1 || len(tail) != 1 || head[0].Prefix || tail[0].Prefix {
				continue
			}
			out = append(out, compoundSplit{term: i, head: head[0], tail: tail[0]})
		}
	}
	return out
}

// splitLookups are the parts of splits, to be looked up with the question's terms.
func splitLookups(splits []compoundSplit) []textindex.Term {
	out := make([]textindex.Term, 0, 2*len(splits))
	for _, s := range splits {
		out = append(out, s.head, s.tail)
	}
	return out
}

// splitCompounds replaces each term that has a split with a part the KB holds by its two
// parts (a part the question has already is not added twice). A part the KB lacks stays a
// term the KB lacks, but weighs only its own part of the compound: "Sojaanbau" against a KB
// that writes "Anbau" and "Sojabohnen" still lacks "Soja", not all of "Sojaanbau". Of several
// splits, the one with both parts held wins, then the one whose second part (the compound's
// head noun) is held, then the most even one: its shorter part is the longest, the least
// likely to be a chance match.
func (q *question) splitCompounds(splits []compoundSplit, docFreq map[string]int) {
	best := map[int]compoundSplit{}
	// 3: both parts held, 2: the second, 1: the first.
	seen := func(s compoundSplit) int {
		n := 0
		if docFreq[s.head.Text] > 0 {
			n++
		}
		if docFreq[s.tail.Text] > 0 {
			n += 2
		}
		return n
	}
	for _, s := range splits {
		if seen(s) < 1 {
			continue
		}
		if b, ok := best[s.term]; !ok || seen(s) > seen(b) || seen(s) == seen(b) && shorterPart(s) > shorterPart(b) {
			best[s.term] = s
		}
	}
	if len(best) == 0 {
		return
	}
	have := make(map[textindex.Term]bool, len(q.terms))
	for _, t := range q.terms {
		have[t] = true
	}
	var terms []textindex.Term
	var weak, optional, lower, byPrefix []bool
	add := func(t textindex.Term, i int) {
		if i < 0 { // a part: a noun's, like the compound's
			if have[t] {
				return
			}
			have[t] = true
		}
		terms = append(terms, t)
		pick := func(b []bool) bool { return i >= 0 && b[i] }
		weak, optional = append(weak, pick(q.weak)), append(optional, pick(q.optional))
		if q.lower != nil {
			lower = append(lower, pick(q.lower))
		}
		if q.byPrefix != nil {
			byPrefix = append(byPrefix, pick(q.byPrefix))
		}
	}
	for i, t := range q.terms {
		s, ok := best[i]
		if !ok {
			add(t, i)
			continue
		}
		add(s.head, -1)
		add(s.tail, -1)
	}
	q.terms, q.weak, q.optional = terms, weak, optional
	if q.lower != nil {
		q.lower = lower
	}
	if q.byPrefix != nil {
		q.byPrefix = byPrefix
	}
}

func shorterPart(s compoundSplit) int {
	return min(utf8.RuneCountInString(s.head.Text), utf8.RuneCountInString(s.tail.Text))
}
