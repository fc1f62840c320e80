package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
	"svc/internal/textindex"
)

// question is the analysis of a visitor's question before any retrieval.
type question struct {
	terms []textindex.Term
	kind  qtype
	weak  []bool // per term: a light word that says little about the subject
	lower []bool // per term: German, and only ever written in lower case (not a noun)
	// optional marks the terms that only count when the KB has them: the German compounds
	// of two adjacent question words (see joinedCompounds).
	optional []bool
	// byPrefix marks, in Turkish, the weak terms that are weak only by their prefix
	// (prefixOnlyWeak); nil elsewhere.
	byPrefix []bool
}

// analyzeQuestion analyzes the question in lang and reads its answer type. The content words
// of the question phrase ("long" in "how long", "Jahr" in "in welchem Jahr") are dropped from
// the terms: they say what kind of answer is wanted, and the answer ("2–4 business days",
// "1901") rarely repeats them. They are kept when nothing else is left.
func analyzeQuestion(text, lang string) question {
	terms := textindex.QueryTerms(text, lang)
	kind, phrase := questionPhrase(text, lang)
	q := question{terms: terms, kind: kind}
	if phrase != "" {
		drop := make(map[textindex.Term]bool)
		for _, t := range textindex.QueryTerms(phrase, lang) {
			drop[t] = true
		}
		kept := make([]textindex.Term, 0, len(terms))
		for _, t := range terms {
			if !drop[t] {
				kept = append(kept, t)
			}
		}
		if len(kept) > 0 {
			q.terms = kept
		}
	}
	if kind == askDuration {
		q.terms = withoutDurationNouns(q.terms, lang)
	}
	q.weak = make([]bool, len(q.terms))
	for i, t := range q.terms {
		q.weak[i] = weakTerms[lang][t.Text]
	}
	var predicates map[textindex.Term]bool
	if lang == "tr" {
		predicates = predicateWords(text)
		q.byPrefix = prefixOnlyWeak(text, q.terms, q.weak, predicates)
	}
	q.optional = make([]bool, len(q.terms))
	for _, t := range abbreviationTerms(text, lang, q.terms) {
		q.terms = append(q.terms, t)
		q.weak = append(q.weak, false)
		q.optional = append(q.optional, true)
	}
	if lang == "de" {
		for _, t := range joinedCompounds(text, q.terms) {
			q.terms = append(q.terms, t)
			q.weak = append(q.weak, false)
			q.optional = append(q.optional, true)
		}
		q.lower = lowerCaseTerms(text, q.terms)
	}
	if lang == "tr" {
		q.lower = markTerms(q.terms, predicates)
		q.byPrefix = append(q.byPrefix, make([]bool, len(q.terms)-len(q.byPrefix))...)
	}
	return q
}

// joinedCompounds returns the terms of the German compounds that two adjacent words of the
// question make ("Raten zahlen" → "ratenzahl", the stem of "Ratenzahlung"), where they are
// not terms already: a noun (capitalised, after the question's first word) and the word
// after it, both terms of the question. German writes as one word what a visitor often writes as two, and the
// analyzer cannot split a compound it has no linking suffix for; the compound term is
// searched as well, and kept when the KB has it (see keepSeen).
func joinedCompounds(text string, terms []textindex.Term) []textindex.Term {
	have := make(map[textindex.Term]bool, len(terms))
	for _, t := range terms {
		have[t] = true
	}
	kept := func(w string) bool {
		ts := textindex.QueryTerms(w, "de")
		return len(ts) == 1 && have[ts[0]]
	}
	var out []textindex.Term
	words := rawWords(text)
	for i := 1; i+1 < len(words); i++ {
		a, b := words[i], words[i+1]
		if r, _ := utf8.DecodeRuneInString(a); !unicode.IsUpper(r) || len([]rune(a)) < 3 || len([]rune(b)) < 3 ||
			!kept(a) || !kept(b) || strings.Contains(text, a+"-"+b) {
			continue // a hyphenated compound ("View-Key") is written apart on purpose
		}
		ts := textindex.QueryTerms(a+strings.ToLower(b), "de")
		if len(ts) == 1 && !have[ts[0]] {
			have[ts[0]] = true
			out = append(out, ts[0])
		}
	}
	return out
}

// keepSeen drops the optional terms that no chunk of the account holds: a compound the KB
// does not use would only add weight that nothing can match. It also unmarks the Turkish
// terms weak only by their prefix that no chunk holds (see prefixOnlyWeak). It returns how
// many terms are left.
func (q *question) keepSeen(docFreq map[string]int) int {
	keep := 0
	for i, t := range q.terms {
		if q.optional[i] && docFreq[t.Text] == 0 {
			continue
		}
		q.terms[keep], q.weak[keep], q.optional[keep] = t, q.weak[i], q.optional[i]
		if q.byPrefix != nil {
			if q.byPrefix[i] && docFreq[t.Text] == 0 {
				q.weak[keep] = false // a word the KB never uses that is no light verb
			}
			q.byPrefix[keep] = q.byPrefix[i]
		}
		if q.lower != nil {
			q.lower[keep] = q.lower[i]
		}
		keep++
	}
	q.terms, q.weak, q.optional = q.terms[:keep], q.weak[:keep], q.optional[:keep]
	if q.byPrefix != nil {
		q.byPrefix = q.byPrefix[:keep]
	}
	if q.lower != nil {
		q.lower = q.lower[:keep]
	}
	return keep
}

// lowerCaseTerms marks the terms that come only from words written in lower case after the
// first word of the German question. German capitalises every noun, so these are verbs,
// adjectives and adverbs ("sang", "hießen", "gezählt"), whose inflected and strong forms
// vary far more than nouns do: a KB that answers the question often uses another form. So
// is the first word, unless the question writes it with a capital elsewhere: a German
// question opens with its verb ("Habt ihr …", "Gibt es …") far more often than with a noun.
func lowerCaseTerms(text string, terms []textindex.Term) []bool {
	lower := make(map[textindex.Term]bool)
	upper := make(map[textindex.Term]bool)
	for i, w := range rawWords(text) {
		set := upper
		if r, _ := utf8.DecodeRuneInString(w); i == 0 || unicode.IsLower(r) {
			set = lower
		}
		for _, t := range textindex.QueryTerms(w, "de") {
			set[t] = true
		}
	}
	out := make([]bool, len(terms))
	for i, t := range terms {
		out[i] = lower[t] && !upper[t]
	}
	return out
}

// predicateWords returns the terms of the last content word of each clause of a Turkish
// question. Turkish puts the verb last ("Kargo kaç günde gelir?", "Taksit yapıyor musunuz?"),
// and like a German verb it varies in form far more than a noun, so an unseen one is no sign
// of a subject the KB lacks (see newQuery). Read once per question: prefixOnlyWeak and the
// question's lower-case marks (q.lower) both ask.
func predicateWords(text string) map[textindex.Term]bool {
	last := make(map[textindex.Term]bool)
	for _, clause := range clauseBreak.Split(text, -1) {
		words := rawWords(clause)
		for i := len(words) - 1; i >= 0; i-- {
			if ts := textindex.QueryTerms(words[i], "tr"); len(ts) > 0 {
				for _, t := range ts {
					last[t] = true
				}
				break
			}
		}
	}
	return last
}

// markTerms marks the terms that set holds.
func markTerms(terms []textindex.Term, set map[textindex.Term]bool) []bool {
	out := make([]bool, len(terms))
	for i, t := range terms {
		out[i] = set[t]
	}
	return out
}

// verbRoots returns, for each Turkish verb of text written in the ability form whose root is
// at least as long as the prefix the index keeps ("kiralayabilir miyim?": "kirala"), its
// term and the root's first four letters as a prefix term ("kira*"). A predicate's term is
// kept light when the KB lacks it, as a verb's forms vary (newQuery), but such a term is every
// form of the verb; when no word of the KB even starts like its root, the KB never uses the
// verb ("kiralamak", to rent), and it is the subject of the question (unusedVerbs). The four
// letters leave room for a root fused with a light verb: "kaydol-" (kayıt ol-) of
// "kaydolabilir" starts like the KB's "kaydedildi".
func verbRoots(lang, text string) map[textindex.Term]textindex.Term {
	if lang != "tr" {
		return nil
	}
	out := make(map[textindex.Term]textindex.Term)
	for _, w := range rawWords(text) {
		root, ok := textindex.AbilityRoot(w)
		if !ok || utf8.RuneCountInString(root) < trIndexed {
			continue
		}
		stem := textindex.Words(string([]rune(root)[:trIndexed-1]), "tr")
		for _, t := range textindex.QueryTerms(w, "tr") {
			if len(stem) == 1 {
				out[t] = textindex.Term{Text: stem[0], Prefix: true}
			}
		}
	}
	return out
}

// unusedVerbs unmarks as a predicate (q.lower) each term of roots (verbRoots) whose root no
// term of the KB starts with.
func (q *question) unusedVerbs(roots map[textindex.Term]textindex.Term, docFreq map[string]int) {
	if q.lower == nil {
		return
	}
	for i, t := range q.terms {
		if r, ok := roots[t]; ok && docFreq[t.Text] == 0 && docFreq[r.Text] == 0 {
			q.lower[i] = false
		}
	}
}

// durationNouns holds the analyzed terms of the lexicon's duration_nouns ("time", "Zeit",
// "süre"); read-only after initialization.
var durationNouns = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool)
	for _, lang := range lexdata.Languages() {
		out[lang] = make(map[string]bool)
		for _, w := range lexdata.Default().Entries(lexdata.DurationNouns, lang) {
			for _, t := range textindex.QueryTerms(w, lang) {
				out[lang][t.Text] = true
			}
		}
	}
	return out
}()

// withoutDurationNouns drops from the terms of a question that asks how long the nouns that
// only name a length of time ("Wie lange habe ich Zeit, …"): like the words of its question
// phrase, they say what kind of answer is wanted, and the answer ("30 Tage") gives it
// without them. They stay when nothing else is left.
func withoutDurationNouns(terms []textindex.Term, lang string) []textindex.Term {
	kept := make([]textindex.Term, 0, len(terms))
	for _, t := range terms {
		if !durationNouns[lang][t.Text] {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return terms
	}
	return kept
}

// weakWords are light verbs and fillers that visitors wrap their questions in ("how long does
// shipping take", "wie lange dauert die Lieferung", "iade nasıl yapılır"), and the nouns that
// only name a length of time ("iade süresi kaç gün", "the return period"), which the answer
// ("30 gün içinde") gives without the word; so are the verb of a definition question ("what
// does fungibility mean", "was bedeutet", "ne demek") and the words that only say "at
// present" ("how big is it now"), which a glossary or FAQ entry does not repeat. They are not stop
// words, since a page may be about them, but a KB rarely uses them, which would give them the
// highest weight and make a clear question look unanswered. Ranking and confidence count them
// at Ranking.Weak of their weight.
var weakWords = func() map[string]string {
	out := make(map[string]string)
	for _, lang := range lexdata.Languages() {
		out[lang] = strings.Join(lexdata.Default().Entries(lexdata.WeakQuestionWords, lang), " ")
	}
	return out
}()

// weakTerms holds the analyzed forms of weakWords, built once; it is read-only afterwards.
var weakTerms = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool, len(weakWords))
	for lang, list := range weakWords {
		set := make(map[string]bool)
		for _, t := range textindex.QueryTerms(list, lang) {
			set[t.Text] = true
		}
		out[lang] = set
	}
	return out
}()

// weakForms holds the folded words of weakWords, built once; read-only afterwards.
var weakForms = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool, len(weakWords))
	for lang, list := range weakWords {
		set := make(map[string]bool)
		for _, w := range textindex.Words(list, lang) {
			set[w] = true
		}
		out[lang] = set
	}
	return out
}()

// prefixOnlyWeak marks the weak Turkish terms that are weak only by their prefix. The index
// keeps five letters of a Turkish word, so a light verb's term is also the term of unrelated
// words: "öğrenci" (student) shares "ogren" with "öğrenmek" (to learn), "yapı" (building)
// with "yapmak". A term is weak by more than its prefix when the question writes it as a
// listed form ("süresi", "yapabilir") or as the last word of a clause, where Turkish puts its
// verb ("nasıl öğrenebilirim?"). keepSeen unmarks the others that the KB never holds:
// "Öğrenci indirimi var mı?" asks about students, a subject the KB lacks.
func prefixOnlyWeak(text string, terms []textindex.Term, weak []bool, predicates map[textindex.Term]bool) []bool {
	verb := markTerms(terms, predicates)
	listed := make(map[textindex.Term]bool)
	for _, w := range textindex.Words(text, "tr") {
		if weakForms["tr"][w] {
			for _, t := range textindex.QueryTerms(w, "tr") {
				listed[t] = true
			}
		}
	}
	out := make([]bool, len(terms))
	for i, t := range terms {
		out[i] = weak[i] && !verb[i] && !listed[t]
	}
	return out
}

// questionPhrase finds the question phrase of text and returns the answer type it asks for
// and the words of text that formed it, space separated ("" when there is none).
func questionPhrase(text, lang string) (qtype, string) {
	words := textindex.Words(text, lang)
	for _, p := range qtypePhrases[lang] {
		phrase := strings.Fields(p.phrase)
		if i := phraseAt(words, phrase); i >= 0 {
			return p.kind, strings.Join(words[i:i+len(phrase)], " ")
		}
	}
	return askOther, ""
}

// phraseAt is the lexicon's one phrase matcher (lexicon.PhraseAt).
func phraseAt(words, phrase []string) int { return lexdata.PhraseAt(words, phrase) }

// countryAbbreviations are the upper-case abbreviations of countries that the analyzer
// drops or cannot read ("US" is the pronoun "us" to it), with the words a page spells them
// out in, per language.
var countryAbbreviations = func() map[string]map[string]string {
	out := make(map[string]map[string]string)
	for _, lang := range lexdata.Languages() {
		table := lexdata.Default().Table(lexdata.CountryAbbreviations, lang)
		m := make(map[string]string, table.Len())
		for _, k := range table.Keys() {
			m[k], _ = table.Get(k)
		}
		out[lang] = m
	}
	return out
}()

// abbreviationTerms returns the terms of the spelled-out names of the country abbreviations
// written in upper case in the question ("Do you ship to the US?"), where they are not
// terms already. They are optional: kept only when the KB has them (see keepSeen).
func abbreviationTerms(text, lang string, terms []textindex.Term) []textindex.Term {
	have := make(map[textindex.Term]bool, len(terms))
	for _, t := range terms {
		have[t] = true
	}
	var out []textindex.Term
	for _, w := range rawWords(text) {
		long, ok := countryAbbreviations[lang][w]
		if !ok {
			continue
		}
		for _, t := range textindex.QueryTerms(long, lang) {
			if !have[t] {
				have[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
