package intel

import (
	"sort"
	"strings"

	"svc/internal/engine"
	"svc/internal/grounding"
	"svc/internal/lang/lexicon"
)

// How much the built-in engine writes per depth.
const (
	answerSentencesLean = 2
	answerSentencesFull = 3
	answerSourcesFull   = 4
	pointsLean          = 3
	pointsFull          = 6
)

// answerMargin is how close to the best sentence's score the next one must come to join it
// in an answer.
const answerMargin = 0.15

// Compose answers req from src with the built-in engine: extractive (sentences chosen by the
// analyzer's term overlap with the question, topic or fields, and the products' own data;
// it never writes a fact of its own), then guarded. Depth full adds more: more sentences and
// the supporting sources of an answer, more points, product links and details, the evidence
// of every field.
func Compose(req Request, src grounding.Sources) Answer {
	a := Answer{Op: req.Op, Lang: req.Lang, Depth: req.Depth}
	c := newCorpus(src, req.Lang)
	switch req.Op {
	case OpAnswer:
		composeAnswer(&a, req, c)
	case OpSummarize:
		composeSummary(&a, req, c)
	case OpCompare:
		composeCompare(&a, req, src, c)
	case OpExtract:
		composeExtract(&a, req, src, c)
	}
	Guard(&a, req, src)
	return a
}

// composeAnswer quotes the best passage's best sentences and, at full depth, the best
// sentence of each further passage that answers nearly as well.
func composeAnswer(a *Answer, req Request, c *corpus) {
	q := c.query(req.Question)
	if kind := engine.QuestionKind(req.Question, req.Lang); kind != "" {
		q.dropMissing()
		q.cue = cueFor(kind)
	}
	ranked := c.rankPassages(q)
	if len(ranked) == 0 || !confident(q, c, ranked[0]) {
		return
	}
	best := ranked[0]
	p := &c.passages[best.pi]
	var pool []scored
	for si, s := range p.sents {
		if s.quotable {
			pool = append(pool, scored{pi: best.pi, si: si, score: q.sentScore(p, s)})
		}
	}
	sortScored(pool)
	limit := answerSentencesLean
	if req.full() {
		limit = answerSentencesFull
	}
	chosen := []scored{pool[0]}
	for _, s := range pool[1:] {
		if len(chosen) == limit || s.score < pool[0].score-answerMargin || s.score == 0 {
			break
		}
		if !similarToAny(c, s, chosen) {
			chosen = append(chosen, s)
		}
	}
	sort.Slice(chosen, func(i, j int) bool { return chosen[i].si < chosen[j].si })
	parts := make([]string, len(chosen))
	for i, s := range chosen {
		parts[i] = c.quote(s.pi, s.si)
	}
	a.Text = joinSentences(parts)
	a.Sources = []Source{c.source(best.pi, a.Text)}
	if !req.full() {
		return
	}
	used := append([]scored(nil), chosen...)
	for _, r := range ranked[1:] {
		if len(a.Sources) == answerSourcesFull || r.score < ranked[0].score/2 {
			break
		}
		// A supporting sentence must answer much of the question itself, not share a
		// name with it ("Kaçkar" the boot and the mountains).
		rp := &c.passages[r.pi]
		rs := rp.sents[r.si]
		if sc := q.sentScore(rp, rs); sc < 0.5 || sc < 0.6*pool[0].score || q.matched(rs.terms, rp.title) < min(2, len(q.terms)) {
			continue
		}
		if sameSource(c, r.pi, a.Sources) || similarToAny(c, r, used) {
			continue
		}
		used = append(used, r)
		a.Sources = append(a.Sources, c.source(r.pi, c.quote(r.pi, r.si)))
	}
}

// cueFor tells a sentence that holds the kind of answer engine.QuestionKind read from the
// question: a duration for "how long", a figure for "how much" or "when".
func cueFor(kind string) func(string) bool {
	switch kind {
	case "duration":
		return func(s string) bool { return len(findValues(kindDuration, s)) > 0 }
	case "number", "date":
		return func(s string) bool { return strings.ContainsAny(s, "0123456789") }
	}
	return nil
}

// confident decides whether the best passage answers the question at all: it must hold
// half of the question's weight, or a third of it with two question words meeting in it.
// A question about something the sources never mention falls short, since a word no
// sentence contains weighs the most.
func confident(q *query, c *corpus, best scored) bool {
	p := &c.passages[best.pi]
	cov := q.passageCover(p)
	if cov >= 0.5 {
		return true
	}
	all := map[string]bool{}
	for _, s := range p.sents {
		for t := range s.terms {
			all[t] = true
		}
	}
	return cov >= 0.34 && q.matched(all, p.title) >= 2
}

func similarToAny(c *corpus, s scored, chosen []scored) bool {
	for _, o := range chosen {
		if similar(c.passages[s.pi].sents[s.si].terms, c.passages[o.pi].sents[o.si].terms) {
			return true
		}
	}
	return false
}

func sameSource(c *corpus, pi int, sources []Source) bool {
	p := c.passages[pi].p
	for _, s := range sources {
		if s.Title == p.Title && s.URL == p.URL {
			return true
		}
	}
	return false
}

// joinSentences joins quoted sentences into a paragraph, ending each that has no final
// punctuation (a list item, a facts line) with a period.
func joinSentences(parts []string) string {
	var b strings.Builder
	for i, s := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(endSentence(s))
	}
	return b.String()
}

func endSentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?…:)\"”“") {
		return s
	}
	return s + "."
}

// composeSummary picks the sentences most about the topic as key points, spread over the
// passages (a passage gives its second point only after every strong passage gave its
// first), none that repeats an earlier point.
func composeSummary(a *Answer, req Request, c *corpus) {
	q := c.query(req.Topic)
	limit := pointsLean
	if req.full() {
		limit = pointsFull
	}
	var pool []scored
	for pi := range c.passages {
		p := &c.passages[pi]
		pc := 0.0
		if !q.empty() {
			pc = q.passageCover(p)
			if pc == 0 {
				continue
			}
		}
		for si, s := range p.sents {
			if !s.quotable || s.fact != "" {
				continue
			}
			sc := 0.0
			if q.empty() {
				// Nothing to match: the caller's retrieval order is the relevance, and a
				// passage's first sentences are usually its gist.
				sc = 1/float64(1+pi) + 0.1/float64(1+si)
			} else {
				sc = q.cover(s.terms, p.title) + 0.3*pc
				if q.cover(s.terms, nil) == 0 {
					sc /= 3 // only the title matches: a sentence of the page, not of the topic
				}
				// The caller retrieved the passages best first, a passage's first sentences
				// carry its gist, and a point with a figure says more than one without.
				sc += 0.15*(1-float64(pi)/float64(len(c.passages))) + 0.1/float64(1+si)
				if strings.ContainsAny(s.text, "0123456789") {
					sc += 0.05
				}
				if backReference(s.text, p.lg) {
					sc /= 2 // "It is free from 120 €": what "it" is was said before
				}
				if p.p.Lang == c.lang {
					sc += 0.05
				}
			}
			pool = append(pool, scored{pi: pi, si: si, score: sc})
		}
	}
	sortScored(pool)
	perPassage := map[int]int{}
	var chosen []scored
	for round := 1; round <= limit && len(chosen) < limit; round++ {
		for _, s := range pool {
			if len(chosen) == limit {
				break
			}
			if perPassage[s.pi] >= round || containsScored(chosen, s) || similarToAny(c, s, chosen) || sameFigures(c, s, chosen) {
				continue
			}
			if round == 1 && s.score < pool[0].score/2 {
				break // weak passages wait until the strong ones gave their second point
			}
			perPassage[s.pi]++
			chosen = append(chosen, s)
		}
	}
	sortScored(chosen)
	for _, s := range chosen {
		text := endSentence(c.quote(s.pi, s.si))
		a.Points = append(a.Points, Point{Text: text, Source: c.source(s.pi, text)})
	}
}

// sameFigures reports whether every figure of a sentence is already in a chosen one: a Q&A
// and a page often state the same price in other words.
func sameFigures(c *corpus, s scored, chosen []scored) bool {
	figs := amountRe.FindAllString(c.passages[s.pi].sents[s.si].text, -1)
	if len(figs) == 0 {
		return false
	}
	for _, o := range chosen {
		if numbersIn(c.passages[s.pi].sents[s.si].text, c.passages[o.pi].sents[o.si].text) {
			return true
		}
	}
	return false
}

// backWords start a sentence that refers back to an earlier one, per language.
var backWords = func() map[string][]string {
	out := make(map[string][]string)
	for _, lg := range lexicon.Languages() {
		out[lg] = lexicon.Default().Entries(lexicon.BackReferenceWords, lg)
	}
	return out
}()

func backReference(s, lg string) bool {
	words := strings.Fields(s)
	if len(words) == 0 {
		return false
	}
	first := strings.ToLower(strings.Trim(words[0], ",.;:"))
	for _, w := range backWords[lg] {
		if first == w {
			return true
		}
	}
	// "Ab 120 € ist er kostenlos": the German pronoun after the verb.
	return lg == "de" && len(words) > 3 && strings.Contains(" "+strings.ToLower(s)+" ", " ist er ")
}

func containsScored(list []scored, s scored) bool {
	for _, o := range list {
		if o.pi == s.pi && o.si == s.si {
			return true
		}
	}
	return false
}
