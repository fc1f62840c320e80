package engine

import (
	"unicode"
	"unicode/utf8"

	"svc/internal/textindex"
)

// senseOnly returns the share of the question's weight that the best passage matches only
// through a word used in another sense, and so must not count as evidence: in German, where
// a noun is written with a capital, the question's noun "Laden" (a shop) against the
// passage's verb "laden" (to load). A word at the start of a sentence may be either ("Laden
// Sie …" is a verb, "Warschau war …" a noun), so a question noun is met in another sense
// where the passage writes it in lower case inside a sentence and never with a capital
// there. The other languages have no such mark in their spelling and are left alone.
func senseOnly(q *query, c *candidate, lg string) float64 {
	if lg != "de" || q.lang != "de" || len(q.nouns) == 0 {
		return 0
	}
	// How the passage writes each question term: as a noun, as another word, or only at the
	// start of a sentence.
	const (
		asNoun = 1 << iota
		asOther
	)
	seen := make([]int, len(q.terms))
	for _, s := range c.sents {
		for k, w := range rawWords(s.text) {
			i := termOf(q, w, lg)
			if i < 0 {
				continue
			}
			switch {
			case k == 0:
				// sentence-initial: either
			case startsUpper(w):
				seen[i] |= asNoun
			default:
				seen[i] |= asOther
			}
		}
	}
	w := 0.0
	for i, noun := range q.nouns {
		// Only a noun met by no noun and by a word in lower case: a verb or adjective of the
		// question met by a noun is mostly the same sense derived ("katholisch" and
		// "Katholiken"), and a word met only at the start of sentences may be either.
		if noun && seen[i]&asNoun == 0 && seen[i]&asOther != 0 {
			w += q.idf[i]
		}
	}
	return w / q.total
}

// questionNouns marks the query terms of a German question that the question first writes
// with a capital inside the sentence (a noun); nil for other languages and for a question
// without such a noun.
func questionNouns(q *query, question string) []bool {
	if q.lang != "de" {
		return nil
	}
	out := make([]bool, len(q.terms))
	decided := make([]bool, len(q.terms))
	found := false
	for k, w := range rawWords(question) {
		i := termOf(q, w, q.lang)
		if i < 0 || k == 0 || decided[i] {
			continue
		}
		r, _ := utf8.DecodeRuneInString(w)
		decided[i] = unicode.IsLetter(r)
		out[i] = unicode.IsUpper(r)
		found = found || out[i]
	}
	if !found {
		return nil
	}
	return out
}

// termOf returns the query term the word w analyzes to, or -1.
func termOf(q *query, w, lg string) int {
	for _, t := range textindex.IndexTerms(w, lg) {
		for i, qt := range q.terms {
			if matchTerm(qt, t) {
				return i
			}
		}
	}
	return -1
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}
