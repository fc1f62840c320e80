package engine

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"svc/internal/textindex"
)

// Answerability is the one decision of whether a candidate reply answers its question: a
// logistic model over evidence that holds on any site, not rules fitted to questions seen
// (see Features). Its weights and threshold are data (answerability.json), fitted by
// `SVC_EVAL_TRAIN=1 go test -run TrainAnswerability ./internal/eval/` on the tuning halves
// of the dev sets and confirmed on the other halves (BENCHMARKS.md, "Answerability").
type Answerability struct {
	// Features names the inputs in the order of Weights; the file must name exactly the
	// engine's features (FeatureNames), so a stale file fails at start, not in a reply.
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	// Threshold is the least score a reply is given at; below it the reply is the fallback.
	Threshold float64 `json:"threshold"`
	// Trained says what the weights were fitted on, for the reader of the file.
	Trained string `json:"trained"`
}

// The features of a candidate reply, each in [0, 1] or a small range, so that weights
// compare (see Features for what each measures).
const (
	featCoverage  = iota // question weight the best passage holds
	featSentence         // question weight the best quoted sentence holds
	featQuote            // question weight the quoted text holds
	featMissing          // heaviest question term the passage lacks
	featUnseen           // question weight the KB never mentions
	featUnseen2          // its square
	featTwoMet           // at least two of the question's terms meet in the best passage
	featKindHeld         // the question asks for a kind of answer and the quote holds one
	featKindLacks        // the question asks for a kind of answer and the quote holds none
	featHead             // question weight the passage's title and heading hold
	featMargin           // how far the best document stands above the next
	featOneTerm          // the question has a single content term
	featEntry            // an FAQ entry whose question is this question
	featOtherLang        // the best passage is in another language than the question
	featGerman           // the question is German: its compounds and inflections match less
	featTurkish          // the question is Turkish: its prefixes match more
	numFeatures
)

// FeatureNames are the names of the features, in order; answerability.json uses them.
var FeatureNames = [numFeatures]string{
	featCoverage:  "coverage",
	featSentence:  "sentence",
	featQuote:     "quote",
	featMissing:   "missing",
	featUnseen:    "unseen",
	featUnseen2:   "unseen2",
	featTwoMet:    "two_met",
	featKindHeld:  "kind_held",
	featKindLacks: "kind_lacks",
	featHead:      "head",
	featMargin:    "margin",
	featOneTerm:   "one_term",
	featEntry:     "entry",
	featOtherLang: "other_lang",
	featGerman:    "german",
	featTurkish:   "turkish",
}

// FeatureSigns is the direction each feature may push the score when the model is fitted:
// +1 evidence for an answer, -1 evidence against it.
var FeatureSigns = [numFeatures]float64{
	featCoverage:  1,
	featSentence:  1,
	featQuote:     1,
	featMissing:   -1,
	featUnseen:    -1,
	featUnseen2:   -1,
	featTwoMet:    1,
	featKindHeld:  1,
	featKindLacks: -1,
	featHead:      1,
	featMargin:    1,
	featOneTerm:   -1,
	featEntry:     1,
	featOtherLang: -1,
	// 0: either way; the language only calibrates the others.
}

// Features is the evidence a candidate reply stands on.
type Features [numFeatures]float64

// Map returns the features by name, for reports.
func (f Features) Map() map[string]float64 {
	m := make(map[string]float64, numFeatures)
	for i, v := range f {
		m[FeatureNames[i]] = v
	}
	return m
}

//go:embed answerability.json
var answerabilityJSON []byte

// DefaultAnswerability returns the fitted model the engine ships with.
func DefaultAnswerability() (Answerability, error) {
	return ParseAnswerability(answerabilityJSON)
}

// ParseAnswerability reads and validates a model file.
func ParseAnswerability(raw []byte) (Answerability, error) {
	var m Answerability
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("answerability model: %w", err)
	}
	if len(m.Features) != numFeatures || len(m.Weights) != numFeatures {
		return m, fmt.Errorf("answerability model: %d features and %d weights, want %d of each",
			len(m.Features), len(m.Weights), numFeatures)
	}
	for i, name := range m.Features {
		if name != FeatureNames[i] {
			return m, fmt.Errorf("answerability model: feature %d is %q, want %q", i, name, FeatureNames[i])
		}
	}
	for _, w := range append(m.Weights, m.Bias, m.Threshold) {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return m, fmt.Errorf("answerability model: a weight is not a number")
		}
	}
	if m.Threshold <= 0 || m.Threshold >= 1 {
		return m, fmt.Errorf("answerability model: threshold %v outside (0, 1)", m.Threshold)
	}
	return m, nil
}

// Score is the model's probability that a reply with these features answers its question.
func (m *Answerability) Score(f Features) float64 {
	z := m.Bias
	for i, v := range f {
		z += m.Weights[i] * v
	}
	return 1 / (1 + math.Exp(-z))
}

// loneMargin is the mean margin of the best passage over the dev sets' questions (0.48–0.53
// per set), given to a candidate that has no other to be measured against.
const loneMargin = 0.5

// features measures the evidence of the reply quoted as ex for r's question, with cands the
// best passage of each document, best first.
func (e *Engine) features(r *retrieval, cands []candidate, ex extract) Features {
	var f Features
	q := &r.q
	if len(cands) == 0 || q.total == 0 || q.gateTotal <= 0 {
		return f
	}
	best := &cands[0]
	gate := q.total / q.gateTotal
	// Weight met only by a word of another sense is no evidence (see senseOnly). hopeless
	// and assess both measure the same best passage: it is read once (bestRead).
	if r.best == nil || r.best.chunk != best.hit.ChunkID {
		_, strength := q.termFreqs(strings.Fields(best.hit.Terms), e.rank.Soft)
		r.best = &bestRead{chunk: best.hit.ChunkID, sense: senseOnly(q, best, best.lang(q)), strength: strength}
	}
	sense := r.best.sense
	f[featCoverage] = max(0, min(best.coverage*gate, 1)-sense*gate)

	// The terms the best passage holds, in its stored terms or its heading.
	held := make([]float64, len(q.terms))
	copy(held, r.best.strength)
	head := 0.0
	for i, s := range best.inHead {
		held[i] = max(held[i], s)
		head += s * q.idf[i]
	}
	if r.product != nil {
		// The page answers about a product the question names: the product's name is
		// evidence of the reply too.
		name := productNameMatch(q, r.question, r.product.hit, e.rank.Soft)
		for i, s := range name {
			held[i] = max(held[i], s)
		}
		f[featCoverage] = max(f[featCoverage], q.strengthWeight(held)/q.gateTotal-sense*gate)
	}
	// A word the KB never uses that a quoted list answers is met by the list, nearly.
	listed, listSent := listedInstead(r, ex)
	if listed >= 0 {
		held[listed] = max(held[listed], e.rank.Soft)
		f[featCoverage] = max(f[featCoverage], q.strengthWeight(held)/q.gateTotal-sense*gate)
	}
	met := 0
	for _, h := range held {
		if h > 0 {
			met++
		}
	}
	if met >= 2 {
		f[featTwoMet] = 1
	}
	f[featHead] = head / q.total

	missing, unseen := 0.0, 0.0
	for i, t := range q.terms {
		if i < len(q.light) && q.light[i] {
			continue
		}
		// Measured in the gate's weights: an unseen German verb is no missing subject.
		if held[i] == 0 {
			missing = max(missing, q.gateIdf[i])
		}
		if r.docFreq[t.Text] == 0 && held[i] == 0 {
			unseen += q.gateIdf[i]
		}
	}
	f[featMissing] = missing / q.gateTotal
	f[featUnseen] = unseen / q.gateTotal
	// Squared, so that a subject the KB never names weighs more the more of the question it is.
	f[featUnseen2] = f[featUnseen] * f[featUnseen]
	if len(q.terms) == 1 {
		f[featOneTerm] = 1
	}
	f[featEntry] = best.entry
	if best.hit.Lang != "" && best.hit.Lang != q.lang {
		f[featOtherLang] = 1
	}
	switch q.lang {
	case "de":
		f[featGerman] = 1
	case "tr":
		f[featTurkish] = 1
	}
	// A lone candidate has no rest to stand above: a rare word matched one document of many,
	// or the KB has one page. It gets the margin a best passage has on average on the dev
	// sets, so that it neither helps nor hurts.
	switch {
	case len(cands) > 1 && best.score > 0:
		f[featMargin] = max(0, (best.score-cands[1].score)/best.score)
	case len(cands) == 1:
		f[featMargin] = loneMargin
	}
	if ex.text == "" {
		return f
	}
	lg := best.lang(q)
	// The best sentence of the quoted document, and the quote as a whole.
	sent := 0.0
	for _, ci := range ex.read {
		for _, s := range ex.cands[ci].sents {
			if s.quote {
				sent = max(sent, q.seqWeight(s.seq, s.strength, nil))
			}
		}
	}
	if listed >= 0 {
		sent = max(sent, q.seqWeight(listSent.seq, listSent.strength, nil)+e.rank.Soft*q.idf[listed])
	}
	f[featSentence] = max(0, sent/q.total-sense)
	inQuote := slices.Clone(ex.held)
	if listed >= 0 {
		inQuote[listed] = max(inQuote[listed], e.rank.Soft)
	}
	f[featQuote] = max(0, q.strengthWeight(inQuote)/q.total-sense)
	if q.kind != askOther {
		if hasCue(ex.text, q.kind, lg, q.raw) {
			f[featKindHeld] = 1
		} else {
			f[featKindLacks] = 1
		}
	}
	return f
}

// assess scores the candidate reply ex: its features and the model's score. ok is false when
// the reply should be the fallback.
func (e *Engine) assess(r *retrieval, cands []candidate, ex extract) (Features, float64, bool) {
	if len(cands) == 0 || ex.text == "" {
		return Features{}, 0, false
	}
	f := e.features(r, cands, ex)
	s := e.model.Score(f)
	if e.opts.MinAnswerability < 0 {
		return f, s, true
	}
	return f, s, s >= e.threshold()
}

// hopeless reports whether no quote could make the reply answer: the score with the best a
// quote can add (its best sentence and the quote holding all of the question, the kind of
// answer asked for held) is below the threshold. Extraction is then skipped, which spares a
// decline most of its cost.
func (e *Engine) hopeless(r *retrieval, cands []candidate) bool {
	if len(cands) == 0 || e.opts.MinAnswerability < 0 {
		return len(cands) == 0
	}
	if r.q.kind == askOther && isYesNo(textindex.Words(r.question, r.q.lang), r.q.lang) {
		return false // a quoted list may answer what it omits (listedInstead), seen only in the quote
	}
	f := e.features(r, cands, extract{})
	f[featSentence], f[featQuote] = 1, 1
	if r.q.kind != askOther {
		f[featKindHeld] = 1
	}
	return e.model.Score(f) < e.threshold()
}

// threshold is the least answerability a reply is given at.
func (e *Engine) threshold() float64 {
	if e.opts.MinAnswerability > 0 {
		return e.opts.MinAnswerability
	}
	return e.model.Threshold
}

// MarshalFile renders the model as answerability.json holds it.
func (m Answerability) MarshalFile() ([]byte, error) {
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(raw, '\n'), nil
}
