package engine

import "svc/internal/textindex"

// German separable verbs. "Wie lange habe ich Zeit, etwas zurückzuschicken?" writes the verb
// as one word with the "zu" of the infinitive inside it, a word no page uses: a page writes
// "zurückschicken", or in a main clause the prefix apart ("schicken Sie es zurück"), or a
// verb of the same prefix ("zurückgeben", "zurücksenden"). The infinitive's alternates are
// the verb without the "zu", at full strength, and every word of its prefix (a prefix term),
// as a near match: the KB's "zurückgeben" is near the visitor's "zurückschicken", as a
// synonym is.

// separableLookups are the terms separableAlternates may use for the question terms, to be
// looked up with them.
func separableLookups(lang string, terms []textindex.Term) []textindex.Term {
	var out []textindex.Term
	for _, t := range terms {
		out = append(out, separableCandidates(lang, t)...)
	}
	return out
}

// separableCandidates are the verb without the "zu" and the prefix as a prefix term, for a
// German term that is an infinitive with "zu" inside (textindex.SeparableParts); none for
// any other term. A prefix that is a stop word ("an", "auf", "mit") matches too much to
// stand for the verb.
func separableCandidates(lang string, t textindex.Term) []textindex.Term {
	if lang != "de" || t.Prefix {
		return nil
	}
	prefix, verb, ok := textindex.SeparableParts(t.Text)
	if !ok {
		return nil
	}
	out := []textindex.Term{{Text: prefix + verb}}
	if !textindex.IsStopWord(prefix, lang) {
		out = append(out, textindex.Term{Text: prefix, Prefix: true})
	}
	return out
}

// separableAlternates returns the alternates of a German infinitive with "zu" inside that
// the KB holds: the verb without the "zu" at full strength, the words of its prefix at soft.
func separableAlternates(lang string, t textindex.Term, docFreq map[string]int, soft float64) []alternate {
	var out []alternate
	for _, c := range separableCandidates(lang, t) {
		s := 1.0
		if c.Prefix {
			s = soft
		}
		if docFreq[c.Text] > 0 && s > 0 {
			out = append(out, alternate{term: c, strength: s})
		}
	}
	return out
}
