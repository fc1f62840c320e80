package engine

import (
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
)

// query is an analyzed question with the weight of each of its terms in the account's corpus.
type query struct {
	lang  string
	kind  qtype
	terms []textindex.Term
	idf   []float64
	total float64 // sum of idf: the most weight a passage can match
	// gateTotal is the weight the confidence check measures coverage against: total, less
	// the part of each unseen German non-noun that a weak word would not have (see
	// lowerCaseTerms).
	gateTotal float64
	// gateIdf is each term's part of gateTotal.
	gateIdf []float64
	// light marks the weak terms (weakWords): a light verb or filler is no subject, so the
	// answerability features never count it as one the passage or the KB lacks.
	light []bool
	// alts holds, per term, the index terms that stand in for it (see alternates); nil or
	// shorter than terms when there are none.
	alts [][]alternate
	// words are all the question's terms, those of its question phrase and light words
	// included, for matching an FAQ entry's heading (see entryMatch).
	words []textindex.Term
	// raw are the question's words lower-cased, which a cue must not merely repeat (hasCue).
	raw map[string]bool
	// nouns marks, per term of a German question, the words it writes as nouns
	// (questionNouns); nil in other languages and for a question without one.
	nouns []bool
}

// newQuery weighs the question's terms by BM25's inverse document frequency over the
// account's own chunks. A term no chunk contains gets the highest weight, so that a question
// about something the KB never mentions cannot be mostly covered by its generic words; a
// weak term (see weakWords) gets the share weak of its weight. For the confidence check only,
// so does a German word written in lower case that no chunk contains: a verb or adjective
// ("sang", "gezählt") that the KB words differently is no sign of a subject it lacks, as an
// unknown noun is; ranking is left alone, where such a term matches nothing anyway.
func newQuery(lang string, qa question, st store.TermStats, weak float64) query {
	q := query{lang: lang, kind: qa.kind, terms: qa.terms, idf: make([]float64, len(qa.terms)),
		gateIdf: make([]float64, len(qa.terms)), light: qa.weak}
	n := float64(st.Chunks)
	for i, t := range qa.terms {
		df := st.DocFreq[t.Text]
		q.idf[i] = bm25.IDF(n, float64(df))
		if qa.weak[i] {
			q.idf[i] *= weak
		}
		q.total += q.idf[i]
		q.gateIdf[i] = q.idf[i]
		if df == 0 && !qa.weak[i] && qa.lower != nil && qa.lower[i] {
			q.gateIdf[i] -= (1 - weak) * q.idf[i]
		}
		q.gateTotal += q.gateIdf[i]
	}
	return q
}

func searchTerms(terms []textindex.Term) []store.SearchTerm {
	out := make([]store.SearchTerm, len(terms))
	for i, t := range terms {
		out[i] = store.SearchTerm{Text: t.Text, Prefix: t.Prefix}
	}
	return out
}

// matchTerm reports whether the index term t is matched by the query term q: equal, or, for a
// prefix term, starting with it (bm25.Match, the rule the stores search by).
func matchTerm(q textindex.Term, t string) bool { return bm25.Match(q.Text, q.Prefix, t) }

// firstMatch returns the index of the first query term that t matches and the strength of
// the match: 1 for a match as the index would make it, soft for a near match (see
// softMatch), or -1 and 0 for none.
func (q *query) firstMatch(t string, soft float64) (int, float64) {
	for i, qt := range q.terms {
		if matchTerm(qt, t) {
			return i, 1
		}
	}
	for i, alts := range q.alts {
		for _, a := range alts {
			if matchTerm(a.term, t) {
				return i, a.strength
			}
		}
	}
	if soft > 0 {
		for i, qt := range q.terms {
			if softMatch(qt, t, q.lang) {
				return i, soft
			}
		}
	}
	return -1, 0
}

// softMinLen is the shortest stem that takes part in a near match.
const softMinLen = 5

// softMatch reports a near match between the query term q and the index term t that the
// index does not make: one stem extends the other ("finanzi" from "finanzieren" and
// "finanziert" from "finanzierte"; "constitut" and "constitutional" in another stemming),
// or, in German, one ends with the other ("demonstr" in "funkdemonstr"), which catches the
// compounds the analyzer cannot split. Turkish terms are already cut to a prefix, and
// Turkish prefix terms already match this way; theirs is the voicing of a final consonant
// (see softened).
func softMatch(q textindex.Term, t, lang string) bool {
	if lang == "tr" {
		return softened(q, t)
	}
	if q.Prefix || q.Text == t {
		return false
	}
	if textindex.Extends(q.Text, t, softMinLen) {
		return true
	}
	short, long := q.Text, t
	if len(short) > len(long) {
		short, long = long, short
	}
	return lang == "de" && len(short) > softMinLen && strings.HasSuffix(long, short)
}

// softened reports a near match of Turkish terms that differ only in the final consonant of
// the query term, voiced before a vowel ending: "kitap" and "kitabı" (indexed "kitab"),
// "renk" and "rengi", "çocuk" and "çocuğu", "kanat" and "kanadı". A fixed-length prefix
// keeps most of a Turkish word's forms together, but not these, since the stem itself
// changes; the softening goes both ways, as a question and a page may use either form. So
// is a query term that starts with an index term of four letters, which the index keeps
// whole because the word is shorter than its prefix: "Kalesi'nin" (kales) and "kale",
// "Türkü" and "türk" (+2 answers on half A of the XQuAD dev articles, half B unchanged;
// three-letter words added nothing and cost top-1, and any two prefixes sharing four letters
// cost 0.9 points on half B). And so is the passive of a stem ending in a vowel, whose "n" or
// "l" takes the fifth letter ("korunur", indexed "korun", and "korur"): XQuAD unchanged on
// both halves, a Monero FAQ question answered.
func softened(q textindex.Term, t string) bool {
	n := len(q.Text)
	if n < 3 || q.Text == t {
		return false
	}
	if len(t) >= 4 && len(t) < trIndexed && n > len(t) && strings.HasPrefix(q.Text, t) {
		return true
	}
	if len(t) < n {
		return false
	}
	if n == trIndexed && q.Text[:4] == t[:4] && strings.ContainsRune("aeiou", rune(q.Text[3])) &&
		(q.Text[4] == 'n' || q.Text[4] == 'l') {
		return true // a passive after a vowel: korunur (korun) and korur, yıkanır and yıkar
	}
	// Compared in place: this runs for every index term of every candidate chunk, and
	// building the voiced form as a string each time was a tenth of a Turkish answer's CPU.
	alt := voiced(q.Text[n-1])
	if alt == 0 || t[n-1] != alt || t[:n-1] != q.Text[:n-1] {
		return false
	}
	return q.Prefix || len(t) == n
}

// trIndexed is how many letters of a Turkish word the index keeps (textindex's prefix
// length): an index term shorter than it is a whole word.
const trIndexed = 5

// voiced pairs the consonants that Turkish voices or unvoices at the end of a stem, in
// ASCII-folded terms ("ğ" is "g"); 0 for any other letter.
func voiced(c byte) byte {
	switch c {
	case 'p':
		return 'b'
	case 'b':
		return 'p'
	case 't':
		return 'd'
	case 'd':
		return 't'
	case 'k':
		return 'g'
	case 'g':
		return 'k'
	}
	return 0
}

// seqWeight sums the idf of the query terms matched in a sentence, each counted once at the
// strength of its best match; floor, when not nil, is a least strength per query term.
func (q *query) seqWeight(seq []int, strength, floor []float64) float64 {
	return weighMatches(seq, strength, floor, q.idf)
}

// weighMatches sums weight[i] for every query term i matched in seq, each counted once at the
// strength of its best match or at floor[i] (when floor is not nil), whichever is more.
func weighMatches(seq []int, strength, floor, weight []float64) float64 {
	best := make([]float64, len(weight))
	copy(best, floor)
	for j, m := range seq {
		if m >= 0 && strength[j] > best[m] {
			best[m] = strength[j]
		}
	}
	w := 0.0
	for i, b := range best {
		w += b * weight[i]
	}
	return w
}

// termFreqs counts, for each query term, the index terms it matches: a full match counts 1,
// a near match (softMatch) counts soft. strength is each query term's best match.
func (q *query) termFreqs(terms []string, soft float64) (tf, strength []float64) {
	tf = make([]float64, len(q.terms))
	strength = make([]float64, len(q.terms))
	for _, t := range terms {
		m, w := q.firstMatch(t, soft)
		if m < 0 {
			continue
		}
		tf[m] += w
		if w > strength[m] {
			strength[m] = w
		}
	}
	return tf, strength
}

// strengthWeight sums each query term's idf times the strength of its match.
func (q *query) strengthWeight(strength []float64) float64 {
	w := 0.0
	for i, s := range strength {
		w += s * q.idf[i]
	}
	return w
}

// bigramWeight sums, over pairs of query terms adjacent in the question, the mean weight of
// the pair when the pair also stands together (in either order, at most one term apart) in
// seq, the query-term matches of a passage's terms in text order (-1 = no match).
func (q *query) bigramWeight(seq []int) float64 {
	if len(q.terms) < 2 {
		return 0
	}
	found := make([]bool, len(q.terms)-1)
	for j, a := range seq {
		if a < 0 {
			continue
		}
		for d := 1; d <= 2 && j+d < len(seq); d++ {
			b := seq[j+d]
			switch {
			case b == a+1:
				found[a] = true
			case b == a-1 && b >= 0:
				found[b] = true
			}
		}
	}
	w := 0.0
	for i, ok := range found {
		if ok {
			w += (q.idf[i] + q.idf[i+1]) / 2
		}
	}
	return w
}
