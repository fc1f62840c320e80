package eval

import (
	"context"
	"crypto/sha256"
	"fmt"

	"svc/internal/engine"
)

// InKB reports whether an article is in the KB of the absent-article measurement: when the
// second bit of the first byte of the SHA-256 of its title is clear. With Half (the first
// bit) it cuts the dev articles in four: each half has articles in the KB, whose questions
// should be answered, and articles left out, whose questions the KB cannot answer and
// should be declined.
func InKB(title string) bool {
	return sha256.Sum256([]byte(title))[0]&2 == 0
}

// AbsentReport is the answerability of the built-in engine on one language and half of
// XQuAD when the KB holds only some of the articles (InKB): the questions on articles in
// the KB should be answered, the others declined.
type AbsentReport struct {
	Lang string `json:"lang"`
	Half string `json:"half,omitempty"`
	// Present counts questions on articles in the KB; Answered those whose reply holds a
	// gold answer; WrongAnswered those given a confident reply without one.
	Present       int     `json:"present"`
	Answered      int     `json:"answered"`
	AnswerRate    float64 `json:"answer_rate"`
	WrongAnswered int     `json:"wrong_answered"`
	// Absent counts questions on articles left out; Declined those given the fallback.
	Absent      int     `json:"absent"`
	Declined    int     `json:"declined"`
	DeclineRate float64 `json:"decline_rate"`
}

// absentOutcome is one question of the absent-article measurement.
type absentOutcome struct {
	outcome
	present bool
}

// XQuADAbsent measures each language with a KB of the articles InKB accepts, asking every
// question of the file, one report per language and entry of halves ("" for all).
func XQuADAbsent(ctx context.Context, dir string, langs, halves []string, opts engine.Options) ([]AbsentReport, error) {
	var reports []AbsentReport
	for _, lg := range langs {
		outs, err := runAbsent(ctx, dir, lg, opts)
		if err != nil {
			return nil, err
		}
		for _, h := range halves {
			reports = append(reports, summarizeAbsent(lg, h, outs))
		}
	}
	return reports, nil
}

// runAbsent imports the articles in the KB of one language and asks every question.
func runAbsent(ctx context.Context, dir, lg string, opts engine.Options) ([]absentOutcome, error) {
	paras, qs, err := loadSQuAD(dir, lg)
	if err != nil {
		return nil, err
	}
	var kept []paragraph
	inKB := map[string]bool{}
	for _, p := range paras {
		if InKB(p.article) {
			kept = append(kept, p)
			inKB[p.url] = true
		}
	}
	if len(kept) == 0 || len(kept) == len(paras) {
		return nil, fmt.Errorf("xquad %s: the KB would hold %d of %d paragraphs", lg, len(kept), len(paras))
	}
	c, err := newCorpus(ctx, lg, kept, qs)
	if err != nil {
		return nil, err
	}
	defer c.close()
	outs, err := c.run(ctx, opts)
	if err != nil {
		return nil, err
	}
	res := make([]absentOutcome, len(outs))
	for i, o := range outs {
		res[i] = absentOutcome{outcome: o, present: inKB[o.q.url]}
	}
	return res, nil
}

func summarizeAbsent(lg, half string, outs []absentOutcome) AbsentReport {
	r := AbsentReport{Lang: lg, Half: half}
	for _, o := range outs {
		if half != "" && o.q.half != half {
			continue
		}
		if o.present {
			r.Present++
			switch {
			case o.confident && o.found:
				r.Answered++
			case o.confident:
				r.WrongAnswered++
			}
			continue
		}
		r.Absent++
		if !o.confident {
			r.Declined++
		}
	}
	r.AnswerRate, r.DeclineRate = ratio(r.Answered, r.Present), ratio(r.Declined, r.Absent)
	return r
}
