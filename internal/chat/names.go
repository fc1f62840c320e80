package chat

import (
	"slices"
	"strings"

	"svc/internal/textindex"
	"svc/internal/variant"
)

// A question's names are the terms of the words it writes with a capital or a digit
// (textindex.NameTerms): the country, product, model, number or person it is about, as
// opposed to what it asks of them. The cache compares names because its other tests cannot
// see them. Two wordings asking the price of shipping share every word but the country; the
// engine may answer both from the one sentence it found (Germany's price, quoted to a
// question about Austria); and that answer, cached, was then served to every rewording of
// the Austrian question. Names tell the answer it was written for: an entry is reused only
// for a question that names what its own question named, and only when its answer names it
// too. A capitalised word that is no name (a German noun, a sentence's first word) makes the
// test stricter than it need be, which costs a hit, never a wrong answer.

// namesAgree reports whether two questions are about the same things: every name of each
// is one of the other's terms (in any case: "österreich" typed in lower case still names
// Österreich), and they write no variant tokens that contradict (variant.Differ: "Nova 12
// Pro" and "Nova 12 Lite", "red" and "blue").
func namesAgree(aText string, aTerms, aNames []string, bText string, bTerms, bNames []string) bool {
	return covers(bTerms, aNames) && covers(aTerms, bNames) && !variant.Differ(aText, bText)
}

// answerNames reports whether an answer names what its question names: every name of the
// question that is a word is a term of the answer (its quote, lead-in and source line). An
// answer about Germany's shipping price does not name Österreich; one about caring for
// hiking boots does not name the Kaçkar Pro; one about the Nova 12 Pro does not name the
// Lite. Numbers are left out here: the number of a question is often the visitor's own (a
// 100 cm chest, within 30 days), which a right answer need not repeat ("M: 96–104 cm",
// "within 14 days"); two questions must still agree on their numbers (namesAgree).
func answerNames(names []string, answer, lg string) bool {
	names = wordNames(names)
	return len(names) == 0 || covers(textindex.IndexTerms(answer, lg), names)
}

// wordNames are the names that are words, not numbers.
func wordNames(names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), isNumber)
}

func isNumber(term string) bool { return strings.ContainsAny(term, "0123456789") }

// covers reports whether every name has a counterpart among terms: the same term, or for a
// word (not a number) one that extends it or that it extends ("osterreich" and
// "osterreichs"). Numbers match only exactly: "100" is not "1000".
func covers(terms, names []string) bool {
	for _, n := range names {
		if !namedIn(n, terms) {
			return false
		}
	}
	return true
}

func namedIn(name string, terms []string) bool {
	if isNumber(name) {
		return slices.Contains(terms, name)
	}
	return termMatch(name, terms) > 0
}
