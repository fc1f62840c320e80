package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
)

type sqf struct {
	Data []struct {
		Title      string `json:"title"`
		Paragraphs []struct {
			Context string `json:"context"`
			QAs     []struct {
				Question string `json:"question"`
				Answers  []struct {
					Text string `json:"text"`
				} `json:"answers"`
			} `json:"qas"`
		} `json:"paragraphs"`
	} `json:"data"`
}

type sq struct {
	text, url string
	answers   []string
}

func loadScratch(t *testing.T, lang string) (*sqlite.Store, int64, []sq) {
	raw, _ := os.ReadFile("/work/shared/eval/xquad-dev/xquad." + lang + ".dev.json")
	var f sqf
	json.Unmarshal(raw, &f)
	var buf bytes.Buffer
	var qs []sq
	for ai, a := range f.Data {
		for pi, p := range a.Paragraphs {
			url := fmt.Sprintf("https://xquad.test/%s/%d/%d", lang, ai, pi)
			b, _ := json.Marshal(map[string]string{"type": "page", "url": url, "title": fmt.Sprintf("%s (%d)", strings.ReplaceAll(a.Title, "_", " "), pi+1), "body": p.Context, "lang": lang})
			buf.Write(b)
			buf.WriteByte('\n')
			for _, qa := range p.QAs {
				q := sq{text: qa.Question, url: url}
				for _, an := range qa.Answers {
					q.answers = append(q.answers, an.Text)
				}
				qs = append(qs, q)
			}
		}
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := store.Account{Name: "x", Plan: store.PlanStarter}
	if err := st.CreateAccount(ctx, &a, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := kb.Import(ctx, st, a.ID, 0, &buf); err != nil {
		t.Fatal(err)
	}
	return st, a.ID, qs
}

func has(s string, answers []string) bool {
	for _, a := range answers {
		if strings.Contains(strings.ToLower(s), strings.ToLower(a)) {
			return true
		}
	}
	return false
}

func TestScratchSentences(t *testing.T) {
	for _, lang := range strings.Split(os.Getenv("LANGS"), ",") {
		st, acct, qs := loadScratch(t, lang)
		e, _ := New(st, Options{})
		hist := map[int]int{}
		nsent := map[int]int{}
		cueHit, cueTot := 0, 0
		for _, q := range qs {
			qq, cands, _ := e.retrieve(context.Background(), acct, q.text, lang)
			if len(cands) == 0 || cands[0].hit.URL != q.url {
				hist[-2]++
				continue
			}
			c := cands[0]
			kind := questionType(q.text, lang)
			qwords := map[string]bool{}
			for _, w := range rawWords(q.text) {
				qwords[lowerWord(w, lang)] = true
			}
			type ss struct {
				i  int
				sc float64
			}
			var sl []ss
			for i, s := range c.sents {
				sc := qq.weightOf(countSeq(s.seq, len(qq.terms))) / qq.total
				sc += e.rank.SentBigram * qq.bigramWeight(s.seq) / qq.total
				if hasCue(s.text, kind, lang, qwords) {
					sc += e.rank.Cue
				}
				sl = append(sl, ss{i, sc})
			}
			sort.SliceStable(sl, func(a, b int) bool { return sl[a].sc > sl[b].sc })
			r := -1
			for k, s := range sl {
				if has(c.sents[s.i].text, q.answers) {
					r = k
					if kind != askOther {
						cueTot++
						if hasCue(c.sents[s.i].text, kind, lang, qwords) {
							cueHit++
						}
					}
					break
				}
			}
			hist[r]++
			nsent[len(c.sents)]++
		}
		fmt.Println(lang, "sentence rank of answer:", hist, "cue on answer sentence", cueHit, cueTot)
	}
}

func TestScratchMinus1(t *testing.T) {
	for _, lang := range strings.Split(os.Getenv("LANGS"), ",") {
		st, acct, qs := loadScratch(t, lang)
		e, _ := New(st, Options{})
		for _, q := range qs {
			_, cands, _ := e.retrieve(context.Background(), acct, q.text, lang)
			if len(cands) == 0 || cands[0].hit.URL != q.url {
				continue
			}
			c := cands[0]
			found := false
			for _, s := range c.sents {
				if has(s.text, q.answers) {
					found = true
				}
			}
			if !found {
				fmt.Printf("%s | %v | inText=%v\n", q.text, q.answers, has(c.hit.Text, q.answers))
				for _, s := range c.sents {
					fmt.Printf("   [%s]\n", s.text)
				}
			}
		}
	}
}
