package textindex

import "strings"

// germanUmlauts restores umlauts that were typed as digraphs
// ("groesse", "rueckgabe", "gebuehr"), which German keyboards without
// umlauts and many visitors produce. It is applied to every German word
// at index and at query time, so "Größe" and "Groesse" get one stem.
//
// "ue" after "q" (Quelle) or after a vowel (neue, Dauer, Steuer) is not
// an umlaut and is left alone: mapping "neuen" to "neün" would stem to
// "neun". The same vowel rule is used for "ae" and "oe" (Aloe).
func germanUmlauts(word string) string {
	if !strings.Contains(word, "ae") && !strings.Contains(word, "oe") && !strings.Contains(word, "ue") {
		return word // no digraph: most words, which need no copy
	}
	rs := []rune(word)
	out := make([]rune, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		if i+1 < len(rs) && rs[i+1] == 'e' && (i == 0 || !isGermanVowel(rs[i-1]) && rs[i-1] != 'q') {
			if u, ok := digraphUmlaut[rs[i]]; ok {
				out = append(out, u)
				i++
				continue
			}
		}
		out = append(out, rs[i])
	}
	return string(out)
}

var digraphUmlaut = map[rune]rune{'a': 'ä', 'o': 'ö', 'u': 'ü'}

func isGermanVowel(r rune) bool {
	return strings.ContainsRune("aeiouyäöü", r)
}
