package engine

import (
	"math"
	"strings"

	"svc/internal/store"
)

// extract is the outcome of sentence selection.
type extract struct {
	text  string // the chosen sentences in source order; a line break between paragraphs
	docID int64  // the document the sentences came from
	read  []int  // indexes into cands of the candidates whose sentences were scored
	// cands are the candidates extraction chose from: the ranked ones, with the best chunk's
	// whole section in its place (retrieval.extractable).
	cands []candidate
	// held is, per query term, the strength of its best match in the quoted sentences.
	held []float64
}

// localWeights returns the weight of each query term for choosing among the sentences of
// the candidates read, as a share of the question's total: its idf, scaled down when many of
// those sentences contain it (Ranking.Local is the exponent of the scaling). "Tesla" decides
// which page answers a question about Tesla, but on the page about him it is in every other
// sentence and says nothing about which one answers.
func (r *Ranking) localWeights(q *query, cands []candidate, read []int) []float64 {
	sf := make([]float64, len(q.terms))
	n := 0.0
	for _, ci := range read {
		for _, s := range cands[ci].sents {
			n++
			seen := make([]bool, len(q.terms))
			for _, m := range s.seq {
				if m >= 0 && !seen[m] {
					seen[m] = true
					sf[m]++
				}
			}
		}
	}
	w := make([]float64, len(q.terms))
	for i := range w {
		w[i] = q.idf[i] / q.total
		if r.Local != 0 && sf[i] > 0 && n > 1 {
			w[i] *= math.Pow(math.Log(1+n/sf[i])/math.Log(1+n), r.Local)
		}
	}
	return w
}

// extractAnswer quotes the passage of the best document that best answers the question
// from ranked, the analyzed candidates best first, in at most maxChars characters. It reads
// the best chunk, which is its whole section when that spans several chunks (readSection),
// and the other chunks of its document that were analyzed (a long page's answer may sit in
// the chunk after the one that matched best), weighted by their rank score. A sentence scores the share of the question's weight it holds (title and heading
// terms count as present in every sentence under them), adjacent question terms, and a
// bonus when it holds what the question type asks for. The best sentence anchors a window
// that grows over its neighbours in the same chunk (see growWindows); a sentence of another
// chunk that scores within Margin of the best may open a second window.
func (r *Ranking) extractAnswer(q *query, cands []candidate, maxChars int) extract {
	var ex extract
	if len(cands) == 0 || q.total == 0 {
		return ex
	}
	qwords := q.raw // the question's own words, which a cue must not merely repeat
	top := cands[0].score
	doc := cands[0].hit.DocID
	// An FAQ entry that the question matches is quoted from its own section: another
	// entry's text answers another question (a page whose title is the question is one entry
	// and is read whole). A table of contents of the page is no answer unless it is all that
	// matched.
	entry := cands[0].entry >= entryAnswers && cands[0].hit.Heading != cands[0].hit.Title
	ex.cands = cands
	for ci := range cands {
		if ci > 0 && contentsLike(&cands[ci].hit) {
			continue
		}
		if cands[ci].hit.DocID == doc && (!entry || store.UnderHeading(cands[ci].hit.Heading, cands[0].hit.Heading)) {
			ex.read = append(ex.read, ci)
		}
	}
	weight := r.localWeights(q, cands, ex.read)
	scores := make(map[int][]float64, len(ex.read))
	// A message that asks two things gives the cue bonus to a sentence that answers either,
	// and the second window goes to the section answering the part the first lacks.
	for _, ci := range ex.read {
		c := &cands[ci]
		rel := 1.0
		if top > 0 {
			rel = c.score / top
		}
		floor := make([]float64, len(c.inHead))
		for i, h := range c.inHead {
			floor[i] = h * r.ExtractContext
		}
		lang := c.lang(q)
		sc := make([]float64, len(c.sents))
		for si, s := range c.sents {
			if !s.quote {
				sc[si] = math.Inf(-1)
				continue
			}
			v := weighMatches(s.seq, s.strength, floor, weight)
			v += r.SentBigram * q.bigramWeight(s.seq) / q.total
			cue := hasCue(s.text, q.kind, lang, qwords)
			if r.Cue != 0 && cue {
				v += r.Cue
			}
			sc[si] = v * rel
		}
		scores[ci] = sc
	}
	ws := r.growWindows(cands, ex.read, scores, q.lang, maxChars)
	if len(ws) == 0 {
		return ex
	}
	ex.text = windowText(cands, ws, q, r.Soft)
	ex.docID = doc
	// What the quote holds of the question, from its sentences' matches (answerability reads
	// it; the words of a clipped sentence's cut-off part are counted too, a small overstatement
	// that spares analysing the quote again).
	ex.held = make([]float64, len(q.terms))
	for _, w := range ws {
		for _, s := range cands[w.cand].sents[w.lo : w.hi+1] {
			for j, m := range s.seq {
				if m >= 0 {
					ex.held[m] = max(ex.held[m], s.strength[j])
				}
			}
		}
	}
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
