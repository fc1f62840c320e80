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
// goroutines; each analysis call makes its own, and makes the environment
// only when a word needs it (a text of stop words, or Turkish, never does).
type stemmer struct {
	lang      string
	prefixLen int // Turkish only
	env       *snowballstem.Env
}

func newStemmer(lang string, prefixLen int) *stemmer {
	return &stemmer{lang: lang, prefixLen: prefixLen}
}

// snowball returns the environment holding word.
func (s *stemmer) snowball(word string) *snowballstem.Env {
	if s.env == nil {
		s.env = snowballstem.NewEnv(word)
	} else {
		s.env.SetCurrent(word)
	}
	return s.env
}

// stem returns the folded index form of word. English and German are
// stemmed before folding so the German stemmer sees its umlauts;
// Turkish is folded and then cut to the prefix length.
func (s *stemmer) stem(word string) string {
	switch s.lang {
	case langTR:
		return truncateRunes(fold(word), s.prefixLen)
	case langDE:
		env := s.snowball(word)
		german.Stem(env)
		return fold(env.Current())
	default:
		env := s.snowball(word)
		english.Stem(env)
		return fold(env.Current())
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
