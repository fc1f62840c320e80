package textindex

import "svc/internal/lang/lexicon"

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

// stopWords holds one read-only set per language, the lexicon's stop words
// (data/<lang>/stopwords.txt) folded, so the lists can be written with their
// natural diacritics.
var stopWords = map[string]map[string]struct{}{
	langEN: foldedSet(lexicon.Default().Entries(lexicon.Stopwords, langEN)),
	langDE: foldedSet(lexicon.Default().Entries(lexicon.Stopwords, langDE)),
	langTR: foldedSet(lexicon.Default().Entries(lexicon.Stopwords, langTR)),
}

// foldedSet builds a set of the folded words.
func foldedSet(words []string) map[string]struct{} {
	set := make(map[string]struct{}, len(words))
	for _, w := range words {
		set[fold(w)] = struct{}{}
	}
	return set
}
