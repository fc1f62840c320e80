package textindex

import "slices"

// NameTerms returns the query terms (QueryTerms) of the words of text written with a capital
// letter or holding a digit, without duplicates, in order: what a question names rather than
// what it asks ("Österreich" and "Versand" of "Was kostet der Versand nach Österreich?",
// "kackar" and "pro" of "How much does the Kaçkar Pro hiking boot cost?", the "2" of
// "Uludağ 2"). A capital is read wherever it stands, the first word of a sentence and
// German nouns too: the caller compares names to learn whether two texts are about the same
// things, and a word taken for a name that is none costs it a match, never a wrong one.
// A question typed all in lower case names only its numbers.
func NameTerms(text, lang string) []string {
	a := newAnalyzer(lang)
	toks := slices.DeleteFunc(tokenize(text, a.lang), func(t token) bool { return !t.capital && !t.hasDigit })
	terms := a.queryTokens(toks)
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if !slices.Contains(out, t.Text) {
			out = append(out, t.Text)
		}
	}
	return out
}
