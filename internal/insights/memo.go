package insights

import (
	"slices"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"svc/internal/textindex"
)

// reading is how one question text reads in a language: what Group's first step makes of
// it. Shared read-only once made.
type reading struct {
	terms  []string // the usable terms, distinct, in text order
	folded string   // the words folded as the index folds them: what makes two questions one
	forms  []form   // each usable term as written, in text order
}

// form is one word's usable term with the word as written.
type form struct {
	term, word      string
	capital, prefix bool
}

// read makes the reading of text in lang (normalised).
func read(lang, text string) *reading {
	r := &reading{}
	weak := weakTerms[lang]
	var folded []string
	for _, w := range textindex.QueryWords(text, lang) {
		if f := textindex.Fold(w.Text); f != "" {
			folded = append(folded, f)
		}
		for _, t := range w.Terms {
			if !usable(t.Text) || weak[t.Text] {
				continue
			}
			r.forms = append(r.forms, form{term: t.Text, word: w.Text, capital: w.Capital, prefix: t.Prefix})
			if !slices.Contains(r.terms, t.Text) {
				r.terms = append(r.terms, t.Text)
			}
		}
	}
	r.folded = strings.Join(folded, " ")
	return r
}

// Memo remembers how question texts read between groupings: the overview groups mostly the
// same questions on every visit, and reading them is most of grouping's work. It is a
// bounded LRU of a pure function of (language, text), so a hit is exactly what reading the
// text again would give and nothing can be stale or another account's. Safe for concurrent
// use; a nil *Memo remembers nothing.
type Memo struct {
	c *lru.Cache[memoKey, *reading]
}

type memoKey struct{ lang, text string }

// memoMaxText is the longest text (in bytes) a Memo keeps: longer questions are rare, and
// leaving them out bounds the memo's memory by its entries (a reading is a few times its
// text).
const memoMaxText = 300

// NewMemo makes a memo of at most entries readings (at least 1).
func NewMemo(entries int) (*Memo, error) {
	c, err := lru.New[memoKey, *reading](max(entries, 1))
	if err != nil {
		return nil, err
	}
	return &Memo{c: c}, nil
}

// read is the reading of text in lang, remembered when it is short enough.
func (m *Memo) read(lang, text string) *reading {
	if m == nil || len(text) > memoMaxText {
		return read(lang, text)
	}
	k := memoKey{lang, text}
	if r, ok := m.c.Get(k); ok {
		return r
	}
	r := read(lang, text)
	m.c.Add(k, r)
	return r
}
