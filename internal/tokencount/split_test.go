package tokencount

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dlclark/regexp2/v2"
	_ "github.com/tiktoken-go/tokenizer/codec" // registers the library's generated matchers
)

// libraryPattern is the pattern as the library writes it; MustCompile finds the matcher
// generated from it, which is what the library runs.
const libraryPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

func pieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	t.Helper()
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatalf("split %q: %v", s, err)
	}
	return out
}

// librarySplitter is the library's matcher, checked to be the generated one by the two
// quirks that splitPattern copies.
func librarySplitter(t testing.TB) *regexp2.Regexp {
	t.Helper()
	ref := regexp2.MustCompile(libraryPattern, regexp2.None)
	if got := pieces(t, ref, "a\x7fb\n \n"); !slices.Equal(got, []string{"a", "b", "\n", " \n"}) {
		t.Fatalf("the library's matcher splits %q, not as its generated code does", got)
	}
	return ref
}

func TestSplitMatchesLibraryMatcher(t *testing.T) {
	t.Parallel()
	ref := librarySplitter(t)
	ours, err := newSplitter()
	if err != nil {
		t.Fatal(err)
	}
	same := func(s string) {
		if got, want := pieces(t, ours, s), pieces(t, ref, s); !slices.Equal(got, want) {
			t.Errorf("split %s = %q, library %q", short(s), got, want)
		}
	}
	for _, texts := range xquadTexts(t) {
		for _, s := range texts {
			same(s)
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		same(randomText(rng, 1+rng.IntN(20)))
		if t.Failed() {
			return
		}
	}
	// Runes alone and beside the characters the pattern's classes turn on: every one up to
	// U+2FFF, where the scripts with the most category changes are, and a sample of the
	// rest. (All of them agreed once, in 80 s without the race detector.)
	for i := range 0x3000 + 5000 {
		r := rune(i)
		if i >= 0x3000 {
			r = 0x3000 + rng.Int32N(0x10FFFF-0x3000+1)
		}
		if r >= 0xD800 && r < 0xE000 {
			continue
		}
		c := string(r)
		for _, s := range []string{c, "a" + c + "A", " " + c + "\n", c + c + "'s"} {
			same(s)
		}
		if t.Failed() {
			return
		}
	}
}
