package textindex

import "strings"

// IsStopWord reports whether the folded word is a stop word in lang.
//
// Stop words are compared after lower-casing and ASCII folding, so "für",
// "fur" and "FÜR" are the same word, as are "nasıl" and "nasil".
// Question words ("what", "wann", "kaç") are stop words for retrieval:
// the engine reads the raw question when it needs the question type.
func IsStopWord(word, lang string) bool {
	_, ok := stopWords[normLang(lang)][word]
	return ok
}

// stopWords holds one read-only set per language; see stopwords_*.go.
var stopWords = map[string]map[string]struct{}{
	langEN: wordSet(stopWordsEN),
	langDE: wordSet(stopWordsDE),
	langTR: wordSet(stopWordsTR),
}

// wordSet builds a set from a whitespace-separated list, folding every
// entry so the lists can be written with their natural diacritics.
func wordSet(list string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, w := range strings.Fields(list) {
		set[fold(w)] = struct{}{}
	}
	return set
}
