package engine

import "regexp"

// clauseBreak splits a question into its clauses: at a comma or semicolon, and before
// "and" in each language, where a second question often starts ("how much is it, and how long
// does it take?", "Was kostet der Versand und wie lange dauert er?").
var clauseBreak = regexp.MustCompile(`(?i)[,;]|\s(?:and|und|sowie|ve|ayrıca)\s`)

// secondKind returns the kind of answer a second question in the same message asks for: a
// question phrase of another kind than first, in another clause than the one that set the
// kind ("Kargo ücreti ne kadar, kaç günde gelir?" asks a price and a duration). askOther when
// the message asks one thing; phrase is the second question's phrase. A clause boundary is required so that a relative "when" or
// "who" inside one question ("how many lived there when …") is no second question.
func secondKind(text, lang string, first qtype) (qtype, string) {
	if first == askOther {
		return askOther, ""
	}
	clauses := clauseBreak.Split(text, -1)
	if len(clauses) < 2 {
		return askOther, ""
	}
	kinds := make([]qtype, 0, len(clauses))
	phrases := make([]string, 0, len(clauses))
	firstAt := -1
	for _, c := range clauses {
		k, p := questionPhrase(c, lang)
		if k == first && firstAt < 0 {
			firstAt = len(kinds)
		}
		kinds = append(kinds, k)
		phrases = append(phrases, p)
	}
	for i, k := range kinds {
		if i != firstAt && k != askOther && k != first {
			return k, phrases[i]
		}
	}
	return askOther, ""
}

// partCues marks, for a question that asks two things, which sentences of the read chunks
// hold the cue of each kind: cues[ci][si][0] the question's kind, [1] its second kind.
type partCues map[int][][2]bool

// lacking returns which of the two kinds the chunk ci has no sentence with a cue of: 0 or 1,
// or -1 when it holds both or neither (then the second window is chosen as for any question).
func (p partCues) lacking(ci int) int {
	var has [2]bool
	for _, c := range p[ci] {
		has[0] = has[0] || c[0]
		has[1] = has[1] || c[1]
	}
	switch {
	case has[0] && !has[1]:
		return 1
	case has[1] && !has[0]:
		return 0
	}
	return -1
}

// complement returns the second anchor for a question that asks two things: among the
// sentences of the read chunks other than the best's, within Margin of the best score, one
// that holds the cue of the kind the best's chunk lacks. One without the cue of the kind the
// anchor answers comes first, then the one sharing the fewest question terms with the
// anchor, then the higher score: a section that repeats the first window's kind or words
// (the prices in a list of shipping costs abroad) answers the first question again, whereas
// the second is answered where they are not ("delivery takes 2–4 days").
// ok is false when no sentence qualifies.
func (p partCues) complement(cands []candidate, read []int, scores map[int][]float64, bestC, bestS int, margin float64) (int, int, bool) {
	miss := p.lacking(bestC)
	if miss < 0 {
		return 0, 0, false
	}
	inAnchor := make(map[int]bool)
	for _, m := range cands[bestC].sents[bestS].seq {
		if m >= 0 {
			inAnchor[m] = true
		}
	}
	overlap := func(ci, si int) int {
		seen := make(map[int]bool)
		for _, m := range cands[ci].sents[si].seq {
			if m >= 0 && inAnchor[m] {
				seen[m] = true
			}
		}
		return len(seen)
	}
	secC, secS, secO, secPure := -1, -1, 0, false
	for _, ci := range read {
		if ci == bestC {
			continue
		}
		for si, v := range scores[ci] {
			if v < scores[bestC][bestS]-margin || si >= len(p[ci]) || !p[ci][si][miss] {
				continue
			}
			pure, o := !p[ci][si][1-miss], overlap(ci, si)
			switch {
			case secC >= 0 && secPure != pure:
				if !pure {
					continue
				}
			case secC >= 0 && o != secO:
				if o > secO {
					continue
				}
			case secC >= 0 && v <= scores[secC][secS]:
				continue
			}
			secC, secS, secO, secPure = ci, si, o, pure
		}
	}
	return secC, secS, secC >= 0
}

// partCue reports whether s holds the cue of kind for a message that also asks other. A
// number that states a duration ("2–4 business days") answers "how long", not "how much":
// when the two kinds are a number and a duration, the number cue needs a number that is not
// followed by a unit of time within the next three words.
func partCue(s string, kind, other qtype, lang string, qwords map[string]bool, cue bool) bool {
	if kind != askNumber || other != askDuration {
		return cue // hasCue(s, kind, …), which the caller has already read
	}
	words := rawWords(s)
	for i, w := range words {
		lw := lowerWord(w, lang)
		if qwords[lw] || !(isDigits(w) || numberWords[lang][lw]) {
			continue
		}
		timed := false
		for j := i + 1; j < len(words) && j <= i+3; j++ {
			if isTimeUnit(lowerWord(words[j], lang), lang) {
				timed = true
				break
			}
		}
		if !timed {
			return true
		}
	}
	return false
}
