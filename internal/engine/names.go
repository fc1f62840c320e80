package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/variant"
)

// NameGuard keeps a Sales Mode reply honest: the text may name only products that are among
// its cards. A sentence naming another product either brings that product in as a card,
// when it is one of Addable and room remains, or is removed. Names are found on analyzed
// terms, so case, Turkish suffixes after an apostrophe and folding do not hide them.
type NameGuard struct {
	Lang    string // the reply's language; names and text are analyzed in it
	Max     int    // the most cards the reply may carry
	Addable []Card // products relevant to the question, best first: they may join the cards
	Others  []Card // products seen but not relevant: a sentence naming one is removed
}

// Apply checks text sentence by sentence against cards and returns the text that remains
// and the cards, with any product added at the end. A text that loses no sentence comes
// back as it was; otherwise line breaks between kept sentences are kept and a line left
// empty is dropped.
func (g NameGuard) Apply(text string, cards []Card) (string, []Card) {
	cards = append([]Card(nil), cards...)
	addable := append([]Card(nil), g.Addable...)
	dropped := false
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		var kept []string
		for _, s := range SplitLine(line, g.Lang) {
			m := newMentions(s, g.Lang)
			need := m.uncovered(cards, addable, g.Others)
			if len(need) == 0 && !m.slips(s, cards) {
				kept = append(kept, s)
				continue
			}
			if len(need) == 0 {
				// The sentence names another variant of a carded product ("Nova 12 Pro" in a
				// reply carded with the Lite): a relevant product it fits may join the cards.
				need = m.fitting(s, addable)
			}
			// The addable products named join the cards when then nothing is left uncovered:
			// the Turkish name of a product added in English is covered by it.
			if add := onlyIn(need, addable); len(add) > 0 && len(cards)+len(add) <= g.Max {
				trial := append(slices.Clip(cards), add...)
				if len(m.uncovered(trial, addable, g.Others)) == 0 && !m.slips(s, trial) {
					cards = trial
					addable = without(addable, add)
					kept = append(kept, s)
					continue
				}
			}
			dropped = true
		}
		if len(kept) > 0 {
			lines = append(lines, strings.Join(kept, " "))
		}
	}
	if !dropped {
		return text, cards
	}
	return strings.Join(lines, "\n"), cards
}

// onlyIn returns the products of need that are in list.
func onlyIn(need, list []Card) []Card {
	var out []Card
	for _, n := range need {
		if hasDoc(list, n.DocID) {
			out = append(out, n)
		}
	}
	return out
}

func without(cards, drop []Card) []Card {
	var out []Card
	for _, c := range cards {
		if !hasDoc(drop, c.DocID) {
			out = append(out, c)
		}
	}
	return out
}

func hasDoc(cards []Card, docID int64) bool {
	for _, c := range cards {
		if c.DocID == docID {
			return true
		}
	}
	return false
}

// mentions is one sentence analyzed for product names: its terms in order and the terms of
// its capitalised words.
type mentions struct {
	terms []string
	caps  map[string]bool
	lang  string
}

func newMentions(sentence, lang string) mentions {
	m := mentions{terms: textindex.IndexTerms(sentence, lang), caps: make(map[string]bool), lang: lang}
	for _, w := range rawWords(sentence) {
		if unicode.IsUpper([]rune(w)[0]) {
			for _, t := range textindex.IndexTerms(w, lang) {
				m.caps[t] = true
			}
		}
	}
	return m
}

// span is a run of the sentence's terms, [start, end).
type span struct{ start, end int }

// spans returns where the sentence names the product: its whole name; the first two terms
// of a longer name ("Kaçkar Pro" for "Kaçkar Pro Trekking Boot"); or, written with a capital,
// the first term of a name of two or more terms when it is a word of its own (not a number,
// at least four letters, not the category: "Kaçkar", not "Zelt" of "Zelt Classic").
func (m mentions) spans(c Card) []span {
	name := textindex.IndexTerms(c.Product.Name, m.lang)
	if len(name) == 0 {
		return nil
	}
	key := ""
	if len(name) >= 2 && len(name[0]) >= 4 && !isDigits(name[0]) {
		key = name[0]
		for _, t := range textindex.IndexTerms(c.Product.Category, m.lang) {
			if t == key {
				key = ""
			}
		}
	}
	var out []span
	for j := range m.terms {
		switch {
		case runAt(m.terms, j, name):
			out = append(out, span{j, j + len(name)})
		case len(name) >= 3 && runAt(m.terms, j, name[:2]):
			out = append(out, span{j, j + 2})
		case key != "" && m.terms[j] == key && m.caps[key]:
			out = append(out, span{j, j + 1})
		}
	}
	return out
}

func runAt(terms []string, j int, run []string) bool {
	if j+len(run) > len(terms) {
		return false
	}
	for i, t := range run {
		if terms[j+i] != t {
			return false
		}
	}
	return true
}

// uncovered returns the products of the lists that the sentence names where no card's name
// stands: a card covers a mention that lies within one of its own, so the English name of a
// product does not count against its Turkish card when both start "Kaçkar Pro".
func (m mentions) uncovered(cards []Card, lists ...[]Card) []Card {
	var covered []span
	for _, c := range cards {
		covered = append(covered, m.spans(c)...)
	}
	var out []Card
	for _, list := range lists {
		for _, p := range list {
			if hasDoc(cards, p.DocID) || hasDoc(out, p.DocID) {
				continue
			}
			for _, s := range m.spans(p) {
				if !within(s, covered) {
					out = append(out, p)
					break
				}
			}
		}
	}
	return out
}

// slips reports whether the sentence names carded products only by the part of their names
// that siblings share and writes a variant token that none of them has: "Nova 12 Pro" is
// within the span "Nova 12" of the card "Nova 12 Lite", and is another product
// (variant.Conflicts).
func (m mentions) slips(sentence string, cards []Card) bool {
	named := false
	for _, c := range cards {
		if len(m.spans(c)) == 0 {
			continue
		}
		named = true
		if !variant.Conflicts(sentence, c.Product.Name) {
			return false
		}
	}
	return named
}

// fitting returns the products of list that the sentence names and whose variant it fits.
func (m mentions) fitting(sentence string, list []Card) []Card {
	var out []Card
	for _, c := range list {
		if len(m.spans(c)) > 0 && !variant.Conflicts(sentence, c.Product.Name) {
			out = append(out, c)
		}
	}
	return out
}

func within(s span, covered []span) bool {
	for _, c := range covered {
		if c.start <= s.start && s.end <= c.end {
			return true
		}
	}
	return false
}

// NamesProduct reports whether a question names the product strongly: at least strongName
// of its analyzed terms are in the product's name or category, and no variant token of the
// question contradicts the name ("Nova 12 Lite" does not name "Nova 12 Pro"). It stands in for the ranking
// evidence where there is none, as for an answer served from the cache.
func NamesProduct(question, lang string, p store.Product) bool {
	qt := textindex.QueryTerms(question, lang)
	if len(qt) == 0 || variant.Conflicts(question, p.Name) {
		return false
	}
	name := textindex.IndexTerms(strings.TrimSpace(p.Name+" "+p.Category), lang)
	n := 0
	for _, q := range qt {
		for _, t := range name {
			if matchTerm(q, t) {
				n++
				break
			}
		}
	}
	return float64(n)/float64(len(qt)) >= strongName
}

// maxNameTerms caps the terms of a text searched for the products it may name; the names
// stand early in what the engine writes, and a curated answer is short.
const maxNameTerms = 32

// ProductsIn returns the account's products that a text may name: the product documents
// sharing terms with it, each once, in the store's order. The guard needs them because a
// sentence of a page can name a product that no passage of the question brought up.
func ProductsIn(ctx context.Context, kb Searcher, accountID int64, text, lang string) ([]Card, error) {
	qt := textindex.QueryTerms(text, lang)
	if len(qt) > maxNameTerms {
		qt = qt[:maxNameTerms]
	}
	if len(qt) == 0 {
		return nil, nil
	}
	hits, err := kb.SearchChunks(ctx, accountID, store.SearchQuery{Terms: searchTerms(qt),
		Types: []string{store.DocProduct}, Limit: 4 * maxProductHits})
	if err != nil {
		return nil, fmt.Errorf("engine: products named in text: %w", err)
	}
	var out []Card
	for _, h := range hits {
		if h.Product != nil && !hasDoc(out, h.DocID) {
			out = append(out, hitCard(h))
		}
	}
	return out, nil
}

// maxProductHits is the product count ProductsIn is sized for: about the cards of a reply.
const maxProductHits = 8
