package engine

import (
	"unicode/utf8"

	lru "github.com/hashicorp/golang-lru/v2"

	"svc/internal/textindex"
)

// analyzedSentence is one sentence of a chunk's text with its index terms: what the
// extraction scores against a question.
type analyzedSentence struct {
	text  string
	line  int
	chars int
	terms []string
	// cases is, in German, how the sentence writes each of its terms (see termCases).
	cases []termCase
}

// sentenceMemo remembers the sentences of recently read chunks with their terms. A new
// question reads the best 15 of its 50 candidates sentence by sentence, and analysing them
// (splitting, stemming) was a sixth of a new answer's time; the same chunks are candidates
// of question after question. The analysis depends on nothing but the text and its
// language, which are the key, so an entry can never be stale: a chunk whose text changes
// is another entry. The bound keeps the memory small (chunks are a few hundred words).
type sentenceMemo struct {
	memo *lru.Cache[sentenceKey, []analyzedSentence]
	// heads holds the terms of recently read titles and headings (headMatch), which repeat
	// even more than chunks do: analysing them per candidate was a twentieth of an answer.
	heads *lru.Cache[sentenceKey, []string]
}

type sentenceKey struct{ lang, text string }

// sentencesKept bounds the memo (chunks).
const sentencesKept = 1024

func newSentenceMemo() *sentenceMemo {
	memo, err := lru.New[sentenceKey, []analyzedSentence](sentencesKept)
	if err != nil {
		panic(err) // only for a size below one
	}
	heads, err := lru.New[sentenceKey, []string](sentencesKept)
	if err != nil {
		panic(err)
	}
	return &sentenceMemo{memo: memo, heads: heads}
}

// headTerms returns the index terms of a title and heading in lang. The slice is shared:
// callers must not change it.
func (m *sentenceMemo) headTerms(head, lang string) []string {
	k := sentenceKey{lang, head}
	if t, ok := m.heads.Get(k); ok {
		return t
	}
	t := textindex.IndexTerms(head, lang)
	m.heads.Add(k, t)
	return t
}

// purge forgets everything.
func (m *sentenceMemo) purge() {
	m.memo.Purge()
	m.heads.Purge()
}

// sentences returns the analyzed sentences of text in lang. The slice is shared: callers
// only read it.
func (m *sentenceMemo) sentences(text, lang string) []analyzedSentence {
	k := sentenceKey{lang, text}
	if s, ok := m.memo.Get(k); ok {
		return s
	}
	s := analyzeText(text, lang)
	m.memo.Add(k, s)
	return s
}

func analyzeText(text, lang string) []analyzedSentence {
	spans := splitSentences(text, lang)
	out := make([]analyzedSentence, len(spans))
	for i, sp := range spans {
		out[i] = analyzedSentence{text: sp.text, line: sp.line, chars: utf8.RuneCountInString(sp.text),
			terms: textindex.IndexTerms(sp.text, lang)}
		if lang == "de" {
			out[i].cases = termCases(sp.text)
		}
	}
	return out
}
