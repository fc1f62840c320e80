package textindex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"svc/internal/textindex/bm25"
)

// This file is a retrieval harness, not a unit test: it indexes every
// XQuAD dev paragraph, asks every question and logs how often the source
// paragraph is ranked first and in the top five by a plain BM25. It is
// how the Turkish prefix length, the stop-word lists and the German
// handling were chosen. Run with: go test -run XQuAD -v ./internal/textindex/

// squadFile is the part of the SQuAD v1.1 JSON layout the harness reads.
type squadFile struct {
	Data []struct {
		Paragraphs []struct {
			Context string `json:"context"`
			QAs     []struct {
				Question string `json:"question"`
			} `json:"qas"`
		} `json:"paragraphs"`
	} `json:"data"`
}

type xquadQuestion struct {
	text      string
	paragraph int
}

// xquadDir finds the shared eval folder, which sits beside the repository
// (<repo>/../shared/eval/xquad-dev), or skips the test.
func xquadDir(t *testing.T) string {
	t.Helper()
	var candidates []string
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				candidates = append(candidates, filepath.Join(dir, "..", "shared", "eval", "xquad-dev"))
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	candidates = append(candidates, "/work/shared/eval/xquad-dev")
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(c, "xquad.en.dev.json")); err == nil {
			return c
		}
	}
	t.Skip("XQuAD dev files not found beside the repository")
	return ""
}

func loadXQuAD(t *testing.T, dir, lang string) ([]string, []xquadQuestion) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "xquad."+lang+".dev.json"))
	if err != nil {
		t.Fatalf("read XQuAD %s: %v", lang, err)
	}
	var f squadFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("parse XQuAD %s: %v", lang, err)
	}
	var paras []string
	var qs []xquadQuestion
	for _, art := range f.Data {
		for _, p := range art.Paragraphs {
			for _, qa := range p.QAs {
				qs = append(qs, xquadQuestion{text: qa.Question, paragraph: len(paras)})
			}
			paras = append(paras, p.Context)
		}
	}
	return paras, qs
}

// memIndex is a minimal in-memory BM25 (bm25.IDF, bm25.K1 and bm25.B) in which a prefix
// query term stands for the union of all index terms it starts.
type memIndex struct {
	docs  []map[string]int
	lens  []float64
	avg   float64
	vocab []string // sorted, for prefix lookup
}

func newBM25(docs [][]string) *memIndex {
	idx := &memIndex{}
	seen := map[string]bool{}
	total := 0.0
	for _, terms := range docs {
		tf := map[string]int{}
		for _, term := range terms {
			tf[term]++
			if !seen[term] {
				seen[term] = true
				idx.vocab = append(idx.vocab, term)
			}
		}
		idx.docs = append(idx.docs, tf)
		idx.lens = append(idx.lens, float64(len(terms)))
		total += float64(len(terms))
	}
	sort.Strings(idx.vocab)
	idx.avg = total / float64(len(docs))
	return idx
}

// expand lists the index terms a query term matches.
func (idx *memIndex) expand(q Term) []string {
	if !q.Prefix {
		return []string{q.Text}
	}
	var out []string
	for i := sort.SearchStrings(idx.vocab, q.Text); i < len(idx.vocab) && strings.HasPrefix(idx.vocab[i], q.Text); i++ {
		out = append(out, idx.vocab[i])
	}
	return out
}

// rank returns document indexes, best first.
func (idx *memIndex) rank(query []Term) []int {
	m := bm25.Model{K1: bm25.K1, B: bm25.B}
	n := float64(len(idx.docs))
	scores := make([]float64, len(idx.docs))
	for _, q := range query {
		terms := idx.expand(q)
		tfs := make([]float64, len(idx.docs))
		df := 0.0
		for d, doc := range idx.docs {
			for _, term := range terms {
				tfs[d] += float64(doc[term])
			}
			if tfs[d] > 0 {
				df++
			}
		}
		if df == 0 {
			continue
		}
		idf := bm25.IDF(n, df)
		for d, tf := range tfs {
			scores[d] += m.Score(idf, tf, idx.lens[d], idx.avg)
		}
	}
	order := make([]int, len(idx.docs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] > scores[order[j]] })
	return order
}

// retrieval scores one analyzer over one language's questions.
func retrieval(paras []string, qs []xquadQuestion, index func(string) []string, query func(string) []Term) (top1, top5 float64) {
	docs := make([][]string, len(paras))
	for i, p := range paras {
		docs[i] = index(p)
	}
	idx := newBM25(docs)
	hit1, hit5 := 0, 0
	for _, q := range qs {
		order := idx.rank(query(q.text))
		for pos := 0; pos < 5 && pos < len(order); pos++ {
			if order[pos] == q.paragraph {
				hit5++
				if pos == 0 {
					hit1++
				}
			}
		}
	}
	return float64(hit1) / float64(len(qs)), float64(hit5) / float64(len(qs))
}

// plainTerms is the baseline: folded words, no stop words, no stemming.
func plainTerms(lang string) (func(string) []string, func(string) []Term) {
	index := func(s string) []string { return Words(s, lang) }
	query := func(s string) []Term {
		var out []Term
		for _, w := range Words(s, lang) {
			out = append(out, Term{Text: w})
		}
		return out
	}
	return index, query
}

func TestXQuADRetrieval(t *testing.T) {
	dir := xquadDir(t)
	for _, lang := range []string{"en", "de", "tr"} {
		paras, qs := loadXQuAD(t, dir, lang)
		if len(paras) == 0 || len(qs) == 0 {
			t.Fatalf("%s: no paragraphs or questions loaded", lang)
		}
		bi, bq := plainTerms(lang)
		base1, base5 := retrieval(paras, qs, bi, bq)
		top1, top5 := retrieval(paras, qs,
			func(s string) []string { return IndexTerms(s, lang) },
			func(s string) []Term { return QueryTerms(s, lang) })
		t.Logf("%s: %d paragraphs, %d questions; plain words top1 %.1f%% top5 %.1f%%; analyzer top1 %.1f%% top5 %.1f%%",
			lang, len(paras), len(qs), 100*base1, 100*base5, 100*top1, 100*top5)
		if top1 < base1 || top5 < base5 {
			t.Errorf("%s: analyzer (top1 %.3f, top5 %.3f) is worse than plain words (top1 %.3f, top5 %.3f)", lang, top1, top5, base1, base5)
		}
	}
}

// TestXQuADTurkishPrefixLength logs retrieval for several Turkish prefix
// lengths; it documents why turkishPrefixLen has its value.
func TestXQuADTurkishPrefixLength(t *testing.T) {
	dir := xquadDir(t)
	paras, qs := loadXQuAD(t, dir, "tr")
	best, bestLen := -1.0, 0
	for n := 3; n <= 9; n++ {
		a := analyzer{lang: langTR, trPrefix: n}
		top1, top5 := retrieval(paras, qs, a.indexTerms, a.queryTerms)
		t.Logf("tr prefix %d: top1 %.1f%% top5 %.1f%%", n, 100*top1, 100*top5)
		if top1+top5 > best {
			best, bestLen = top1+top5, n
		}
	}
	if bestLen < turkishPrefixLen-1 || bestLen > turkishPrefixLen+1 {
		t.Errorf("best Turkish prefix length is %d, far from turkishPrefixLen=%d", bestLen, turkishPrefixLen)
	}
}

// TestXQuADGermanCompounds logs retrieval with and without splitting
// German compounds at linking suffixes (see compound.go).
func TestXQuADGermanCompounds(t *testing.T) {
	dir := xquadDir(t)
	paras, qs := loadXQuAD(t, dir, "de")
	on := newAnalyzer(langDE)
	off := on
	off.deCompounds = false
	on1, on5 := retrieval(paras, qs, on.indexTerms, on.queryTerms)
	off1, off5 := retrieval(paras, qs, off.indexTerms, off.queryTerms)
	t.Logf("de compounds split: top1 %.1f%% top5 %.1f%%; not split: top1 %.1f%% top5 %.1f%%", 100*on1, 100*on5, 100*off1, 100*off5)
	if on5 < off5 {
		t.Errorf("compound splitting lowers top5: %.3f < %.3f", on5, off5)
	}
}
