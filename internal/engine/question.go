package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/textindex"
)

// question is the analysis of a visitor's question before any retrieval.
type question struct {
	terms []textindex.Term
	kind  qtype
	weak  []bool // per term: a light word that says little about the subject
	lower []bool // per term: German, and only ever written in lower case (not a noun)
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
	q.weak = make([]bool, len(q.terms))
	for i, t := range q.terms {
		q.weak[i] = weakTerms[lang][t.Text]
	}
	if lang == "de" {
		q.lower = lowerCaseTerms(text, q.terms)
	}
	return q
}

// lowerCaseTerms marks the terms that come only from words written in lower case after the
// first word of the German question. German capitalises every noun, so these are verbs,
// adjectives and adverbs ("sang", "hießen", "gezählt"), whose inflected and strong forms
// vary far more than nouns do: a KB that answers the question often uses another form.
func lowerCaseTerms(text string, terms []textindex.Term) []bool {
	lower := make(map[textindex.Term]bool)
	upper := make(map[textindex.Term]bool)
	for i, w := range rawWords(text) {
		set := upper
		if r, _ := utf8.DecodeRuneInString(w); i > 0 && unicode.IsLower(r) {
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

// weakWords are light verbs and fillers that visitors wrap their questions in ("how long does
// shipping take", "wie lange dauert die Lieferung", "iade nasıl yapılır"). They are not stop
// words, since a page may be about them, but a KB rarely uses them, which would give them the
// highest weight and make a clear question look unanswered. Ranking and confidence count them
// at Ranking.Weak of their weight.
var weakWords = map[string]string{
	"en": "take takes took get gets got make makes made need needs want wants know tell give find go goes come comes say happen happens happened possible",
	"de": "dauern dauert dauerte brauchen brauche braucht bekommen bekomme bekommt machen mache macht gehen geht finden finde findet sagen sagt wissen weiß kommen kommt passieren passiert möglich",
	"tr": "yapmak yapılır yapabilirim yapabilir yaparım yapıyor edebilir ederim istiyorum isterim lazım gerekiyor gerekir mümkün alabilir alırım bilmek öğrenmek",
}

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

// phraseAt returns where the words of phrase occur in order and adjacent in words, or -1. A
// phrase word ending in "*" matches any word with that prefix.
func phraseAt(words, phrase []string) int {
	for i := 0; i+len(phrase) <= len(words); i++ {
		ok := true
		for j, p := range phrase {
			w := words[i+j]
			if pre, isPrefix := strings.CutSuffix(p, "*"); isPrefix {
				ok = strings.HasPrefix(w, pre)
			} else {
				ok = w == p
			}
			if !ok {
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}
