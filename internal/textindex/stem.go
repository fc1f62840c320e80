package textindex

import (
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/german"
)

// turkishPrefixLen is how many letters of a Turkish word are indexed.
// Turkish is agglutinative and the Snowball Turkish stemmer is
// inconsistent ("iade" -> "ia" but "iadesi" -> "iades"), whereas most
// Turkish roots plus their first derivational suffix fit in about five
// letters. The value was chosen with the XQuAD harness in xquad_test.go.
const turkishPrefixLen = 5

// minPrefixLen is the shortest Turkish query word matched as a prefix.
const minPrefixLen = 2

// stemmer turns a lower-cased, unfolded word into its index form. It
// owns a Snowball environment, so it must not be shared between
// goroutines; each analysis call makes its own.
type stemmer struct {
	lang      string
	prefixLen int // Turkish only
	env       *snowballstem.Env
}

func newStemmer(lang string, prefixLen int) *stemmer {
	return &stemmer{lang: lang, prefixLen: prefixLen, env: snowballstem.NewEnv("")}
}

// stem returns the folded index form of word. English and German are
// stemmed before folding so the German stemmer sees its umlauts;
// Turkish is folded and then cut to the prefix length.
func (s *stemmer) stem(word string) string {
	switch s.lang {
	case langTR:
		return truncateRunes(fold(word), s.prefixLen)
	case langDE:
		s.env.SetCurrent(word)
		german.Stem(s.env)
		return fold(s.env.Current())
	default:
		s.env.SetCurrent(word)
		english.Stem(s.env)
		return fold(s.env.Current())
	}
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// truncateRunes returns the first n runes of s.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
