package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// This harness runs Detect over every XQuAD dev question (632 per
// language, parallel across en/de/tr). The questions are encyclopedic
// rather than customer messages, full of names and English titles, which
// makes them a fair test the word lists were not written for.
// Run with: go test -run XQuAD -v ./internal/lang/

type squadFile struct {
	Data []struct {
		Paragraphs []struct {
			QAs []struct {
				Question string `json:"question"`
			} `json:"qas"`
		} `json:"paragraphs"`
	} `json:"data"`
}

// xquadDir finds the shared eval folder beside the repository
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

func xquadQuestions(t *testing.T, dir, lang string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "xquad."+lang+".dev.json"))
	if err != nil {
		t.Fatalf("read XQuAD %s: %v", lang, err)
	}
	var f squadFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("parse XQuAD %s: %v", lang, err)
	}
	var qs []string
	for _, art := range f.Data {
		for _, p := range art.Paragraphs {
			for _, qa := range p.QAs {
				qs = append(qs, qa.Question)
			}
		}
	}
	return qs
}

func TestXQuADDetection(t *testing.T) {
	const floor = 0.97
	dir := xquadDir(t)
	for _, want := range []string{EN, DE, TR} {
		qs := xquadQuestions(t, dir, want)
		if len(qs) == 0 {
			t.Fatalf("%s: no questions loaded", want)
		}
		right, confident := 0, 0
		var wrong []string
		for _, q := range qs {
			got, conf := Detect(q)
			if got == want {
				right++
				if conf >= minConfidence {
					confident++
				}
			} else if len(wrong) < 10 {
				wrong = append(wrong, got+": "+q)
			}
		}
		acc := float64(right) / float64(len(qs))
		t.Logf("%s: %d/%d correct (%.1f%%), %.1f%% of all at or above minConfidence", want, right, len(qs), 100*acc, 100*float64(confident)/float64(len(qs)))
		for _, w := range wrong {
			t.Logf("  wrong %s", w)
		}
		if acc < floor {
			t.Errorf("%s accuracy %.3f below floor %.2f", want, acc, floor)
		}
	}
}
