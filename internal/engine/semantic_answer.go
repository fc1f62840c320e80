package engine

import (
	"math"
	"strings"
	"unicode/utf8"

	"svc/internal/store"
	"svc/internal/textindex"
)

// The defaults of Options.MinSimilarity, MinStandOut and MinRerank. The reranker's scores
// are relevance on a 0-1 scale (TEI's sigmoid, Cohere's and Jina's relevance_score), so its
// bar sits at even odds. Without a reranker two readings must agree: the similarity itself,
// whose scale is each model's own (so it is a setting: SVC_EMBED_MIN_SIMILARITY), and how
// far the nearest chunk stands above the question's other hits in standard deviations, which
// is scale-free but alone lets a question on nothing the KB holds through whenever one
// chunk shares a stray word with it. Both were chosen on the tuning half of the paraphrase
// and unanswerable questions of the demo KB with the fake embedder's vectors
// (semantic_test.go) and checked on the other half; BENCHMARKS.md has the figures.
const (
	defaultMinSimilarity = 0.47
	defaultMinStandOut   = 1.5
	defaultMinRerank     = 0.5
)

func (e *Engine) minSimilarity() float64 {
	if e.opts.MinSimilarity != 0 {
		return e.opts.MinSimilarity
	}
	return defaultMinSimilarity
}

func (e *Engine) minStandOut() float64 {
	if e.opts.MinStandOut != 0 {
		return e.opts.MinStandOut
	}
	return defaultMinStandOut
}

func (e *Engine) minRerank() float64 {
	if e.opts.MinRerank != 0 {
		return e.opts.MinRerank
	}
	return defaultMinRerank
}

// semanticPick is the chunk found by meaning that a reply may stand on when the keyword
// evidence answers nothing: the best one, when the evidence for it stands out (the
// reranker's score when one ran, else how far its similarity stands above the rest). With
// lang set only a chunk in that language counts, and the rest of the list it must stand out
// from is that language's too: the built-in engine quotes, and quotes only the question's
// language; a model writes the reply and may read a page in any language (lang "").
func (e *Engine) semanticPick(r *retrieval, lang string) (vecCand, bool) {
	s := r.sem
	if s == nil || len(s.cands) == 0 {
		return vecCand{}, false
	}
	// A name the KB never wrote tells only where the KB is written in the question's
	// language: a Turkish question's words are all "unseen" in an English-only KB.
	if (lang != "" || s.holds(r.q.lang)) && r.unseenName() {
		return vecCand{}, false
	}
	cands := s.cands
	if lang != "" {
		cands = make([]vecCand, 0, len(s.cands))
		for _, c := range s.cands {
			if c.hit.Lang == lang || c.hit.Lang == "" {
				cands = append(cands, c)
			}
		}
		if len(cands) == 0 {
			return vecCand{}, false
		}
	}
	best := cands[0]
	if s.reranked && !math.IsNaN(best.rerank) {
		return best, best.rerank >= e.minRerank()
	}
	z := s.z
	if lang != "" {
		z = standOut(cands)
	}
	return best, best.cos >= e.minSimilarity() && z >= e.minStandOut()
}

// semanticQuote is what a reply quotes of a chunk found by meaning: its sentences from the
// first, within room characters (at least the first sentence), leaving out a Q&A entry's
// question line and heading lines, which the source line names.
func semanticQuote(h store.ChunkHit, lang string, room int) string {
	text := h.Text
	if h.DocType == store.DocQA && strings.HasPrefix(text, h.Title) {
		text = strings.TrimPrefix(text, h.Title)
	}
	var b strings.Builder
	n := 0
	for _, sp := range splitSentences(text, lang) {
		s := strings.TrimSpace(sp.text)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		c := utf8.RuneCountInString(s)
		if n > 0 && n+1+c > room {
			break
		}
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(s)
		n += c
	}
	return b.String()
}

// semanticExtract is what a reply quotes of the chunk found by meaning, in the room the
// reply's source line leaves (the tone's lead-in is reserved for, as extract does, so that
// Evidence names the same quote as the reply).
func (e *Engine) semanticExtract(lg string, pick vecCand) extract {
	src := sourceLine(lg, &pick.hit)
	room := min(e.opts.MaxReplyChars, e.opts.MaxReply-leadReserve-utf8.RuneCountInString(src)-2)
	return extract{text: semanticQuote(pick.hit, lg, max(room, minQuote)), docID: pick.hit.DocID}
}

// semanticAnswer is the reply that quotes the chunk found by meaning.
func (e *Engine) semanticAnswer(question, lg string, ph tonePhrases, r *retrieval, pick vecCand) (Answer, extract) {
	ex := e.semanticExtract(lg, pick)
	text := ph.leadFor(question, ex.text) + " " + ex.text + "\n" + sourceLine(lg, &pick.hit)
	in := e.textTokens(question)
	if pick.hit.Tokens > 0 {
		in += pick.hit.Tokens
	} else {
		in += e.CountTokens(pick.hit.Text)
	}
	h := pick.hit
	ps := []Passage{hitPassage(h, pick.cos)}
	for _, p := range e.fusedPassages(r, e.opts.AnswerPassages) {
		if p.DocID != h.DocID && len(ps) < e.opts.AnswerPassages {
			ps = append(ps, p)
		}
	}
	return Answer{
		Text:         text,
		Confident:    true,
		DocIDs:       []int64{h.DocID},
		Passages:     ps,
		InputTokens:  in,
		OutputTokens: e.textTokens(text),
	}, ex
}

// rrfK is reciprocal rank fusion's constant (Cormack et al., 2009): a candidate scores
// 1/(rrfK + rank) in each list it is in.
const rrfK = 60

// fusedPassages lists at most k passages, one a document, from the keyword ranking and the
// search by meaning fused by reciprocal rank, in any language: what a model reads. The chunks
// found by meaning that it shows must have been read (readSemantic with the same k or more).
func (e *Engine) fusedPassages(r *retrieval, k int) []Passage {
	if r.sem == nil || len(r.sem.cands) == 0 {
		return passages(bestPerDoc(r.ranked, k))
	}
	kw, order := e.fusedOrder(r, k)
	out := make([]Passage, len(order))
	for i, f := range order {
		if f.sem >= 0 {
			c := r.sem.cands[f.sem]
			out[i] = hitPassage(c.hit, c.cos)
		} else {
			out[i] = kw[f.kw].passage()
		}
	}
	return out
}

// fused is one document of the fused ranking: its keyword passage (kw, an index into the
// keyword candidates fusedOrder returns) or, for a document the keyword search did not
// bring, the chunk found by meaning that stands for it (sem, an index into r.sem.cands); the
// other is -1.
type fused struct{ kw, sem int }

// fusedOrder ranks the documents of the keyword ranking and the search by meaning by
// reciprocal rank fusion, one entry a document (the keyword passage when it has one, else
// its best chunk by meaning), and keeps the best k. It reads only the hits' documents, so
// that readSemantic can tell which chunks found by meaning a list of k passages shows
// before they are read.
func (e *Engine) fusedOrder(r *retrieval, k int) ([]candidate, []fused) {
	kw := bestPerDoc(r.ranked, max(k, rerankTop))
	byDoc := map[int64]int{}
	var order []fused
	var scores []float64
	add := func(doc int64, f fused, rank int) {
		i, ok := byDoc[doc]
		if !ok {
			i = len(order)
			byDoc[doc] = i
			order = append(order, f)
			scores = append(scores, 0)
		}
		scores[i] += 1 / float64(rrfK+rank+1)
	}
	for i := range kw {
		add(kw[i].hit.DocID, fused{kw: i, sem: -1}, i)
	}
	seen := map[int64]bool{}
	rank := 0
	for j, c := range r.sem.cands {
		if seen[c.hit.DocID] {
			continue
		}
		seen[c.hit.DocID] = true
		add(c.hit.DocID, fused{kw: -1, sem: j}, rank)
		rank++
	}
	idx := make([]int, len(order))
	for i := range idx {
		idx[i] = i
	}
	sortStableBy(idx, func(a, b int) bool { return scores[a] > scores[b] })
	if len(idx) > k {
		idx = idx[:k]
	}
	out := make([]fused, len(idx))
	for i, x := range idx {
		out[i] = order[x]
	}
	return kw, out
}

// unseenName reports whether the question names something (a capitalised word, or one with a
// digit) that no chunk of the account holds: "the current price of Bitcoin" in
// a shop's KB. Meaning finds the nearest page to anything, here the shipping costs, while a
// name the KB never wrote says the question is about something else. (A German noun is
// capitalised too, and counts alike: one the KB never uses is as telling.)
func (r *retrieval) unseenName() bool {
	for _, n := range textindex.NameTerms(r.question, r.q.lang) {
		if n, ok := r.docFreq[n]; ok && n == 0 || !ok && r.docFreq != nil {
			return true
		}
	}
	return false
}

// bestIn is the index of the chunk found by meaning that semanticPick weighs for lang: the
// first in lang (or of no language), or the first of all for lang ""; -1 when there is none.
func (s *semanticRead) bestIn(lang string) int {
	for i, c := range s.cands {
		if lang == "" || c.hit.Lang == lang || c.hit.Lang == "" {
			return i
		}
	}
	return -1
}

// holds reports whether any chunk found by meaning is in lang (or has no language).
func (s *semanticRead) holds(lang string) bool {
	for _, c := range s.cands {
		if c.hit.Lang == lang || c.hit.Lang == "" {
			return true
		}
	}
	return false
}
