package grounding

import "svc/internal/lang/lexicon"

// A concept family is one claim a copywriter invents without a number — a discount, free
// shipping, a warranty, "#1" — with its words in the three languages. The words of a family
// are one concept across languages: an English "discount" is supported by a Turkish passage
// that says "indirim".
type conceptFamily struct {
	id      string
	kind    string   // KindDiscount or KindFeature
	phrases []phrase // any one of them states the concept
	not     []phrase // uses of the words that do not ("feel free", "for sale", "unser Angebot")
	implies []string // families a source stating this one also supports
	// yields names the families whose words this one does not claim: "free" in "free shipping"
	// is the shipping claim, so a source's free shipping does not support "free socks".
	yields []string
}

// The phrases of each family live in the lexicon's concept_phrases file, section [id] for
// the phrases that state it and [id.not] for the uses that do not; the notation of a phrase
// is described there and parsed by phrases.
var conceptFamilies = withPhrases([]conceptFamily{
	{id: "discount", kind: KindDiscount},
	{id: "coupon", kind: KindDiscount, implies: []string{"discount"}},
	{id: "blackfriday", kind: KindDiscount, implies: []string{"discount"}},
	{id: "cybermonday", kind: KindDiscount, implies: []string{"discount"}},
	{id: "limitedtime", kind: KindDiscount},
	{id: "freegift", kind: KindDiscount},
	{id: "bogo", kind: KindDiscount, implies: []string{"discount"}},
	{id: "freetrial", kind: KindDiscount},
	{id: "free", kind: KindDiscount,
		yields: []string{"freegift", "bogo", "freetrial",
			"freeshipping", "freereturns", "installments"}},
	{id: "freeshipping", kind: KindFeature},
	{id: "warranty", kind: KindFeature},
	{id: "returns", kind: KindFeature},
	{id: "freereturns", kind: KindFeature, implies: []string{"returns"}},
	{id: "support247", kind: KindFeature},
	{id: "lifetime", kind: KindFeature},
	{id: "organic", kind: KindFeature},
	{id: "vegan", kind: KindFeature},
	{id: "certified", kind: KindFeature},
	{id: "waterproof", kind: KindFeature, implies: []string{"waterresistant"}},
	{id: "waterresistant", kind: KindFeature},
	{id: "handmade", kind: KindFeature},
	{id: "bestseller", kind: KindFeature},
	{id: "numberone", kind: KindFeature},
	{id: "bestprice", kind: KindFeature},
	{id: "crowd", kind: KindFeature},
	{id: "origin", kind: KindFeature},
	{id: "loyalty", kind: KindFeature},
	{id: "installments", kind: KindFeature},
	{id: "giveaway", kind: KindDiscount},
	{id: "award", kind: KindFeature},
	{id: "eco", kind: KindFeature},
	{id: "fastdelivery", kind: KindFeature},
})

// withPhrases fills in the families' phrases from the lexicon. A family without phrases, or
// a section no family reads, fails TestConceptPhrases.
func withPhrases(fams []conceptFamily) []conceptFamily {
	secs := map[string][]string{}
	for _, sec := range lexicon.Default().Sections(lexicon.ConceptPhrases, "") {
		secs[sec.Name] = sec.Entries
	}
	for i := range fams {
		fams[i].phrases = phrases(secs[fams[i].id]...)
		fams[i].not = phrases(secs[fams[i].id+".not"]...)
	}
	return fams
}

// familyKind returns the Claim kind of a family.
func familyKind(id string) string {
	for _, f := range conceptFamilies {
		if f.id == id {
			return f.kind
		}
	}
	return KindFeature
}

// concepts is the index of conceptFamilies' matchers; building it numbers them in place.
var concepts = indexMatchers(conceptFamilies)

// scanConcepts returns one fact per concept family the words state, quoting the first words
// that state it. A use listed under the family's not-phrases ("feel free") does not count, nor
// one inside the words of a family it yields to.
func scanConcepts(text string, ws []word) []fact {
	h := concepts.hits(ws)
	found := map[string][][2]int{}
	for _, fam := range conceptFamilies {
		var excluded []bool
		for _, p := range fam.not {
			for _, s := range p.spans(ws, h) {
				if excluded == nil {
					excluded = make([]bool, len(ws))
				}
				for k := s[0]; k < s[1]; k++ {
					excluded[k] = true
				}
			}
		}
		for _, p := range fam.phrases {
			for _, s := range p.spans(ws, h) {
				if !overlaps(excluded, s) {
					found[fam.id] = append(found[fam.id], s)
				}
			}
		}
	}
	var out []fact
	for _, fam := range conceptFamilies {
		for _, s := range found[fam.id] {
			if !yielded(s, fam.yields, found) {
				out = append(out, fact{kind: kindFamily, family: fam.id, text: text[ws[s[0]].start:ws[s[1]-1].end]})
				break
			}
		}
	}
	return out
}

// yielded reports whether span s lies within the match of one of the families.
func yielded(s [2]int, families []string, found map[string][][2]int) bool {
	for _, id := range families {
		for _, o := range found[id] {
			if s[0] < o[1] && o[0] < s[1] {
				return true
			}
		}
	}
	return false
}

// overlaps reports whether any word of span s is excluded.
func overlaps(excluded []bool, s [2]int) bool {
	if excluded == nil {
		return false
	}
	for k := s[0]; k < s[1]; k++ {
		if excluded[k] {
			return true
		}
	}
	return false
}

// impliedFamilies returns the families a source stating id also supports, id included.
func impliedFamilies(id string) []string {
	out := []string{id}
	for _, f := range conceptFamilies {
		if f.id == id {
			for _, i := range f.implies {
				out = append(out, impliedFamilies(i)...)
			}
		}
	}
	return out
}
