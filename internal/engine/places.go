package engine

import (
	"strings"

	"svc/internal/textindex"
)

// Places a question names. A shop's pages answer per country ("Versand nach Deutschland:
// 9,90 €", "Österreich und andere EU-Länder: 14,90 €"), and a passage about one country
// shares every other word with a question about another: "Wie viel kostet der Versand nach
// Österreich?" matched the FAQ entry "Was kostet der Versand nach Deutschland?" on its
// wording and quoted Germany's price. A passage that names another place and not the one
// asked about answers another question; when a passage names the place asked about, it goes
// first (prefer). The places are those of the lexicon (countries and their larger cities).

// placeAsk is what a question asks about places: the place terms it names, and the
// countries they are in (a passage may name the country of a city asked about without
// naming another place).
type placeAsk struct {
	named  map[string]bool
	within map[string]bool
}

// askedPlaces reads the places the question names: each word written with a capital whose
// term is a place of the lexicon and is in the KB, or whose country is, when the KB never
// names the place itself (the country then stands for it, as in alternates). A word in
// lower case is left out: "nice" and "essen" are also words of the language.
func askedPlaces(lang, question string, docFreq map[string]int) placeAsk {
	lx, ok := lexicons[lang]
	if !ok {
		return placeAsk{}
	}
	a := placeAsk{named: map[string]bool{}, within: map[string]bool{}}
	for _, w := range rawWords(question) {
		if !startsUpper(w) {
			continue
		}
		for _, t := range textindex.QueryTerms(w, lang) {
			country, ok := lx.place[t.Text]
			switch {
			case !ok:
			case docFreq[t.Text] > 0:
				a.named[t.Text] = true
				a.within[country] = true
			case docFreq[country] > 0:
				a.named[country] = true
			}
		}
	}
	if len(a.named) == 0 {
		return placeAsk{}
	}
	return a
}

// placeMatch tells of a passage's stored terms whether they name a place asked about
// (holds) and whether they name another place (other): neither the country of a city asked
// about nor a city of a country asked about ("Berlin" is no other place than Germany, but
// Ankara is another than Istanbul).
func (a placeAsk) placeMatch(lang, terms string) (holds, other bool) {
	lx := lexicons[lang]
	for _, t := range strings.Fields(terms) {
		country, ok := lx.place[t]
		switch {
		case !ok:
			holds = holds || a.holds(t, lang) // "German" of "(East) German" for Germany
		case a.holds(t, lang):
			holds = true
		case t == country && a.within[t]: // the country of a city asked about
		case t != country && a.named[country]: // a city of a country asked about
		default:
			other = true
		}
	}
	return holds, other
}

// holds reports whether the passage's term t is a place asked about, or a near match of
// one (softMatch: "german" and "germany").
func (a placeAsk) holds(t, lang string) bool {
	for n := range a.named {
		if n == t || softMatch(textindex.Term{Text: n}, t, lang) {
			return true
		}
	}
	return false
}

// preferPlaces puts last the candidates that name another place and none asked about, when
// a candidate names one asked about.
func preferPlaces(ranked []candidate, lang, question string, docFreq map[string]int) []candidate {
	a := askedPlaces(lang, question, docFreq)
	if len(a.named) == 0 {
		return ranked
	}
	wrong := make(map[int64]bool)
	found := false
	for _, c := range ranked {
		if hitLang(c.hit, lang) != lang {
			continue // its places are spelled in another language
		}
		holds, other := a.placeMatch(lang, c.hit.Terms)
		found = found || holds
		if !holds && other {
			wrong[c.hit.ChunkID] = true
		}
	}
	if !found || len(wrong) == 0 {
		return ranked
	}
	return partition(ranked, func(c candidate) bool { return !wrong[c.hit.ChunkID] })
}
