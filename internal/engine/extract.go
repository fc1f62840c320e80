package engine

import (
	"sort"
	"strings"
)

// extract is the outcome of sentence selection.
type extract struct {
	text   string  // the chosen sentences in source order, space separated
	docIDs []int64 // documents the sentences came from, in order of first use
	read   []int   // indexes of the candidates whose sentences were scored
}

// scoredSentence is a quotable sentence with its extraction score.
type scoredSentence struct {
	cand, idx int // candidate index and sentence index within it
	score     float64
	chars     int
}

// extractAnswer picks the one or two sentences that best answer the question from ranked,
// the analyzed candidates best first. It reads the best chunk, the other chunks of its
// document (a long page's answer may sit in the chunk after the one that matched best), and
// chunks of other documents scoring within Spread of the best, scores every sentence
// by the share of the question's weight it holds, adjacent question terms and whether it holds
// the kind of thing the question asks for, then adds a second sentence when it fits in
// maxChars, preferring the neighbours of the first because an answer often sits in the
// sentence after the one that restates the question.
func (r *Ranking) extractAnswer(q *query, cands []candidate, question string, maxChars int) extract {
	var ex extract
	if len(cands) == 0 || q.total == 0 {
		return ex
	}
	kind := questionType(question, q.lang)
	qwords := make(map[string]bool)
	for _, w := range rawWords(question) {
		qwords[lowerWord(w, q.lang)] = true
	}
	top := cands[0].score
	var pool []scoredSentence
	for ci := range cands {
		c := &cands[ci]
		if ci > 0 && c.hit.DocID != cands[0].hit.DocID && (top <= 0 || c.score < top*(1-r.Spread)) {
			continue
		}
		ex.read = append(ex.read, ci)
		rel := 1.0
		if top > 0 {
			rel = c.score / top
		}
		lang := c.hit.Lang
		if lang == "" {
			lang = q.lang
		}
		for si, s := range c.sents {
			if !s.quote {
				continue
			}
			sc := q.weightOf(countSeq(s.seq, len(q.terms))) / q.total
			sc += r.SentBigram * q.bigramWeight(s.seq) / q.total
			if r.Cue != 0 && hasCue(s.text, kind, lang, qwords) {
				sc += r.Cue
			}
			pool = append(pool, scoredSentence{cand: ci, idx: si, score: sc * rel, chars: s.chars})
		}
	}
	if len(pool) == 0 {
		return ex
	}
	best := 0
	for i, s := range pool {
		if s.score > pool[best].score {
			best = i
		}
	}
	chosen := []scoredSentence{pool[best]}
	second, secondScore := -1, 0.0
	for i, s := range pool {
		if i == best || cands[s.cand].hit.DocID != cands[pool[best].cand].hit.DocID ||
			pool[best].chars+1+s.chars > maxChars {
			continue
		}
		sc := s.score
		if d := s.idx - pool[best].idx; s.cand == pool[best].cand && (d == 1 || d == -1) {
			sc += r.Neighbour
		}
		if second < 0 || sc > secondScore {
			second, secondScore = i, sc
		}
	}
	if second >= 0 {
		chosen = append(chosen, pool[second])
	}
	sort.Slice(chosen, func(i, j int) bool {
		if chosen[i].cand != chosen[j].cand {
			return chosen[i].cand < chosen[j].cand
		}
		return chosen[i].idx < chosen[j].idx
	})
	parts := make([]string, 0, len(chosen))
	for _, s := range chosen {
		c := &cands[s.cand]
		parts = append(parts, clipSentence(c.sents[s.idx].text, maxChars))
		if !containsID(ex.docIDs, c.hit.DocID) {
			ex.docIDs = append(ex.docIDs, c.hit.DocID)
		}
	}
	ex.text = strings.Join(parts, " ")
	return ex
}

// clipSentence shortens a sentence longer than maxChars at a word boundary and marks the cut.
func clipSentence(s string, maxChars int) string {
	rs := []rune(s)
	if len(rs) <= maxChars {
		return s
	}
	cut := maxChars - 1
	for i := cut; i > maxChars/2; i-- {
		if rs[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(rs[:cut]), " ,;:") + "…"
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
