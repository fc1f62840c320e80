package textindex

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Term is an analyzed query term; Prefix means "match every indexed term
// that starts with Text".
type Term struct {
	Text   string
	Prefix bool
}

// IndexTerms returns the analyzed terms of text written in lang ("tr",
// "en", "de"; anything else = treat like "en"), in text order, stop
// words removed. Repeated words are kept so term frequency survives.
func IndexTerms(text, lang string) []string {
	return newAnalyzer(lang).indexTerms(text)
}

// QueryTerms analyzes a query in lang, dropping stop words and
// duplicates, in order.
//
// A Turkish query word shorter than the indexed prefix length comes back
// as a Prefix term, so "iade" finds "iades" (from "iadesi"). Single
// letters and words with digits are always exact: a one-letter prefix
// would match a large part of the index, and "14" must not match "140".
// A Turkish verb with the ability suffix is searched by its root (see
// abilityRoot): "ödeyebilir" finds "ödeme".
func QueryTerms(text, lang string) []Term {
	return newAnalyzer(lang).queryTerms(text)
}

// analyzer carries the settings of one analysis. Production code always
// uses newAnalyzer; the XQuAD harness varies the settings to show why the
// defaults were chosen.
type analyzer struct {
	lang        string
	trPrefix    int
	deCompounds bool
}

func newAnalyzer(lang string) analyzer {
	return analyzer{lang: normLang(lang), trPrefix: turkishPrefixLen, deCompounds: true}
}

func (a analyzer) indexTerms(text string) []string {
	st := newStemmer(a.lang, a.trPrefix)
	var out []string
	for _, tok := range tokenize(text, a.lang) {
		for _, t := range a.analyzeToken(tok, st, false) {
			out = append(out, t.Text)
		}
	}
	return out
}

func (a analyzer) queryTerms(text string) []Term {
	return a.queryTokens(tokenize(text, a.lang))
}

// queryTokens analyzes tokens as the words of a query (see QueryTerms).
func (a analyzer) queryTokens(toks []token) []Term {
	st := newStemmer(a.lang, a.trPrefix)
	var out []Term
	seen := make(map[Term]bool)
	for _, tok := range toks {
		if a.lang == langTR && !tok.hasDigit {
			if root, ok := abilityRoot(tok.text); ok {
				tok.text = root
			}
		}
		for _, t := range a.analyzeToken(tok, st, true) {
			if a.lang == langTR && !tok.hasDigit {
				n := utf8.RuneCountInString(t.Text)
				t.Prefix = n >= minPrefixLen && n < a.trPrefix
			}
			if seen[t] {
				continue
			}
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// analyzeToken applies stop-word removal and stemming to one token and
// returns no term for a stop word.
//
// A German compound that germanCompoundParts can split is indexed as the
// whole word followed by its parts, but queried by its parts only. So
// "Bevölkerungsgröße" in a question finds a page about the "Größe der
// Bevölkerung" and the other way round, and the query still works when a
// store requires every query term to match (PostgreSQL's "&").
func (a analyzer) analyzeToken(tok token, st *stemmer, query bool) []Term {
	folded := fold(tok.text)
	if _, stop := stopWords[a.lang][folded]; folded == "" || stop { // a.lang is normalised
		return nil
	}
	if tok.hasDigit {
		return []Term{{Text: folded}}
	}
	word := tok.text
	if a.lang != langDE {
		return []Term{{Text: st.stem(word)}}
	}
	word = germanUmlauts(word)
	var parts []string
	if a.deCompounds {
		parts = germanCompoundParts(word)
	}
	var terms []Term
	if !query || len(parts) == 0 {
		terms = append(terms, Term{Text: st.stem(word)})
	}
	for _, part := range parts {
		terms = append(terms, Term{Text: st.stem(part)})
	}
	return terms
}

// Words splits text into lower-cased (language-aware), ASCII-folded
// words, without stemming or stop-word removal. Used for normalised cache
// keys and small-talk matching. Tokenization is the same as for
// IndexTerms, so for "tr" the suffix after an apostrophe is dropped.
func Words(text, lang string) []string {
	lang = normLang(lang)
	toks := tokenize(text, lang)
	out := make([]string, 0, len(toks))
	for _, tok := range toks {
		if w := fold(tok.text); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// NormalizeQuestion returns a canonical key for a question: analyzed
// content terms, de-duplicated, sorted, space-joined (so "Where is my
// order?" and "where is my ORDER" map to the same key). Empty if no
// content terms.
func NormalizeQuestion(text, lang string) string {
	terms := QueryTerms(text, lang)
	if len(terms) == 0 {
		return ""
	}
	seen := make(map[string]bool, len(terms))
	keys := make([]string, 0, len(terms))
	for _, t := range terms {
		if !seen[t.Text] {
			seen[t.Text] = true
			keys = append(keys, t.Text)
		}
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}
