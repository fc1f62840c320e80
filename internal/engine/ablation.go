package engine

import (
	"slices"

	"svc/internal/textindex"
)

// Families are the rule families of the engine that rest on hand-written language data or a
// hand-set rule, by the name an ablation switches them off with (Options.Off). Each has to
// earn its place: BENCHMARKS.md's ablation table measures every dev set with one family off.
var Families = []string{
	FamilyPlaces, FamilyAbbreviations, FamilyCompounds, FamilySplits, FamilyWeakWords,
	FamilyArbitration, FamilySense,
}

// The rule families (see Families).
const (
	FamilyPlaces        = "places"        // a city the KB never names read as its country; a passage about another place last
	FamilyAbbreviations = "abbreviations" // upper-case country abbreviations spelled out
	FamilyCompounds     = "compounds"     // German compounds of two question words
	FamilySplits        = "splits"        // a German compound the KB never writes whole queried by its parts (decompound.go)
	FamilyWeakWords     = "weak-words"    // light verbs and fillers weighed down
	FamilyArbitration   = "arbitration"   // pages against products, languages, variants (arbitrate.go)
	FamilySense         = "sense"         // a German noun met only by a verb is no evidence
)

// off reports whether the rule family is switched off.
func (e *Engine) off(family string) bool {
	return len(e.opts.Off) > 0 && slices.Contains(e.opts.Off, family)
}

// ablateQuestion removes from an analyzed question what the switched-off families added.
func (e *Engine) ablateQuestion(qa *question, text, lang string) {
	if len(e.opts.Off) == 0 {
		return
	}
	// The optional terms are the abbreviations' spelled-out names and the German compounds;
	// drop those of the families switched off.
	abbr := map[textindex.Term]bool{}
	for _, t := range abbreviationTerms(text, lang, nil) {
		abbr[t] = true
	}
	var keep []int
	for i, t := range qa.terms {
		drop := qa.optional[i] && (abbr[t] && e.off(FamilyAbbreviations) || !abbr[t] && e.off(FamilyCompounds))
		if !drop {
			keep = append(keep, i)
		}
	}
	pick := func(b []bool) []bool {
		if b == nil {
			return nil
		}
		out := make([]bool, 0, len(keep))
		for _, i := range keep {
			out = append(out, b[i])
		}
		return out
	}
	terms := make([]textindex.Term, 0, len(keep))
	for _, i := range keep {
		terms = append(terms, qa.terms[i])
	}
	qa.terms, qa.weak, qa.optional, qa.lower = terms, pick(qa.weak), pick(qa.optional), pick(qa.lower)
	qa.byPrefix = pick(qa.byPrefix)
	if e.off(FamilyWeakWords) {
		clear(qa.weak)
	}
}

// ablateAlternates drops the alternates of switched-off families.
func (e *Engine) ablateAlternates(alts [][]alternate) {
	if !e.off(FamilyPlaces) {
		return
	}
	for i := range alts {
		alts[i] = slices.DeleteFunc(alts[i], func(a alternate) bool { return a.family != "" && e.off(a.family) })
	}
}
