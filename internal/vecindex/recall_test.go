package vecindex

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// encodingRecall builds one Exact index per encoding over docs and reports,
// for each, the mean recall@10 of its results against float32's, and how
// often the question's own paragraph is in its top 10 (task recall).
type encRow struct {
	set     string
	dim     int
	enc     Encoding
	overlap float64 // recall@10 against float32 exact
	task    float64 // gold paragraph in the top 10; -1 when the set has none
}

func measureEncodings(t testing.TB, set string, dim int, docs, queries [][]float32, gold []int, docPara []int) []encRow {
	ref, _ := NewExact(dim, Float32)
	var rows []encRow
	idx := map[Encoding]*Exact{}
	for _, e := range []Encoding{Float32, Float16, Int8} {
		x, _ := NewExact(dim, e)
		for i, v := range docs {
			if err := x.Add(int64(i), int64(i), "x", v); err != nil {
				t.Fatal(err)
			}
		}
		idx[e] = x
	}
	ref = idx[Float32]
	for _, e := range []Encoding{Float32, Float16, Int8} {
		var ov, task float64
		for qi, q := range queries {
			want, _ := ref.Search(q, 10, Filter{})
			got, _ := idx[e].Search(q, 10, Filter{})
			ov += hitRecall(want, got)
			if gold != nil {
				for _, h := range got {
					if docPara[h.ID] == gold[qi] {
						task++
						break
					}
				}
			}
		}
		r := encRow{set: set, dim: dim, enc: e, overlap: ov / float64(len(queries)), task: -1}
		if gold != nil {
			r.task = task / float64(len(queries))
		}
		rows = append(rows, r)
	}
	return rows
}

// TestEncodingRecall is the measurement that chose DefaultEncoding: int8 and
// float16 must keep recall@10 within a point of float32 exact search. By
// default it runs a subset at 384 dimensions; VECINDEX_MEASURE=1 runs the
// table of BENCHMARKS.md (all questions, 384 and 1024, random vectors too).
func TestEncodingRecall(t *testing.T) {
	t.Parallel()
	full := os.Getenv("VECINDEX_MEASURE") != ""
	xq := loadXQuAD(t)
	dims := []int{384}
	nq := 300
	if full {
		dims = []int{384, 1024}
		nq = len(xq.questions)
	}
	var rows []encRow
	for _, dim := range dims {
		all := append(append([]xqText{}, xq.paragraphs...), xq.sentences...)
		si := newStandIn(dim, all)
		// Passages: every paragraph and sentence of the three languages.
		docs := make([][]float32, len(all))
		para := make([]int, len(all))
		for i, d := range all {
			docs[i], para[i] = si.embed(d.text, d.lang), d.para
		}
		qs := make([][]float32, 0, nq)
		gold := make([]int, 0, nq)
		step := max(1, len(xq.questions)/nq)
		for i := 0; i < len(xq.questions) && len(qs) < nq; i += step {
			q := xq.questions[i]
			qs = append(qs, si.embed(q.text, q.lang))
			gold = append(gold, q.para)
		}
		rows = append(rows, measureEncodings(t, fmt.Sprintf("XQuAD stand-in (%d passages, %d questions)", len(docs), len(qs)), dim, docs, qs, gold, para)...)
		if full {
			rv := randomUnit(uint64(dim), 10000+500, dim)
			rows = append(rows, measureEncodings(t, "random unit (10000, 500 queries)", dim, rv[:10000], rv[10000:], nil, nil)...)
		}
	}
	var b strings.Builder
	b.WriteString("\n| vectors | dim | encoding | recall@10 vs float32 | question's paragraph in top 10 |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		task := "–"
		if r.task >= 0 {
			task = fmt.Sprintf("%.3f", r.task)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %.4f | %s |\n", r.set, r.dim, r.enc, r.overlap, task)
	}
	t.Log(b.String())
	for _, r := range rows {
		if r.overlap < 0.99 && r.enc == DefaultEncoding {
			t.Errorf("%s at %d: %s recall@10 %.4f, below float32's by more than a point", r.set, r.dim, r.enc, r.overlap)
		}
	}
}
