package engine

import (
	"svc/internal/store"
	"svc/internal/textindex"
)

// productNameMatch is, per term of q, the strength of its match in the product's name and
// category (nameTerms), with the words of the question that stand in a name word's place
// counted as the name's (nameSlots): the visitor who asks for "the Kaçkar Pro hiking boot"
// names the "Kaçkar Pro Trekking Boot", in a word of their own for the one they did not
// remember.
func productNameMatch(q *query, question string, h store.ChunkHit, soft float64) []float64 {
	_, held := q.termFreqs(nameTerms(h, q.lang), soft)
	if h.Product != nil {
		nameSlots(q, question, textindex.IndexTerms(h.Product.Name, hitLang(h, q.lang)), held)
	}
	return held
}

// nameSlots marks in held (per term of q, its strength in the product's name) the question
// words that fill a gap of the name: between two name words the question writes in the
// name's order, as many words or fewer than the name has there, none of which the question
// writes. Such a word is the visitor's for a word of the name ("hiking" for "Trekking",
// "yürüyüş" for "Trekking"), and names the product as much as the word it replaces: it is
// no subject of its own that a page could hold better than the product ("Caring for your
// hiking boots" for the boot's price). A word after the name's last or before its first
// matched word is left alone: "a Kaçkar Pro for winter" asks about winter. name is the
// product name's index terms in order.
func nameSlots(q *query, question string, name []string, held []float64) {
	if len(name) < 3 || len(q.terms) == 0 {
		return
	}
	words := textindex.IndexTerms(question, q.lang)
	// Per question word: the query term it is and the name word it matches (-1 for none).
	term := make([]int, len(words))
	at := make([]int, len(words))
	inName := make([]bool, len(name))
	for p, w := range words {
		term[p], at[p] = -1, -1
		for i, t := range q.terms {
			if matchTerm(t, w) {
				term[p] = i
				break
			}
		}
		for k, n := range name {
			if w == n || term[p] >= 0 && matchTerm(q.terms[term[p]], n) {
				at[p] = k
				inName[k] = true
				break
			}
		}
	}
	prev := -1 // the last question word that matched the name
	for p := range words {
		if at[p] < 0 {
			continue
		}
		if prev >= 0 {
			fillGap(words, term, at, inName, prev, p, held)
		}
		prev = p
	}
}

// fillGap gives the question words strictly between positions a and b (both matching the
// name, in its order) the name's strength, when the name's words between theirs are as many
// or more and the question writes none of them.
func fillGap(words []string, term, at []int, inName []bool, a, b int, held []float64) {
	ka, kb := at[a], at[b]
	gapQ, gapN := b-a-1, kb-ka-1
	if gapQ < 1 || gapN < gapQ {
		return
	}
	for k := ka + 1; k < kb; k++ {
		if inName[k] {
			return
		}
	}
	for p := a + 1; p < b; p++ {
		if i := term[p]; i >= 0 && held[i] < 1 && !isDigits(words[p]) {
			held[i] = 1
		}
	}
}
