package chat

import (
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"svc/internal/lang"
	"svc/internal/smalltalk"
)

// reading is what the pipeline reads from a message's text alone, before it looks at any
// account's data: the message's language (given the conversation's, for a text too short to
// tell), whether it is small talk, and its cache key.
type reading struct {
	lang string
	talk smalltalk.Kind
	// talkLang is the language of the small-talk phrase, when it tells one.
	talkLang string
	isTalk   bool
	q        questionKey
}

// readText reads text in a conversation of language convLang.
func readText(text, convLang string) reading {
	r := reading{lang: lang.DetectOr(text, convLang)}
	if r.talk, r.talkLang, r.isTalk = smalltalk.Match(text); r.isTalk {
		return r
	}
	r.q = newQuestionKey(text, r.lang)
	return r
}

// Readings of recent messages are remembered, since the same questions come again and again
// (that is what the answer cache is for), and reading one (detecting its language, matching
// the small-talk phrases, analysing its terms) was a sixth of a cached answer's time. A
// reading depends on nothing but the text and the conversation's language, so it can never be
// stale or another tenant's. Only short texts are kept, which bounds the memory.
const (
	readingsKept     = 4096
	readingMaxLength = 256 // bytes
)

// readings remembers recent readings; safe for concurrent use.
type readings struct {
	memo *lru.Cache[readingKey, reading]
}

type readingKey struct{ text, convLang string }

func newReadings() *readings {
	memo, err := lru.New[readingKey, reading](readingsKept)
	if err != nil {
		panic(err) // only for a size below one
	}
	return &readings{memo: memo}
}

// read returns the reading of text in a conversation of language convLang. The terms are the
// caller's own copy.
func (rs *readings) read(text, convLang string) reading {
	if len(text) > readingMaxLength {
		return readText(text, convLang)
	}
	k := readingKey{text, convLang}
	r, ok := rs.memo.Get(k)
	if !ok {
		r = readText(text, convLang)
		rs.memo.Add(k, r)
	}
	r.q.terms, r.q.names = slices.Clone(r.q.terms), slices.Clone(r.q.names)
	return r
}
