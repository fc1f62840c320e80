package embedtest

import (
	_ "embed"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Dim is the dimension of every vector the fake servers make.
const Dim = 256

// oodWeight is what a word of no concept adds to its hashed dimension: enough that two texts
// sharing unusual words (a product name, a number) are a little alike, little enough that
// shared concepts decide.
const oodWeight = 0.25

// stopConcept marks the words that add nothing.
const stopConcept = "_stop"

//go:embed testdata/concepts.tsv
var conceptsTSV string

// Concepts turns text into vectors through a dictionary of concepts (testdata/concepts.tsv):
// each concept is a dimension, and every word or phrase of the dictionary adds 1 to its
// concepts' dimensions, so that paraphrases and translations ("refund", "money back",
// "Rückerstattung", "geri ödeme") land on the same dimensions. A word of no concept adds a
// little to a dimension picked by its hash. Vectors are L2-normalised. It is immutable and
// safe for concurrent use.
type Concepts struct {
	names []string           // concept names by dimension
	exact map[string][]*term // terms by their first word, when it must match whole
	stems map[string][]*term // terms by their first word, when it is a stem
}

// word is one word of a term: matched whole, or as the start of a text's word.
type word struct {
	text   string
	prefix bool
}

// term is a word or phrase of the dictionary and the concepts it stands for.
type term struct {
	words    []word
	concepts []int // dimensions
	stop     bool  // a stop word (unless it also has concepts: another language's word)
}

// LoadConcepts parses the embedded dictionary.
func LoadConcepts() (*Concepts, error) { return ParseConcepts(conceptsTSV) }

// ParseConcepts parses a dictionary in the format of testdata/concepts.tsv.
func ParseConcepts(tsv string) (*Concepts, error) {
	c := &Concepts{exact: map[string][]*term{}, stems: map[string][]*term{}}
	dims := map[string]int{}
	byKey := map[string]*term{}
	for n, line := range strings.Split(tsv, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("concepts line %d: want concept, language and terms separated by tabs", n+1)
		}
		name := fields[0]
		dim, known := dims[name]
		if !known && name != stopConcept {
			dim = len(c.names)
			dims[name] = dim
			c.names = append(c.names, name)
		}
		for _, raw := range strings.Split(fields[2], ",") {
			words, err := parseTerm(raw)
			if err != nil {
				return nil, fmt.Errorf("concepts line %d: %w", n+1, err)
			}
			key := fmt.Sprint(words)
			t := byKey[key]
			if t == nil {
				t = &term{words: words}
				byKey[key] = t
				index := c.exact
				if words[0].prefix {
					index = c.stems
				}
				index[words[0].text] = append(index[words[0].text], t)
			}
			switch {
			case name == stopConcept:
				t.stop = true
			case !containsInt(t.concepts, dim):
				t.concepts = append(t.concepts, dim)
			}
		}
	}
	// One dimension is kept for texts with no word of meaning, and some for hashed words.
	if len(c.names) > Dim-17 {
		return nil, fmt.Errorf("concepts: %d concepts leave too few of the %d dimensions for other words", len(c.names), Dim)
	}
	return c, nil
}

func parseTerm(raw string) ([]word, error) {
	var words []word
	for _, w := range strings.Fields(raw) {
		prefix := strings.HasSuffix(w, "*")
		toks := tokens(strings.TrimSuffix(w, "*"))
		if len(toks) == 0 {
			return nil, fmt.Errorf("term %q has an empty word", raw)
		}
		for i, tok := range toks {
			words = append(words, word{text: tok, prefix: prefix && i == len(toks)-1})
		}
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("empty term in %q", raw)
	}
	return words, nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Names are the concepts, in the order of their dimensions.
func (c *Concepts) Names() []string { return append([]string(nil), c.names...) }

// Vector is text's L2-normalised vector of Dim dimensions.
func (c *Concepts) Vector(text string) []float32 {
	v := make([]float64, Dim)
	c.walk(text, func(dims []int) {
		for _, d := range dims {
			v[d]++
		}
	}, func(tok string) {
		v[c.hashed(tok)] += oodWeight
	})
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	out := make([]float32, Dim)
	if sum == 0 {
		out[Dim-1] = 1 // nothing of meaning: all such texts are alike, and unlike the rest
		return out
	}
	norm := math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// Found names the concepts text holds, in order of appearance, repeats included: what a
// test looks at when a vector is not what it expected.
func (c *Concepts) Found(text string) []string {
	var names []string
	c.walk(text, func(dims []int) {
		for _, d := range dims {
			names = append(names, c.names[d])
		}
	}, func(string) {})
	return names
}

// walk reads text's words left to right, preferring at each word the dictionary term of the
// most words, then of the longest first word, then one matched whole over a stem.
func (c *Concepts) walk(text string, concept func(dims []int), other func(tok string)) {
	toks := tokens(text)
	for i := 0; i < len(toks); {
		t := c.best(toks[i:])
		switch {
		case t == nil:
			other(toks[i])
			i++
		case len(t.concepts) > 0:
			concept(t.concepts)
			i += len(t.words)
		default: // a stop word
			i += len(t.words)
		}
	}
}

func (c *Concepts) best(toks []string) *term {
	var best *term
	better := func(t *term) bool {
		switch {
		case best == nil:
			return true
		case len(t.words) != len(best.words):
			return len(t.words) > len(best.words)
		case len(t.words[0].text) != len(best.words[0].text):
			return len(t.words[0].text) > len(best.words[0].text)
		default:
			return !t.words[0].prefix && best.words[0].prefix
		}
	}
	consider := func(ts []*term) {
		for _, t := range ts {
			if matches(t, toks) && better(t) {
				best = t
			}
		}
	}
	first := toks[0]
	consider(c.exact[first])
	for end := len(first); end > 0; {
		consider(c.stems[first[:end]])
		_, size := utf8.DecodeLastRuneInString(first[:end])
		end -= size
	}
	return best
}

func matches(t *term, toks []string) bool {
	if len(t.words) > len(toks) {
		return false
	}
	for i, w := range t.words {
		if w.prefix && !strings.HasPrefix(toks[i], w.text) || !w.prefix && toks[i] != w.text {
			return false
		}
	}
	return true
}

// hashed is the dimension of a word of no concept: past the concepts, before the last.
func (c *Concepts) hashed(tok string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(tok))
	first := len(c.names)
	return first + int(h.Sum32()%uint32(Dim-1-first))
}

// tokens folds text (lower case, no diacritics, Turkish dotless ı as i, ß as ss) and splits
// it into runs of letters and digits.
func tokens(text string) []string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(text)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'ı':
			b.WriteRune('i')
		case r == 'ß':
			b.WriteString("ss")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteRune(' ')
		}
	}
	return strings.Fields(b.String())
}

// Cosine is the cosine similarity of two vectors of one dimension (0 when either is zero).
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
