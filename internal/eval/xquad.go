package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"svc/internal/engine"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// LangReport is the answer quality of the built-in engine on one language of XQuAD.
type LangReport struct {
	Lang string `json:"lang"`
	// Half is the half of the dev articles measured (HalfA, HalfB), or "" for all of them.
	Half      string `json:"half,omitempty"`
	Questions int    `json:"questions"`
	// Top1 and Top5 are the fractions of questions whose source paragraph is the first, or
	// among the first five, passages retrieved.
	Top1 float64 `json:"top1"`
	Top5 float64 `json:"top5"`
	// AnswerInReply is the fraction of questions whose reply contains a gold answer
	// (case-insensitive, white space normalized).
	AnswerInReply float64 `json:"answer_in_reply"`
	// MeanReplyChars is the mean reply length in characters, lead-in and source line included;
	// MaxReplyChars the longest.
	MeanReplyChars float64 `json:"mean_reply_chars"`
	MaxReplyChars  int     `json:"max_reply_chars"`
	// Fallbacks counts the questions answered with the "no answer, please rephrase" fallback;
	// every XQuAD question has an answer, so each one is a miss.
	Fallbacks int `json:"fallbacks"`
}

// outcome is what happened to one question.
type outcome struct {
	q          question
	rank       int // 1-based position of the source page among the passages, 0 = not in the top 5
	reply      string
	found      bool
	confident  bool
	inTokens   int
	outTokens  int
	firstTitle string
	// score and feats are the reply's answerability and the evidence it was scored on.
	score float64
	feats engine.Features
}

// XQuAD measures the engine with default options on the XQuAD dev files in dir for each
// language. See XQuADWith.
func XQuAD(ctx context.Context, dir string, langs []string) ([]LangReport, error) {
	return XQuADWith(ctx, dir, langs, engine.Options{})
}

// XQuADWith imports every paragraph of dir/xquad.<lang>.dev.json as a page of a fresh
// account in a fresh SQLite store (in a temporary directory, removed afterwards), then asks
// every question: Retrieve's top five decide Top1 and Top5, and Answer's reply decides
// AnswerInReply and the reply length.
func XQuADWith(ctx context.Context, dir string, langs []string, opts engine.Options) ([]LangReport, error) {
	return XQuADHalves(ctx, dir, langs, []string{""}, opts)
}

// XQuADHalves is XQuADWith reported per half of the dev articles (see Half): one report per
// language and entry of halves, in that order, where "" stands for all the articles. Every
// paragraph of the language is in the KB whichever half is reported, so that retrieval is
// as hard as on the whole file; only the questions asked differ.
func XQuADHalves(ctx context.Context, dir string, langs, halves []string, opts engine.Options) ([]LangReport, error) {
	for _, h := range halves {
		if h != "" && h != HalfA && h != HalfB {
			return nil, fmt.Errorf("unknown half %q (want %q or %q)", h, HalfA, HalfB)
		}
	}
	reports := make([]LangReport, 0, len(langs)*len(halves))
	for _, lg := range langs {
		outs, err := runLang(ctx, dir, lg, opts)
		if err != nil {
			return nil, err
		}
		for _, h := range halves {
			reports = append(reports, summarize(lg, h, outs))
		}
	}
	return reports, nil
}

// runLang evaluates one language and returns the outcome of every question, in file order.
func runLang(ctx context.Context, dir, lg string, opts engine.Options) ([]outcome, error) {
	c, err := loadCorpus(ctx, dir, lg)
	if err != nil {
		return nil, err
	}
	defer c.close()
	return c.run(ctx, opts)
}

// corpus is one language of XQuAD imported into its own temporary store.
type corpus struct {
	lang      string
	qs        []question
	st        *sqlite.Store
	accountID int64
	tmp       string
}

// loadCorpus imports every paragraph of one language into a fresh store. The caller closes it.
func loadCorpus(ctx context.Context, dir, lg string) (*corpus, error) {
	paras, qs, err := loadSQuAD(dir, lg)
	if err != nil {
		return nil, err
	}
	return newCorpus(ctx, lg, paras, qs)
}

// newCorpus imports paras into a fresh store, to ask qs. The caller closes it.
func newCorpus(ctx context.Context, lg string, paras []paragraph, qs []question) (*corpus, error) {
	tmp, err := os.MkdirTemp("", "svc-eval-xquad-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	c := &corpus{lang: lg, qs: qs, tmp: tmp}
	if err := c.load(ctx, paras); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *corpus) load(ctx context.Context, paras []paragraph) error {
	st, err := sqlite.Open(ctx, c.tmp, sqlite.Options{})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	c.st = st
	acct := store.Account{Name: "xquad-" + c.lang, Plan: store.PlanStarter, Lang: c.lang,
		TonePreset: store.ToneProfessional}
	if err := st.CreateAccount(ctx, &acct, nil); err != nil {
		return fmt.Errorf("create account: %w", err)
	}
	c.accountID = acct.ID
	lines, err := importLines(paras, c.lang)
	if err != nil {
		return fmt.Errorf("render import file: %w", err)
	}
	if _, err := kb.Import(ctx, st, acct.ID, 0, bytes.NewReader(lines)); err != nil {
		return fmt.Errorf("import %s: %w", c.lang, err)
	}
	return nil
}

func (c *corpus) close() {
	if c.st != nil {
		c.st.Close()
	}
	os.RemoveAll(c.tmp)
}

// run asks every question with an engine built with opts, on all CPUs.
func (c *corpus) run(ctx context.Context, opts engine.Options) ([]outcome, error) {
	eng, err := engine.New(c.st, opts)
	if err != nil {
		return nil, err
	}
	outs := make([]outcome, len(c.qs))
	errs := make([]error, len(c.qs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				outs[i], errs[i] = ask(ctx, eng, c.accountID, c.lang, c.qs[i])
			}
		})
	}
	for i := range c.qs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// ask runs one question through Retrieve and Answer.
func ask(ctx context.Context, eng *engine.Engine, accountID int64, lg string, q question) (outcome, error) {
	o := outcome{q: q}
	ps, err := eng.Retrieve(ctx, accountID, q.text, lg, 5)
	if err != nil {
		return o, fmt.Errorf("retrieve %q: %w", q.text, err)
	}
	for i, p := range ps {
		if i == 0 {
			o.firstTitle = p.Title
		}
		if p.URL == q.url {
			o.rank = i + 1
			break
		}
	}
	ans, err := eng.Answer(ctx, engine.Request{AccountID: accountID, Question: q.text, Lang: lg,
		Tone: store.ToneProfessional})
	if err != nil {
		return o, fmt.Errorf("answer %q: %w", q.text, err)
	}
	o.reply, o.confident = ans.Text, ans.Confident
	o.score, o.feats = ans.Answerability, ans.Features
	o.inTokens, o.outTokens = ans.InputTokens, ans.OutputTokens
	o.found = containsAnswer(ans.Text, q.answers)
	return o, nil
}

// summarize reports the outcomes of the questions of half ("" for all).
func summarize(lg, half string, all []outcome) LangReport {
	outs := all
	if half != "" {
		outs = nil
		for _, o := range all {
			if o.q.half == half {
				outs = append(outs, o)
			}
		}
	}
	r := LangReport{Lang: lg, Half: half, Questions: len(outs)}
	if len(outs) == 0 {
		return r
	}
	var top1, top5, found, chars int
	for _, o := range outs {
		if o.rank == 1 {
			top1++
		}
		if o.rank >= 1 {
			top5++
		}
		if o.found {
			found++
		}
		if !o.confident {
			r.Fallbacks++
		}
		n := utf8.RuneCountInString(o.reply)
		chars += n
		r.MaxReplyChars = max(r.MaxReplyChars, n)
	}
	n := float64(len(outs))
	r.Top1, r.Top5 = float64(top1)/n, float64(top5)/n
	r.AnswerInReply = float64(found) / n
	r.MeanReplyChars = float64(chars) / n
	return r
}

// containsAnswer reports whether reply contains any of the gold answers, compared
// case-insensitively after NFC normalization with every run of Unicode white space read as
// one space.
func containsAnswer(reply string, answers []string) bool {
	r := normalizeText(reply)
	for _, a := range answers {
		if a := normalizeText(a); a != "" && strings.Contains(r, a) {
			return true
		}
	}
	return false
}

func normalizeText(s string) string {
	s = strings.ToLower(norm.NFC.String(s))
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}
