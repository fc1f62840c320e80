package vecindex

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"svc/internal/eval"
	"testing"

	"svc/internal/textindex"
)

// No embedding model runs here, so the measurements embed text with a
// deterministic stand-in: the text's analyzed terms (textindex, as search
// indexes them) weighted by tf-idf, each term a fixed random Gaussian
// direction drawn from its hash, summed and normalised. It is a random
// projection of the tf-idf vector: texts sharing rare terms land near each
// other, and the similarity spread is that of a bag-of-words model, not of a
// neural one.
type standIn struct {
	dim   int
	idf   map[string]float64
	terms map[string][]float32
}

func newStandIn(dim int, docs []xqText) *standIn {
	df := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, t := range textindex.IndexTerms(d.text, d.lang) {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	idf := make(map[string]float64, len(df))
	for t, n := range df {
		idf[t] = math.Log(1 + float64(len(docs))/float64(n))
	}
	return &standIn{dim: dim, idf: idf, terms: map[string][]float32{}}
}

func (s *standIn) termVec(t string) []float32 {
	if v, ok := s.terms[t]; ok {
		return v
	}
	h := fnv.New64a()
	h.Write([]byte(t))
	r := rand.New(rand.NewPCG(h.Sum64(), uint64(s.dim)))
	v := make([]float32, s.dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	s.terms[t] = v
	return v
}

func (s *standIn) embed(text, lang string) []float32 {
	tf := map[string]int{}
	for _, t := range textindex.IndexTerms(text, lang) {
		tf[t]++
	}
	out := make([]float32, s.dim)
	for t, n := range tf {
		w := float32((1 + math.Log(float64(n))) * s.idfOf(t))
		for i, x := range s.termVec(t) {
			out[i] += w * x
		}
	}
	u, err := normalized(out)
	if err != nil {
		// A text with no terms: a fixed direction, so it still has a vector.
		return unitAxis(s.dim, 0)
	}
	return u
}

func (s *standIn) idfOf(t string) float64 {
	if v, ok := s.idf[t]; ok {
		return v
	}
	return math.Log(1 + float64(len(s.idf)))
}

// xqText is a paragraph, sentence or question of the XQuAD dev files.
type xqText struct {
	text, lang string
	para       int // paragraph index across the languages
}

type xqSet struct {
	paragraphs, sentences, questions []xqText
}

var sentenceEnd = regexp.MustCompile(`[.!?]\s+`)

// loadXQuAD reads the three dev files beside the repository (eval.LoadXQuAD), or skips.
func loadXQuAD(t testing.TB) xqSet {
	t.Helper()
	dir := "../../../shared/eval/xquad-dev"
	if _, err := os.Stat(filepath.Join(dir, "xquad.en.dev.json")); err != nil {
		t.Skip("XQuAD dev files not found beside the repository")
	}
	var set xqSet
	for _, lang := range []string{"en", "de", "tr"} {
		pages, questions, err := eval.LoadXQuAD(dir, lang)
		if err != nil {
			t.Fatal(err)
		}
		byURL := map[string]int{}
		for _, p := range pages {
			pi := len(set.paragraphs)
			byURL[p.URL] = pi
			set.paragraphs = append(set.paragraphs, xqText{p.Text, lang, pi})
			for _, s := range sentenceEnd.Split(p.Text, -1) {
				set.sentences = append(set.sentences, xqText{s, lang, pi})
			}
		}
		for _, q := range questions {
			set.questions = append(set.questions, xqText{q.Text, lang, byURL[q.URL]})
		}
	}
	return set
}
