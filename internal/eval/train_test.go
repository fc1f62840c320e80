package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/crawl"
	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/eval/bitcoinsite"
	"svc/internal/eval/sitetest"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// xquadSamples are the absent-article measurement's questions of every language as samples:
// half A tunes, half B confirms.
func xquadSamples(t *testing.T, opts engine.Options) []Sample {
	t.Helper()
	dir := xquadDir(t)
	var out []Sample
	for _, lg := range []string{"en", "de", "tr"} {
		outs, err := runAbsent(context.Background(), dir, lg, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			out = append(out, Sample{Set: "xquad-" + lg, Tune: o.q.half == HalfA, Feats: o.feats,
				Answerable: o.present, Right: o.present && o.found && o.reply != "", Question: o.q.text, Reply: o.reply, Answered: o.confident})
		}
		// The whole split in the KB: every question answerable, and retrieval harder.
		all, err := runLang(context.Background(), dir, lg, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range all {
			out = append(out, Sample{Set: "xquad-all-" + lg, Tune: o.q.half == HalfA, Feats: o.feats,
				Answerable: true, Right: o.found && o.reply != "", Question: o.q.text, Reply: o.reply, Answered: o.confident})
		}
	}
	return out
}

// siteSamples asks the questions of a site question file through the engine; odd lines tune,
// even lines confirm.
func siteSamples(t *testing.T, set string, eng *engine.Engine, accountID int64, salesMode bool, qs []SiteQuestion) []Sample {
	t.Helper()
	var out []Sample
	for _, q := range qs {
		a, err := eng.Answer(context.Background(), engine.Request{AccountID: accountID, Question: q.Question,
			Lang: q.Lang, SalesMode: salesMode, Tone: store.ToneProfessional})
		if err != nil {
			t.Fatal(err)
		}
		msg := store.Message{Body: a.Text}
		for _, c := range a.Cards {
			msg.Products = append(msg.Products, c.Product)
		}
		answerable := !q.Decline
		right := answerable && a.Text != "" && len(check(q, msg)) == 0
		out = append(out, Sample{Set: set + "-" + q.Lang, Tune: q.Line%2 == 1, Feats: a.Features,
			Answerable: answerable, Right: right, Question: q.Question, Reply: a.Text, Answered: a.Confident})
	}
	return out
}

// accountStore is a fresh store with one account, named name.
func accountStore(t *testing.T, name string) (*sqlite.Store, int64) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	bal := int64(1_000_000)
	a, _, err := account.New(st, nil).Create(context.Background(), account.Settings{Name: &name, BalanceMicro: &bal})
	if err != nil {
		t.Fatal(err)
	}
	return st, a.ID
}

// demoStore is the demo shop's KB in a fresh store.
func demoStore(t *testing.T) (*sqlite.Store, int64) {
	t.Helper()
	st, id := accountStore(t, "Demo")
	if _, err := kb.Import(context.Background(), st, id, 0, demo.Reader()); err != nil {
		t.Fatal(err)
	}
	return st, id
}

// crawledStore crawls a test site into a fresh store, one page at a time: the order of the
// documents decides ties between equal passages, and the fit must see the same ones each run.
func crawledStore(t *testing.T, url string) (*sqlite.Store, int64) {
	t.Helper()
	ctx := context.Background()
	st, id := accountStore(t, "Site")
	site, _, err := crawl.AddSite(ctx, st, id, url, "site", true) // a loopback test site
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crawl.New(st, crawl.Options{AllowPrivate: true, MaxPages: 1000, Timeout: 10 * time.Second,
		Workers: 1}, nil).
		Crawl(ctx, site, "", nil); err != nil {
		t.Fatal(err)
	}
	return st, id
}

// devSamples gathers the samples of every dev set with the engine built by opts.
func devSamples(t *testing.T, opts engine.Options) []Sample {
	t.Helper()
	samples := xquadSamples(t, opts)
	st, id := demoStore(t)
	eng, err := engine.New(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	samples = append(samples, siteSamples(t, "demo", eng, id, true, readQuestionFile(t, "demo.jsonl"))...)
	site := sitetest.Serve(t)
	mst, mid := crawledStore(t, site.URL+"/")
	meng, err := engine.New(mst, opts)
	if err != nil {
		t.Fatal(err)
	}
	samples = append(samples, siteSamples(t, "monero", meng, mid, true, readQuestionFile(t, "monero.jsonl"))...)
	bsite := bitcoinsite.Serve(t)
	bst, bid := crawledStore(t, bsite.URL+"/")
	beng, err := engine.New(bst, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, lg := range []string{"en", "de", "tr"} {
		raw, err := bitcoinsite.QuestionFile(bsite.Src, lg)
		if err != nil {
			t.Fatal(err)
		}
		qs, err := ReadQuestions(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, siteSamples(t, "bitcoin", beng, bid, false, qs)...)
	}
	balance(samples)
	return samples
}

// TestTrainAnswerability fits the answerability model on the tuning halves of the dev sets,
// draws its threshold curve on both halves and logs it with each set's outcome; with
// SVC_EVAL_TRAIN=write it also writes the model to internal/engine/answerability.json; with
// SVC_EVAL_TRAIN=shipped it measures the shipped model instead of fitting one.
// SVC_EVAL_TRAIN=1 go test -run TrainAnswerability -v ./internal/eval/
func TestTrainAnswerability(t *testing.T) {
	mode := os.Getenv("SVC_EVAL_TRAIN")
	if mode == "" {
		t.Skip("set SVC_EVAL_TRAIN=1 (or =write) to fit the answerability model")
	}
	samples := devSamples(t, engine.Options{MinAnswerability: -1})
	var tune, confirm []Sample
	for _, s := range samples {
		if s.Tune {
			tune = append(tune, s)
		} else {
			confirm = append(confirm, s)
		}
	}
	l2 := 0.01
	if v, err := strconv.ParseFloat(os.Getenv("SVC_EVAL_L2"), 64); err == nil {
		l2 = v
	}
	m := Fit(tune, l2, 3000)
	curveT, curveC := Curve(m, tune, Thresholds()), Curve(m, confirm, Thresholds())
	cost := 1.25
	if v, err := strconv.ParseFloat(os.Getenv("SVC_EVAL_COST"), 64); err == nil {
		cost = v
	}
	chosen := ChooseThreshold(curveT, cost)
	m.Threshold = chosen.Threshold
	if mode == "shipped" {
		// The model the engine ships with, measured on today's code: its curve and sets.
		shipped, err := engine.DefaultAnswerability()
		if err != nil {
			t.Fatal(err)
		}
		m = shipped
		curveT, curveC = Curve(m, tune, Thresholds()), Curve(m, confirm, Thresholds())
		chosen.Threshold = m.Threshold
	}
	m.Trained = fmt.Sprintf("fitted on the tuning halves of %s; threshold at the least cost on them, a wrong answer costing 1.25 wrong declines",
		strings.Join(setNames(tune), ", "))
	raw, err := m.MarshalFile()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.ParseAnswerability(raw); err != nil {
		t.Fatalf("the model would not load: %v", err)
	}
	for _, set := range setNames(samples) {
		halves := map[bool]bool{}
		for _, s := range samples {
			if s.Set == set {
				halves[s.Tune] = true
			}
		}
		if len(halves) != 2 {
			t.Errorf("%s: questions in one half only", set)
		}
	}
	var b strings.Builder
	if err := WriteCurve(&b, curveT, curveC, chosen.Threshold); err != nil {
		t.Fatal(err)
	}
	t.Logf("model %+v\n%s", m, b.String())
	b.Reset()
	writeSetReports(&b, ReportSets(m, samples))
	t.Logf("per set at %.3f:\n%s", m.Threshold, b.String())
	if dump := os.Getenv("SVC_EVAL_DUMP"); dump != "" {
		raw, err := json.Marshal(samples)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dump, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if mode == "write" {
		if err := os.WriteFile("../engine/answerability.json", raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func setNames(samples []Sample) []string {
	seen := map[string]bool{}
	var names []string
	for _, s := range samples {
		if !seen[s.Set] {
			seen[s.Set] = true
			names = append(names, s.Set)
		}
	}
	return names
}

func writeSetReports(b *strings.Builder, reps []SetReport) {
	fmt.Fprintln(b, "| set | half | answerable right | unanswerable declined | wrong answers | wrong declines |")
	fmt.Fprintln(b, "|---|---|---|---|---|---|")
	for _, r := range reps {
		half := "confirming"
		if r.Tune {
			half = "tuning"
		}
		fmt.Fprintf(b, "| %s | %s | %d/%d | %d/%d | %d | %d |\n", r.Set, half, r.Right, r.Answerable, r.Declined, r.Unanswerable,
			r.WrongAnswered, r.WrongDeclined)
	}
}
