package lang

import "svc/internal/lang/lexicon"

// vocabulary maps an ASCII-folded word to the languages it belongs to
// (the lexicon's detect_words). A word listed for two languages ("in",
// "was", "da") counts half for each.
var vocabulary = buildVocabulary(perLang(lexicon.DetectWords))

func buildVocabulary(lists [numLangs][]string) map[string][]int {
	v := make(map[string][]int)
	for l := 0; l < numLangs; l++ {
		for _, w := range lists[l] {
			if !containsLang(v[w], l) {
				v[w] = append(v[w], l)
			}
		}
	}
	return v
}

func containsLang(ls []int, l int) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}
