package intel

import (
	"regexp"
	"strings"
	"unicode"

	"svc/internal/engine"
	"svc/internal/grounding"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
)

// maxQuote is the longest sentence quoted whole; longer ones are clipped.
const maxQuote = 320

// sentence is one sentence of a passage with its analyzed terms.
type sentence struct {
	text  string
	terms map[string]bool
	line  int
	// quotable sentences read as statements: not a question, not the passage's title
	// repeated, not a table row of figures. Extraction may still use the others.
	quotable bool
	fact     string // "price" or "category" for the facts lines of a product chunk
}

// passage is a source passage split into analyzed sentences.
type passage struct {
	p     grounding.Passage
	n     int // 1-based index in Sources.Passages
	title map[string]bool
	sents []sentence
	lg    string // the language its sentences were analyzed in
}

// corpus is the sources of one request, analyzed once.
type corpus struct {
	lang     string
	passages []passage
	nSents   int
}

func newCorpus(src grounding.Sources, lg string) *corpus {
	c := &corpus{lang: lg}
	for i, p := range src.Passages {
		pl := p.Lang
		if pl == "" {
			pl = lg
		}
		ps := passage{p: p, n: i + 1, title: termSet(p.Title, pl), lg: pl}
		for li, line := range strings.Split(p.Text, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			if sameText(line, p.Title) {
				continue // a Q&A's question or a product's name heading its chunk
			}
			if kb.IsFactLine(line) {
				s := sentence{text: line, line: li, quotable: true, fact: factKind(line)}
				s.terms = termSet(line, pl)
				for t := range factTerms(s.fact, pl) {
					s.terms[t] = true
				}
				ps.sents = append(ps.sents, s)
				continue
			}
			line = listMarker.ReplaceAllString(line, "")
			for _, t := range engine.SplitLine(line, pl) {
				ps.sents = append(ps.sents, sentence{text: t, line: li, terms: termSet(t, pl), quotable: quotable(t)})
			}
		}
		c.nSents += len(ps.sents)
		c.passages = append(c.passages, ps)
	}
	return c
}

// factKind tells a product chunk's price line from its category line.
func factKind(line string) string {
	for _, l := range allLabels {
		if strings.HasPrefix(line, l.price+": ") {
			return "price"
		}
	}
	return "category"
}

// factTerms are the words a facts line answers to without containing them: a price line
// answers "how much does it cost", in the passage's language.
func factTerms(kind, lg string) map[string]bool {
	if kind != "price" {
		return nil
	}
	return conceptTerms("price", lg)
}

func termSet(text, lg string) map[string]bool {
	m := map[string]bool{}
	for _, t := range textindex.IndexTerms(text, lg) {
		m[t] = true
	}
	return m
}

func sameText(a, b string) bool {
	return b != "" && strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// listMarker is the bullet or number that starts a list item ("2. ", "- "): not part of
// the item's sentence when it is quoted alone.
var listMarker = regexp.MustCompile(`^(?:\d{1,2}[.)]|[-•*–])\s+`)

// quotable reports whether a sentence reads as a statement worth quoting: not a question,
// and with at least three words of letters (a table row of figures is not one).
func quotable(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "?") {
		return false
	}
	words := 0
	for _, w := range strings.Fields(s) {
		for _, r := range w {
			if unicode.IsLetter(r) {
				words++
				break
			}
		}
	}
	return words >= 3
}

// termMatch reports whether the query term q matches the indexed term t: exactly, as a
// prefix when q is one, or as a near match of stems (textindex.Extends), which also
// bridges a Turkish prefix stem and an English or German stem of the same name.
func termMatch(q textindex.Term, t string) bool {
	return bm25.Match(q.Text, q.Prefix, t) || textindex.Extends(q.Text, t, 5)
}

func hasTerm(set map[string]bool, q textindex.Term) bool {
	if set[q.Text] {
		return true
	}
	for t := range set {
		if termMatch(q, t) {
			return true
		}
	}
	return false
}

// query is a question, topic or field analyzed in the request's language, with each term
// weighted by how rare it is among the sentences of the sources (bm25.IDF, a sentence being
// a document).
type query struct {
	terms  []textindex.Term
	w      []float64
	df     []int  // sentences of the sources holding the term (1 for a title-only term)
	inSent []bool // whether any sentence holds the term
	total  float64
	// cue, when set, tells a sentence that holds the kind of value the question asks for.
	cue func(string) bool
}

func (c *corpus) query(text string) *query {
	q := &query{terms: textindex.QueryTerms(text, c.lang)}
	n := float64(c.nSents)
	for _, t := range q.terms {
		df, inTitle := 0, false
		for _, p := range c.passages {
			for _, s := range p.sents {
				if hasTerm(s.terms, t) {
					df++
				}
			}
			inTitle = inTitle || hasTerm(p.title, t)
		}
		q.inSent = append(q.inSent, df > 0)
		if df == 0 && inTitle {
			df = 1 // a title word is not missing from the sources
		}
		w := bm25.IDF(n, float64(df))
		q.w = append(q.w, w)
		q.df = append(q.df, df)
		q.total += w
	}
	return q
}

// dropMissing removes the terms no sentence of the sources holds, unless none would remain.
// It is for a question whose question words say what kind of answer it wants ("wie
// lange", "kaç taksit yapabiliyorsunuz"): the analyzer keeps some of those words, and the
// sentences retrieved for the question do not contain them.
func (q *query) dropMissing() {
	keep := &query{}
	for i, t := range q.terms {
		if q.inSent[i] {
			keep.terms = append(keep.terms, t)
			keep.w = append(keep.w, q.w[i])
			keep.df = append(keep.df, q.df[i])
			keep.inSent = append(keep.inSent, true)
			keep.total += q.w[i]
		}
	}
	if len(keep.terms) > 0 && len(keep.terms) < len(q.terms) {
		keep.cue = q.cue
		*q = *keep
	}
}

// cueBonus is what a sentence holding the kind of value asked for adds to its score.
const cueBonus = 0.1

// sentScore is a sentence's score for q under its passage's title.
func (q *query) sentScore(p *passage, s sentence) float64 {
	sc := q.cover(s.terms, p.title)
	if sc > 0 && q.cue != nil && q.cue(s.text) {
		sc += cueBonus
	}
	return sc
}

func (q *query) empty() bool { return q == nil || q.total == 0 }

// cover is the share of the query's weight found in terms, plus half the weight of the
// terms found only in ctx (the passage title, which a sentence under it is about).
func (q *query) cover(terms, ctx map[string]bool) float64 {
	if q.empty() {
		return 0
	}
	sum := 0.0
	for i, t := range q.terms {
		switch {
		case hasTerm(terms, t):
			sum += q.w[i]
		case ctx != nil && hasTerm(ctx, t):
			sum += q.w[i] / 2
		}
	}
	return sum / q.total
}

// matched counts the query terms found in terms or ctx.
func (q *query) matched(terms, ctx map[string]bool) int {
	n := 0
	for _, t := range q.terms {
		if hasTerm(terms, t) || ctx != nil && hasTerm(ctx, t) {
			n++
		}
	}
	return n
}

// passageCover is the share of the query's weight found anywhere in a passage.
func (q *query) passageCover(p *passage) float64 {
	all := map[string]bool{}
	for t := range p.title {
		all[t] = true
	}
	for _, s := range p.sents {
		for t := range s.terms {
			all[t] = true
		}
	}
	return q.cover(all, nil)
}

// scored is a sentence of a passage with its score for a query.
type scored struct {
	pi, si int
	score  float64
}

// rankPassages orders the passages by how much of q they hold and how well their best
// sentence answers it, with a small bonus for the request's language and for curated
// answers. It returns the passages with any match, best first, and their scores.
func (c *corpus) rankPassages(q *query) []scored {
	var out []scored
	for pi := range c.passages {
		p := &c.passages[pi]
		pc := q.passageCover(p)
		if pc == 0 {
			continue
		}
		best, bi := 0.0, -1
		for si, s := range p.sents {
			if !s.quotable {
				continue
			}
			if sc := q.sentScore(p, s); sc > best {
				best, bi = sc, si
			}
		}
		if bi < 0 {
			continue
		}
		score := 0.5*pc + 0.5*best
		if p.p.Lang == c.lang {
			score += 0.05
		}
		if p.p.Type == store.DocQA {
			score += 0.02
		}
		out = append(out, scored{pi: pi, si: bi, score: score})
	}
	sortScored(out)
	return out
}

// sortScored sorts best first; ties keep source order.
func sortScored(s []scored) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].score > s[j-1].score; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// quote is the sentence as it is shown: clipped when very long, and a product's facts line
// prefixed with the product's name, so that "Price: $129.00" says of what.
func (c *corpus) quote(pi, si int) string {
	p := &c.passages[pi]
	s := p.sents[si]
	text := engine.Clip(s.text, maxQuote)
	if s.fact != "" && p.p.Title != "" {
		text = p.p.Title + " — " + text
	}
	return text
}

// source is the Source of passage pi with a quote.
func (c *corpus) source(pi int, quote string) Source {
	p := c.passages[pi].p
	return Source{Title: p.Title, URL: p.URL, Type: p.Type, Quote: quote, Passage: c.passages[pi].n}
}

// similar reports whether two sentences say nearly the same (most of their terms shared, or
// nearly all of the shorter one's), which happens when a Q&A repeats a page.
func similar(a, b map[string]bool) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	shared := 0
	for t := range a {
		if b[t] {
			shared++
		}
	}
	union := len(a) + len(b) - shared
	smaller := min(len(a), len(b))
	return float64(shared)/float64(union) >= 0.6 || smaller >= 3 && float64(shared)/float64(smaller) >= 0.8
}
