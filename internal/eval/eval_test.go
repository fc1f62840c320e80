package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/engine"
)

// xquadDir finds the shared XQuAD dev files beside the repository
// (<repo>/../shared/eval/xquad-dev) or skips the test.
func xquadDir(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("getwd: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			data := filepath.Join(dir, "..", "shared", "eval", "xquad-dev")
			if _, err := os.Stat(filepath.Join(data, "xquad.en.dev.json")); err != nil {
				t.Skip("XQuAD dev files not found at " + data)
			}
			return data
		}
		if filepath.Dir(dir) == dir {
			t.Skip("repository root not found")
		}
	}
}

// TestXQuAD runs the quality report on the XQuAD dev split and holds the engine to floors a
// little under what it achieves (BENCHMARKS.md), so that a change that costs quality fails.
// It logs each half of the articles too: half A is the one tuned on, half B the held-out
// check (see Half).
func TestXQuAD(t *testing.T) {
	if testing.Short() {
		t.Skip("the XQuAD report takes a while; skipped in -short mode")
	}
	dir := xquadDir(t)
	reports, err := XQuADHalves(context.Background(), dir, []string{"en", "de", "tr"}, []string{"", HalfA, HalfB}, engine.Options{})
	if err != nil {
		t.Fatalf("XQuAD: %v", err)
	}
	var b strings.Builder
	if err := WriteTable(&b, reports); err != nil {
		t.Fatalf("WriteTable: %v", err)
	}
	t.Logf("XQuAD dev:\n%s", b.String())
	// Since issue 23 a reply is given only when the answerability model finds it answers
	// (engine/answerability.json), so some right quotes of the old coverage rule are now
	// declined: answer in reply 92.7/90.2/92.4% → 90.2/87.0/89.2% with 30/48/34 fallbacks,
	// against questions on absent articles declined 0.94–0.98 (TestXQuADAbsent). German
	// compounds the KB writes apart (engine/decompound.go) took German to 88.1%, 43 fallbacks.
	floors := map[string]LangReport{
		"en": {Top1: 0.96, Top5: 0.99, AnswerInReply: 0.90, MeanReplyChars: 565, Fallbacks: 32},
		"de": {Top1: 0.95, Top5: 0.98, AnswerInReply: 0.875, MeanReplyChars: 565, Fallbacks: 46},
		"tr": {Top1: 0.95, Top5: 0.99, AnswerInReply: 0.88, MeanReplyChars: 565, Fallbacks: 40},
	}
	for _, r := range reports {
		if r.MaxReplyChars > 700 {
			t.Errorf("%s %s: a reply of %d characters, want at most 700", r.Lang, r.Half, r.MaxReplyChars)
		}
		if r.Half != "" {
			continue
		}
		f := floors[r.Lang]
		if r.Questions != 632 {
			t.Errorf("%s: %d questions, want 632", r.Lang, r.Questions)
		}
		if r.Top1 < f.Top1 || r.Top5 < f.Top5 || r.AnswerInReply < f.AnswerInReply {
			t.Errorf("%s: top-1 %.3f, top-5 %.3f, answer in reply %.3f: below the floors %.2f, %.2f, %.2f",
				r.Lang, r.Top1, r.Top5, r.AnswerInReply, f.Top1, f.Top5, f.AnswerInReply)
		}
		if r.MeanReplyChars > f.MeanReplyChars {
			t.Errorf("%s: mean reply %.0f characters, want at most %.0f", r.Lang, r.MeanReplyChars, f.MeanReplyChars)
		}
		if r.Fallbacks > f.Fallbacks {
			t.Errorf("%s: %d fallbacks on answerable questions, want at most %d", r.Lang, r.Fallbacks, f.Fallbacks)
		}
	}
}

// TestHalf checks the split of the dev articles: fixed by the title alone, the same in every
// language, and about even.
func TestHalf(t *testing.T) {
	t.Parallel()
	// The split is fixed by the title (SHA-256's first byte even → A), so BENCHMARKS.md's
	// halves stay the same halves.
	for title, want := range map[string]string{"Normans": HalfA, "Super_Bowl_50": HalfB, "Warsaw": HalfB} {
		if got := Half(title); got != want {
			t.Errorf("Half(%q) = %s, want %s", title, got, want)
		}
	}
	dir := xquadDir(t)
	for _, lg := range []string{"en", "de", "tr"} {
		_, qs, err := loadSQuAD(dir, lg)
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, q := range qs {
			n[q.half]++
		}
		// 281 and 351 of 632 (BENCHMARKS.md), in every language: the same articles.
		if n[HalfA] != 281 || n[HalfB] != 351 {
			t.Errorf("%s: halves %v of %d questions, want A 281 and B 351", lg, n, len(qs))
		}
	}
}

// TestXQuADAblation logs what each ranking and extraction feature adds, by turning it off
// and measuring again. It takes a minute or two, so it runs only when SVC_EVAL_ABLATION is
// set: SVC_EVAL_ABLATION=1 go test -run Ablation -v ./internal/eval/
func TestXQuADAblation(t *testing.T) {
	if os.Getenv("SVC_EVAL_ABLATION") == "" {
		t.Skip("set SVC_EVAL_ABLATION=1 to run")
	}
	dir := xquadDir(t)
	ctx := context.Background()
	var corpora []*corpus
	for _, lg := range []string{"en", "de", "tr"} {
		c, err := loadCorpus(ctx, dir, lg)
		if err != nil {
			t.Fatalf("load %s: %v", lg, err)
		}
		defer c.close()
		corpora = append(corpora, c)
	}
	off := []struct {
		name string
		set  func(*engine.Ranking)
	}{
		{"defaults", func(*engine.Ranking) {}},
		{"no coverage", func(r *engine.Ranking) { r.Coverage = 0 }},
		{"no same-sentence", func(r *engine.Ranking) { r.Sentence = 0 }},
		{"no bigrams", func(r *engine.Ranking) { r.Bigram, r.SentBigram = 0, 0 }},
		{"no title", func(r *engine.Ranking) { r.Title, r.Context, r.ExtractContext = 0, 0, 0 }},
		{"no near matches", func(r *engine.Ranking) { r.Soft = 0 }},
		{"no answer-type cue", func(r *engine.Ranking) { r.Cue = 0 }},
		{"no page-local weights", func(r *engine.Ranking) { r.Local = 0 }},
		{"second window whenever it fits", func(r *engine.Ranking) { r.Margin = 100 }},
		{"all features off", func(r *engine.Ranking) {
			*r = engine.Ranking{K1: r.K1, B: r.B, Margin: r.Margin, Weak: 1}
		}},
	}
	for _, v := range off {
		r := engine.DefaultRanking()
		v.set(&r)
		var b strings.Builder
		var reports []LangReport
		for _, c := range corpora {
			outs, err := c.run(ctx, engine.Options{Ranking: &r})
			if err != nil {
				t.Fatalf("%s: %v", v.name, err)
			}
			for _, h := range []string{HalfA, HalfB} {
				reports = append(reports, summarize(c.lang, h, outs))
			}
		}
		if err := WriteTable(&b, reports); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s:\n%s", v.name, b.String())
	}
}

// TestXQuADOnSmallFile runs the whole report on a two-article file written here, so that
// loading, import, asking and scoring are tested without the shared data.
func TestXQuADOnSmallFile(t *testing.T) {
	dir := t.TempDir()
	type qa struct {
		ID       string `json:"id"`
		Question string `json:"question"`
		Answers  []struct {
			Text string `json:"text"`
		} `json:"answers"`
	}
	mk := func(id, q string, answers ...string) qa {
		x := qa{ID: id, Question: q}
		for _, a := range answers {
			x.Answers = append(x.Answers, struct {
				Text string `json:"text"`
			}{a})
		}
		return x
	}
	type para struct {
		Context string `json:"context"`
		QAs     []qa   `json:"qas"`
	}
	type article struct {
		Title      string `json:"title"`
		Paragraphs []para `json:"paragraphs"`
	}
	file := struct {
		Data []article `json:"data"`
	}{[]article{
		{"Lighthouse_Keeping", []para{
			{"The lighthouse at Cape Morrow was built in 1872 by the harbour board. Its lamp burned whale oil until 1905, when paraffin replaced it.",
				[]qa{mk("1", "When was the lighthouse at Cape Morrow built?", "1872"),
					mk("2", "What fuel replaced whale oil in the lamp?", "paraffin")}},
			{"Keepers lived in two cottages beside the tower. Each keeper served a shift of four hours during the night.",
				[]qa{mk("3", "How long was a keeper's night shift?", "four hours")}},
		}},
		{"Beekeeping", []para{
			{"A healthy hive holds around 50,000 bees in summer. The queen lays up to 2,000 eggs a day.",
				[]qa{mk("4", "How many eggs does the queen lay a day?", "2,000"),
					mk("5", "What is the capital of Peru?", "Lima")}},
		}},
	}}
	raw, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "xquad.en.dev.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	reports, err := XQuAD(context.Background(), dir, []string{"en"})
	if err != nil {
		t.Fatalf("XQuAD: %v", err)
	}
	if len(reports) != 1 {
		t.Fatalf("%d reports, want 1", len(reports))
	}
	r := reports[0]
	if r.Lang != "en" || r.Questions != 5 {
		t.Errorf("report %+v: want en with 5 questions", r)
	}
	// Four questions are answerable from their paragraph; the Peru question is not.
	if r.Top1 != 0.8 || r.Top5 != 0.8 || r.AnswerInReply != 0.8 || r.Fallbacks != 1 {
		t.Errorf("report %+v: want top-1, top-5 and answer-in-reply 0.8 and one fallback", r)
	}
	if r.MeanReplyChars < 50 || r.MeanReplyChars > 400 {
		t.Errorf("mean reply length %.0f characters", r.MeanReplyChars)
	}

	if _, err := XQuAD(context.Background(), dir, []string{"de"}); err == nil {
		t.Error("XQuAD with a missing language file succeeded")
	}
}

func TestContainsAnswer(t *testing.T) {
	tests := []struct {
		reply   string
		answers []string
		want    bool
	}{
		{"It opened in 1872.", []string{"1872"}, true},
		{"Kept by the Harbour Board.", []string{"harbour board"}, true},
		{"four\u00a0hours a night", []string{"four hours"}, true},
		{"four\n  hours", []string{"Four Hours"}, true},
		{"Ayakkabıların iadesi", []string{"ayakkabıların"}, true},
		{"It opened in 1872.", []string{"1873", "paraffin"}, false},
		{"anything", []string{""}, false},
	}
	for _, tt := range tests {
		if got := containsAnswer(tt.reply, tt.answers); got != tt.want {
			t.Errorf("containsAnswer(%q, %q) = %v, want %v", tt.reply, tt.answers, got, tt.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	err := WriteTable(&b, []LangReport{{Lang: "tr", Questions: 632, Top1: 0.953, Top5: 0.992,
		AnswerInReply: 0.856, MeanReplyChars: 347.4, Fallbacks: 8}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"lang", "answer in reply", "tr", "632", "95.3%", "99.2%", "85.6%", "347", "8"} {
		if !strings.Contains(out, want) {
			t.Errorf("table %q lacks %q", out, want)
		}
	}
}

// TestXQuADAbsent measures answerability on XQuAD with a KB of part of the articles (InKB):
// questions on the articles in the KB must be answered, those on the articles left out
// declined, per language and per half (A tuned on, B confirming). The floors are a little
// under what the engine reaches (BENCHMARKS.md, "Answerability").
func TestXQuADAbsent(t *testing.T) {
	if testing.Short() {
		t.Skip("the XQuAD report takes a while; skipped in -short mode")
	}
	dir := xquadDir(t)
	reps, err := XQuADAbsent(context.Background(), dir, []string{"en", "de", "tr"}, []string{HalfA, HalfB}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lang half  answered (of present)  declined (of absent)  wrong answers\n")
	for _, r := range reps {
		fmt.Fprintf(&b, "%4s %4s  %3d/%3d %.3f           %3d/%3d %.3f          %d\n", r.Lang, r.Half, r.Answered, r.Present,
			r.AnswerRate, r.Declined, r.Absent, r.DeclineRate, r.WrongAnswered)
	}
	t.Logf("XQuAD, absent articles:\n%s", b.String())
	for _, r := range reps {
		if r.Present == 0 || r.Absent == 0 {
			t.Errorf("%s %s: %d present and %d absent questions", r.Lang, r.Half, r.Present, r.Absent)
			continue
		}
		if r.AnswerRate < absentFloors.answer || r.DeclineRate < absentFloors.decline {
			t.Errorf("%s %s: answered %.3f, declined %.3f: below the floors %.2f, %.2f", r.Lang, r.Half,
				r.AnswerRate, r.DeclineRate, absentFloors.answer, absentFloors.decline)
		}
	}
}

// absentFloors hold for every language and half of TestXQuADAbsent.
var absentFloors = struct{ answer, decline float64 }{answer: 0.80, decline: 0.92}
