package engine

import (
	"strings"

	lexdata "svc/internal/lang/lexicon" // the lexicon type below is this file's own
	"svc/internal/textindex"
)

// alternate is an index term that stands in for a question term: a word of the same meaning
// ("Geschäft" for "Laden"), or the country of a place the KB never names ("Deutschland" for
// "Berlin"). It matches at strength; the question term keeps its own weight.
type alternate struct {
	term     textindex.Term
	strength float64
	family   string // the rule family that proposed it (Families), "" for grammar
}

// countries names the country of a place in each language, and placesIn lists the larger
// cities of it (in every spelling the three languages use): a question about a city that
// the KB never mentions is about its country as far as the KB is concerned ("Do you have a
// store in Berlin?" against "we have no store in Germany"). They live in the lexicon's
// country_names and country_cities files.
var countries = func() []country {
	lx := lexdata.Default()
	cities := lx.Table(lexdata.CountryCities, "")
	var out []country
	for _, code := range cities.Keys() {
		c := country{names: make(map[string]string)}
		c.places, _ = cities.Get(code)
		for _, lang := range lexdata.Languages() {
			c.names[lang], _ = lx.Table(lexdata.CountryNames, lang).Get(code)
		}
		out = append(out, c)
	}
	return out
}()

// country is one country of countries.
type country struct {
	names  map[string]string // lang → the country's name
	places string
}

// lexicon holds the analyzed places of one language.
type lexicon struct {
	country map[string]textindex.Term // place term → country term
	// place maps the term of every country and place of countries to its country's term
	// (a country's to itself), for telling which places a passage names (places.go).
	place map[string]string
}

// lexicons are built once from countries; read-only afterwards. (Issue 15's synonym groups
// of customer-service words went in issue 23: the ablation found them helping one question of
// a tuning half and nothing else.)
var lexicons = func() map[string]lexicon {
	out := make(map[string]lexicon)
	for _, lang := range []string{"en", "de", "tr"} {
		lx := lexicon{country: make(map[string]textindex.Term), place: make(map[string]string)}
		for _, c := range countries {
			ct := textindex.QueryTerms(c.names[lang], lang)
			if len(ct) != 1 {
				continue
			}
			lx.place[ct[0].Text] = ct[0].Text
			for _, p := range strings.Fields(c.places) {
				for _, t := range textindex.QueryTerms(p, lang) {
					lx.country[t.Text] = ct[0]
					lx.place[t.Text] = ct[0].Text
				}
			}
		}
		out[lang] = lx
	}
	return out
}()

// alternates returns, per question term, the index terms that stand in for it: for a place
// no chunk of the account names, its country (at full strength: for this KB, the country is
// where the place is), and for a German infinitive with "zu" inside that no chunk holds, its
// verb and prefix (separable.go). Alternates no chunk holds are left out. docFreq must hold the question terms and every term of candidateAlternates.
func alternates(lang string, terms []textindex.Term, docFreq map[string]int, soft float64) [][]alternate {
	lx, ok := lexicons[lang]
	if !ok {
		return nil
	}
	out := make([][]alternate, len(terms))
	for i, t := range terms {
		if c, ok := lx.country[t.Text]; ok && docFreq[t.Text] == 0 && docFreq[c.Text] > 0 {
			out[i] = append(out[i], alternate{term: c, strength: 1, family: FamilyPlaces})
		}
		if docFreq[t.Text] == 0 {
			out[i] = append(out[i], separableAlternates(lang, t, docFreq, soft)...)
		}
	}
	return out
}

// candidateAlternates are the terms alternates may use for the question terms, to be looked
// up with them.
func candidateAlternates(lang string, terms []textindex.Term) []textindex.Term {
	lx, ok := lexicons[lang]
	if !ok {
		return nil
	}
	out := separableLookups(lang, terms)
	for _, t := range terms {
		if c, ok := lx.country[t.Text]; ok {
			out = append(out, c)
		}
	}
	return out
}
