package eval

import (
	"fmt"
	"io"
	"math"
	"sort"

	"svc/internal/engine"
)

// Sample is one question of a dev set as the answerability model sees it: the evidence of
// the reply the engine would quote, and whether that reply would be right.
type Sample struct {
	Set   string // the dev set: "xquad-en", "demo", "bitcoin-de", …
	Tune  bool   // in the tuning half (else the confirming half)
	Feats engine.Features
	// Answerable says the KB answers the question; Right that the quoted reply does.
	Answerable, Right bool
	// Weight balances the sets: every set counts alike, however many questions it has.
	Weight float64
	// Answered says the engine gave the reply (it was not the fallback).
	Answered bool
	// Question and Reply are for reading a dump of the samples.
	Question, Reply string
}

// balance sets every sample's Weight so that each set's answerable and unanswerable
// questions weigh the same in all.
func balance(samples []Sample) {
	n := map[string]int{}
	key := func(s Sample) string { return fmt.Sprint(s.Set, s.Answerable) }
	for _, s := range samples {
		n[key(s)]++
	}
	for i := range samples {
		samples[i].Weight = 100 / float64(n[key(samples[i])])
	}
}

// Fit fits the logistic model P(right | features) to the samples by gradient descent on the
// weighted log loss with an L2 penalty of l2 (features are standardized while fitting, so
// the penalty treats them alike). The threshold is left to ChooseThreshold.
func Fit(samples []Sample, l2 float64, iters int) engine.Answerability {
	const nf = len(engine.FeatureNames)
	var mean, sd [nf]float64
	total := 0.0
	for _, s := range samples {
		total += s.Weight
		for j, v := range s.Feats {
			mean[j] += s.Weight * v
		}
	}
	for j := range mean {
		mean[j] /= total
	}
	for _, s := range samples {
		for j, v := range s.Feats {
			sd[j] += s.Weight * (v - mean[j]) * (v - mean[j])
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / total)
		if sd[j] < 1e-9 {
			sd[j] = 1
		}
	}
	var w [nf]float64
	b := 0.0
	rate := 0.5
	for range iters {
		var gw [nf]float64
		gb := 0.0
		for _, s := range samples {
			z := b
			for j, v := range s.Feats {
				z += w[j] * (v - mean[j]) / sd[j]
			}
			p := 1 / (1 + math.Exp(-z))
			y := 0.0
			if s.Right {
				y = 1
			}
			g := s.Weight * (p - y) / total
			gb += g
			for j, v := range s.Feats {
				gw[j] += g * (v - mean[j]) / sd[j]
			}
		}
		b -= rate * gb
		for j := range w {
			w[j] -= rate * (gw[j] + l2*w[j])
			// Each feature may only push the way its meaning says (more of the question
			// covered is never evidence against an answer): a weight that the dev sets'
			// quirks would turn round stays at zero instead.
			if w[j]*engine.FeatureSigns[j] < 0 {
				w[j] = 0
			}
		}
	}
	m := engine.Answerability{Features: engine.FeatureNames[:], Weights: make([]float64, nf), Bias: b}
	for j := range w {
		m.Weights[j] = round(w[j]/sd[j], 4)
		m.Bias -= w[j] * mean[j] / sd[j]
	}
	m.Bias = round(m.Bias, 4)
	return m
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// CurvePoint is the outcome of one threshold on a set of samples, as weighted shares:
// WrongAnswered of the questions get a reply that does not answer them (every reply to an
// unanswerable question, and wrong replies to answerable ones), WrongDeclined of them get
// the fallback although the reply would have been right, and Right is the share of
// answerable questions answered right.
type CurvePoint struct {
	Threshold     float64
	WrongAnswered float64 // among all questions, weighted
	WrongDeclined float64 // among all questions, weighted
	Declined      float64 // of the unanswerable questions
	Right         float64 // of the answerable questions
}

// Curve evaluates thresholds on samples scored by m.
func Curve(m engine.Answerability, samples []Sample, thresholds []float64) []CurvePoint {
	out := make([]CurvePoint, 0, len(thresholds))
	for _, th := range thresholds {
		var p CurvePoint
		p.Threshold = th
		var all, ans, unans float64
		for _, s := range samples {
			answered := m.Score(s.Feats) >= th
			all += s.Weight
			if s.Answerable {
				ans += s.Weight
			} else {
				unans += s.Weight
			}
			switch {
			case answered && s.Right:
				p.Right += s.Weight
			case answered:
				p.WrongAnswered += s.Weight
			case s.Right:
				p.WrongDeclined += s.Weight
			}
			if !answered && !s.Answerable {
				p.Declined += s.Weight
			}
		}
		p.WrongAnswered /= all
		p.WrongDeclined /= all
		p.Right /= max(ans, 1e-9)
		p.Declined /= max(unans, 1e-9)
		out = append(out, p)
	}
	return out
}

// ChooseThreshold returns the threshold of the curve with the least cost, where a wrong
// answer costs wrongCost times a wrong decline: a confident reply quoting unrelated text
// misleads a customer, a decline only sends them on.
func ChooseThreshold(curve []CurvePoint, wrongCost float64) CurvePoint {
	best := curve[0]
	cost := func(p CurvePoint) float64 { return wrongCost*p.WrongAnswered + p.WrongDeclined }
	for _, p := range curve[1:] {
		if cost(p) < cost(best) {
			best = p
		}
	}
	return best
}

// Thresholds are the points a curve is drawn at.
func Thresholds() []float64 {
	var out []float64
	for t := 0.05; t < 0.951; t += 0.025 {
		out = append(out, round(t, 3))
	}
	return out
}

// WriteCurve writes a curve as a Markdown table.
func WriteCurve(w io.Writer, tune, confirm []CurvePoint, chosen float64) error {
	if _, err := fmt.Fprintln(w, "| threshold | tuning: wrong answers | wrong declines | unanswerable declined | answerable right | confirming: wrong answers | wrong declines | unanswerable declined | answerable right |"); err != nil {
		return err
	}
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for i := range tune {
		mark := ""
		if tune[i].Threshold == chosen {
			mark = " **(chosen)**"
		}
		t, c := tune[i], confirm[i]
		if _, err := fmt.Fprintf(w, "| %.3f%s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", t.Threshold, mark,
			t.WrongAnswered, t.WrongDeclined, t.Declined, t.Right, c.WrongAnswered, c.WrongDeclined, c.Declined, c.Right); err != nil {
			return err
		}
	}
	return nil
}

// SetReport is one dev set's outcome at a model's threshold, per half.
type SetReport struct {
	Set                          string
	Tune                         bool
	Answerable, Right            int
	Unanswerable, Declined       int
	WrongAnswered, WrongDeclined int
}

// ReportSets counts the outcome of each set and half at m's threshold, sorted by set.
func ReportSets(m engine.Answerability, samples []Sample) []SetReport {
	idx := map[string]int{}
	var out []SetReport
	for _, s := range samples {
		k := fmt.Sprint(s.Set, s.Tune)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, SetReport{Set: s.Set, Tune: s.Tune})
		}
		r := &out[i]
		answered := m.Score(s.Feats) >= m.Threshold
		if s.Answerable {
			r.Answerable++
			if answered && s.Right {
				r.Right++
			}
		} else {
			r.Unanswerable++
			if !answered {
				r.Declined++
			}
		}
		if answered && !s.Right {
			r.WrongAnswered++
		}
		if !answered && s.Right {
			r.WrongDeclined++
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Set != out[j].Set {
			return out[i].Set < out[j].Set
		}
		return out[i].Tune && !out[j].Tune
	})
	return out
}
