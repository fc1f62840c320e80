package lang

import "svc/internal/lang/lexicon"

// stems are word beginnings typical of one language in shop and support
// messages; they catch inflected forms the vocabulary does not list
// ("siparişlerim", "Bestellnummer", "delivering").
var stems = perLang(lexicon.DetectStems)

// suffixes are word endings typical of one language. Endings that are
// just as common elsewhere (Turkish -den against German "Kunden",
// Turkish -tur against German "Natur") are left out on purpose.
var suffixes = perLang(lexicon.DetectSuffixes)

// patterns are letter sequences that are frequent in one language and
// rare in the others (German "sch", English "th"; "w" does not occur in
// Turkish words at all).
var patterns = perLang(lexicon.DetectPatterns)

// perLang reads one lexicon list for each language, in score order.
func perLang(l lexicon.List) [numLangs][]string {
	var out [numLangs][]string
	for i, code := range languages {
		out[i] = lexicon.Default().Entries(l, code)
	}
	return out
}
