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
	seen := make([]uint8, len(q.terms))
	for _, s := range c.sents {
		for _, tc := range s.cases {
			for i, qt := range q.terms {
				if matchTerm(qt, tc.term) {
					seen[i] |= tc.as
					break
				}
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

// How a sentence writes a term: inside it with a capital (a noun), or in lower case.
const (
	asNoun uint8 = 1 << iota
	asOther
)

// termCase is how one sentence writes one of its terms.
type termCase struct {
	term string
	as   uint8 // asNoun, asOther or both
}

// termCases reads how a German sentence writes each of its terms, for senseOnly: read once
// per sentence with its terms (sentenceMemo), not once per question. A word at the start of
// the sentence may be either, and says nothing.
func termCases(text string) []termCase {
	var out []termCase
	at := make(map[string]int)
	for k, w := range rawWords(text) {
		if k == 0 {
			continue
		}
		as := asOther
		if startsUpper(w) {
			as = asNoun
		}
		for _, t := range textindex.IndexTerms(w, "de") {
			if j, ok := at[t]; ok {
				out[j].as |= as
				continue
			}
			at[t] = len(out)
			out = append(out, termCase{term: t, as: as})
		}
	}
	return out
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
