package engine

import (
	"strings"
	"unicode/utf8"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Documentation sites hold their questions and answers as pages with a question for each
// section heading ("How big is the Monero blockchain?", "Nasıl Monero alabilirim?"): an FAQ
// entry. A visitor who asks that question in other words answers it best with the entry's
// own text, though a guide may repeat the question's rarer words more often ("blockchain"
// on every line of an import guide). And a page's table of contents lists its headings, so
// it holds the question's words without answering anything.

// entryMatch is how much of the question a section heading written as a question holds: the
// question's words it holds (near matches at soft), those of the question phrase and light
// words included ("how big is the blockchain now?": big, blockchain), over the number of
// the question's search terms (n: the words less the question phrase), at most 1. A
// question phrase the heading repeats counts, one it words otherwise ("woran liegt das?"
// against "Warum …?") costs nothing. 0 when the heading is no question.
func entryMatch(words []textindex.Term, n int, heading, lang string, soft float64) float64 {
	h := strings.TrimSpace(lastHeading(heading))
	if len(words) == 0 || n == 0 || !strings.HasSuffix(h, "?") {
		return 0
	}
	have := textindex.IndexTerms(h, lang)
	held := 0.0
	for _, w := range words {
		best := 0.0
		for _, t := range have {
			switch {
			case matchTerm(w, t):
				best = 1
			case soft > best && softMatch(w, t, lang):
				best = soft
			}
		}
		held += best
	}
	return min(held/float64(n), 1)
}

// entryAnswers is the least entryMatch with which a heading counts as the question's own
// (Ranking.Entry), and the best chunk, an FAQ entry, is quoted from its own section only.
const entryAnswers = 0.5

// contentsLike reports a chunk that lists the questions a page answers: three or more short
// lines, none of them a sentence (ending in ".", "!" or ":", but for a lead on the first) or
// holding a digit, two or more of them questions. A page's table of contents is such a
// chunk; it holds the words of the questions its sections answer, not their answers. A list
// of things ("We accept:" / "Credit card" / "PayPal" / "Invoice") is an answer and no
// contents, and so are opening hours and prices.
func contentsLike(h *store.ChunkHit) bool {
	if h.Product != nil || h.DocType == store.DocQA {
		return false
	}
	lines := strings.Split(strings.TrimSpace(h.Text), "\n")
	if len(lines) < 3 {
		return false
	}
	questions := 0
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i == 0 && strings.HasSuffix(l, ":") {
			continue // the list's lead ("Table of contents:")
		}
		if l == "" || utf8.RuneCountInString(l) > 100 || strings.ContainsAny(l, "0123456789") ||
			strings.HasSuffix(l, ".") || strings.HasSuffix(l, "!") || strings.HasSuffix(l, ":") {
			return false
		}
		if strings.HasSuffix(l, "?") {
			questions++
		}
	}
	return questions >= 2
}

// titleDefines is the share of the question's weight that a page's title holds when every
// term of the title is a question term (a full match): a glossary entry "View-key" defines
// what "Wofür braucht man den View-Key?" asks about, where a guide whose heading also
// names the view key is about creating a wallet with it. 0 otherwise.
func (q *query) titleDefines(title, lang string) float64 {
	if q.total == 0 {
		return 0
	}
	terms := textindex.IndexTerms(title, lang)
	if len(terms) == 0 {
		return 0
	}
	held := make([]bool, len(q.terms))
	for _, t := range terms {
		m, s := q.firstMatch(t, 0)
		if m < 0 || s < 1 {
			return 0
		}
		held[m] = true
	}
	w := 0.0
	for i, h := range held {
		if h {
			w += q.idf[i]
		}
	}
	return w / q.total
}
