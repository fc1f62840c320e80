package engine

import (
	"strings"
	"unicode"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
	"svc/internal/textindex"
)

// A list as an answer. "Do you accept PayPal?" asks whether one thing is among a set, and a
// KB that never names PayPal answers it all the same when it lists the set: "We accept credit
// and debit cards, bank transfer, cash on delivery and invoice." The visitor's word is one the
// KB never uses, and so it weighs most of the question, but the quoted sentence holds the rest
// of the question and lists, where that word would stand, what there is instead. Such a word
// counts as met by the list, as a near match (listedInstead).

// minListItems is the fewest items a sentence lists for it to answer by its list: two are a
// pair ("cards and cash"), three a choice the visitor's word would be one more of.
const minListItems = 3

// maxItemWords is the most words an item inside a list has; a longer run between commas is
// a clause.
const maxItemWords = 6

// listedInstead returns the index of the question's one unseen term that a quoted sentence
// answers by a list (see above), and that sentence; -1 when none does. The question must ask
// yes or no (isYesNo: a list answers "is it among them?", not "what is it?"),
// and have exactly one content term that no chunk of the account holds and at least one that
// the sentence holds; the sentence must hold every content term the KB holds and list
// minListItems items beside a word next to the unseen one (listBeside).
func listedInstead(r *retrieval, ex extract) (int, sentence) {
	q := &r.q
	if q.kind != askOther || !isYesNo(textindex.Words(r.question, q.lang), q.lang) {
		return -1, sentence{} // "what are cilia used for?" is not answered by what a list omits
	}
	unseen := -1
	seen := 0
	for i, t := range q.terms {
		if i < len(q.light) && q.light[i] {
			continue
		}
		if r.docFreq[t.Text] > 0 {
			seen++
			continue
		}
		if unseen >= 0 {
			return -1, sentence{} // two subjects the KB lacks: no list of one answers both
		}
		unseen = i
	}
	if unseen < 0 || seen == 0 || ex.text == "" {
		return -1, sentence{}
	}
	next := neighbours(q, r.question, unseen)
	if len(next) == 0 {
		return -1, sentence{}
	}
	for _, ci := range ex.read {
		lang := r.ranked[ci].lang(q)
		for _, s := range r.ranked[ci].sents {
			if s.quote && strings.Contains(ex.text, s.text) && holdsSeen(q, s, r.docFreq) &&
				listBeside(q, listRuns(s.text), next, lang) {
				return unseen, s
			}
		}
	}
	return -1, sentence{}
}

// neighbours returns the question terms written right before and right after the term at
// unseen, light words skipped: the words the list must stand beside ("accept" of "accept
// PayPal", "zahlen" of "mit PayPal zahlen").
func neighbours(q *query, question string, unseen int) []int {
	var seq []int // the content terms of the question in its order
	for _, w := range textindex.IndexTerms(question, q.lang) {
		for i, t := range q.terms {
			if matchTerm(t, w) && (i >= len(q.light) || !q.light[i]) {
				seq = append(seq, i)
				break
			}
		}
	}
	var out []int
	for p, i := range seq {
		if i != unseen {
			continue
		}
		if p > 0 && seq[p-1] != unseen {
			out = append(out, seq[p-1])
		}
		if p+1 < len(seq) && seq[p+1] != unseen {
			out = append(out, seq[p+1])
		}
	}
	return out
}

// listBeside reports whether runs (a sentence split at its commas, see listRuns) make a list
// of minListItems items with a term of next right beside it: in the first run with at most
// maxItemWords terms after it (the first item), or in the last run with at most
// maxItemWords terms before it (the last item). "We accept credit and debit cards, bank
// transfer, …" lists what "accept" takes, where the visitor's "accept PayPal" had its word.
func listBeside(q *query, runs []string, next []int, lang string) bool {
	if listItems(runs, lang) < minListItems {
		return false
	}
	first := textindex.IndexTerms(runs[0], lang)
	last := textindex.IndexTerms(runs[len(runs)-1], lang)
	for _, n := range next {
		for k := len(first) - 1; k >= 0 && len(first)-1-k <= maxItemWords; k-- {
			if m, _ := q.firstMatch(first[k], 0); m == n {
				return true
			}
		}
		for k := 0; k < len(last) && k <= maxItemWords; k++ {
			if m, _ := q.firstMatch(last[k], 0); m == n {
				return true
			}
		}
	}
	return false
}

// holdsSeen reports whether the sentence matches every content term of q that the KB holds.
func holdsSeen(q *query, s sentence, docFreq map[string]int) bool {
	met := make([]bool, len(q.terms))
	for _, m := range s.seq {
		if m >= 0 {
			met[m] = true
		}
	}
	for i, t := range q.terms {
		if (i >= len(q.light) || !q.light[i]) && docFreq[t.Text] > 0 && !met[i] {
			return false
		}
	}
	return true
}

// listItems counts the items of the list that runs (a sentence split at its commas) make:
// 0 when they make none. A list joins its last item with a conjunction ("A, B and C", "A, B,
// and C", "A, B oder C", "A, B ve C"), which the last run must hold, and every run between
// two commas is an item of at most maxItemWords words; a sentence whose commas set off a
// clause or an apposition ("Some scholars, such as Garrison, hold that …") lists nothing.
func listItems(runs []string, lang string) int {
	if len(runs) < 2 {
		return 0
	}
	for _, run := range runs[1 : len(runs)-1] {
		if n := len(strings.FieldsFunc(run, unicode.IsSpace)); n == 0 || n > maxItemWords {
			return 0
		}
	}
	words := textindex.Words(runs[len(runs)-1], lang)
	for i, w := range words {
		if conjunctions[lang][w] {
			if i == 0 {
				return len(runs) // "…, and C": the comma before the conjunction
			}
			return len(runs) + 1
		}
	}
	return 0
}

// conjunctions are the lexicon's conjunctions per language, folded; read-only.
var conjunctions = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool)
	for _, lang := range lexdata.Languages() {
		out[lang] = make(map[string]bool)
		for _, w := range lexdata.Default().Entries(lexdata.Conjunctions, lang) {
			for _, f := range textindex.Words(w, lang) {
				out[lang][f] = true
			}
		}
	}
	return out
}()

// listRuns splits a sentence at its commas; a comma between digits ("9,90 €") is no
// separator.
func listRuns(s string) []string {
	var runs []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ',' || i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
			continue
		}
		runs = append(runs, s[start:i])
		start = i + 1
	}
	return append(runs, s[start:])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
