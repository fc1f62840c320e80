// Package tokencount counts o200k_base tokens (the encoding of OpenAI's GPT-4o and later
// models) exactly as github.com/tiktoken-go/tokenizer counts them in its default error mode.
// It replaces that library in the service because the library links every encoding it
// knows (o200k_base, cl100k_base, p50k_base, r50k_base) as Go map literals: 12.1 MB of the
// binary, where this package takes 1.9 MB. The one vocabulary needed is embedded
// gzip-compressed (1 MB) and decoded on first use into a table of about 4 MB with no
// pointers in it, against the library's 6.7 MB map of 200 000 strings.
//
// Counting is the library's, step for step: the input is split by the o200k_base
// pre-tokenizer pattern, a piece that is a token counts one, and any other piece is
// byte-pair merged. The tests compare the counts, and the pieces, with the library's.
package tokencount

//go:generate go run gen/main.go

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Counter counts o200k_base tokens. It is safe for concurrent use.
type Counter struct {
	vocab *vocab
	split *regexp2.Regexp
}

// o200kBase is decoded once per process and shared by every Counter: it is immutable, a
// few MB, and an engine is built per evaluation run, so one copy each would add up.
var o200kBase = sync.OnceValues(func() (*vocab, error) { return loadVocab(o200kBaseTokens) })

// O200kBase returns a counter for the o200k_base encoding. The first call decodes the
// embedded vocabulary (some tens of milliseconds); later calls share it.
func O200kBase() (*Counter, error) {
	v, err := o200kBase()
	if err != nil {
		return nil, fmt.Errorf("tokencount: o200k_base vocabulary: %w", err)
	}
	re, err := newSplitter()
	if err != nil {
		return nil, fmt.Errorf("tokencount: o200k_base pattern: %w", err)
	}
	return &Counter{vocab: v, split: re}, nil
}

// Count returns the number of tokens in s. Invalid UTF-8 is not an error: each invalid
// byte counts as U+FFFD, as in the library, whose pattern matcher reads the input as runes.
// An error could come only from the matcher giving up at regexp2's backtracking limit,
// which this pattern has not been seen to reach (the tests split runs of 64 KiB).
func (c *Counter) Count(s string) (int, error) {
	if !utf8.ValidString(s) {
		// What the matcher sees, so that its rune positions map back to these bytes.
		s = string([]rune(s))
	}
	n := 0
	m, err := c.split.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = c.split.FindNextMatch(m) {
		start, length := m.ByteRange()
		piece := s[start : start+length]
		if _, ok := c.vocab.rank(piece); ok {
			n++
		} else {
			n += c.vocab.mergeCount(piece)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("tokencount: split: %w", err)
	}
	return n, nil
}
