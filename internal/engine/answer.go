package engine

import (
	"context"
	"strings"

	"svc/internal/lang"
)

// Answer is a reply to one question.
type Answer struct {
	Text      string    // the reply, in the question's language
	Confident bool      // false: Text is a fallback suggesting a rephrase; nothing was found
	DocIDs    []int64   // documents the reply was drawn from (cited)
	Passages  []Passage // what was retrieved, best first (empty for a fallback)
	// Token counts with the o200k_base tokenizer: input is the question plus every passage
	// text the engine read to compose the reply; output is the reply text.
	InputTokens, OutputTokens int
}

// Answer retrieves passages for the question and composes an extractive reply: the best one
// or two sentences, a short lead-in in the request's tone and the source page. When the
// knowledge base has nothing that covers enough of the question, the reply is a fallback
// that asks the visitor to rephrase.
func (e *Engine) Answer(ctx context.Context, req Request) (Answer, error) {
	lg := req.Lang
	switch lg {
	case lang.TR, lang.EN, lang.DE:
	default:
		lg = lang.DetectOr(req.Question, lang.EN)
	}
	q, ranked, err := e.retrieve(ctx, req.AccountID, req.Question, lg)
	if err != nil {
		return Answer{}, err
	}
	cands := bestPerDoc(ranked, e.opts.AnswerPassages)
	ph := phrasesFor(lg, req.Tone)
	if !e.confident(&q, cands) {
		return e.fallback(req.Question, ph), nil
	}
	ex := e.rank.extractAnswer(&q, ranked, req.Question, e.opts.MaxReplyChars)
	if ex.text == "" {
		return e.fallback(req.Question, ph), nil
	}
	text := ph.lead + " " + ex.text + "\n" + sourceLine(lg, ranked, ex.docIDs)
	in := e.CountTokens(req.Question)
	for _, ci := range ex.read {
		in += e.CountTokens(ranked[ci].hit.Text)
	}
	ans := Answer{
		Text:         text,
		Confident:    true,
		DocIDs:       ex.docIDs,
		Passages:     make([]Passage, len(cands)),
		InputTokens:  in,
		OutputTokens: e.CountTokens(text),
	}
	for i := range cands {
		ans.Passages[i] = cands[i].passage()
	}
	return ans, nil
}

// confident decides whether the best passage answers the question at all: it must contain
// at least MinCoverage of the question's term weight. Terms that no chunk of the account
// contains carry the highest weight, so a question about a subject the KB never mentions
// falls short even when a generic word of it matches.
func (e *Engine) confident(q *query, cands []candidate) bool {
	if len(cands) == 0 || q.total == 0 {
		return false
	}
	return cands[0].coverage >= e.opts.MinCoverage
}

func (e *Engine) fallback(question string, ph tonePhrases) Answer {
	return Answer{
		Text:         ph.fallback,
		DocIDs:       []int64{},
		Passages:     []Passage{},
		InputTokens:  e.CountTokens(question),
		OutputTokens: e.CountTokens(ph.fallback),
	}
}

// sourceLine names the cited documents: "Source: Returns (https://…)".
func sourceLine(lg string, cands []candidate, docIDs []int64) string {
	labels, ok := sourceLabels[lg]
	if !ok {
		labels = sourceLabels[lang.EN]
	}
	var names []string
	for _, id := range docIDs {
		for i := range cands {
			h := &cands[i].hit
			if h.DocID != id {
				continue
			}
			name := h.Title
			if h.URL != "" && name != "" {
				name += " (" + h.URL + ")"
			} else if name == "" {
				name = h.URL
			}
			names = append(names, name)
			break
		}
	}
	label := labels[0]
	if len(names) > 1 {
		label = labels[1]
	}
	return label + ": " + strings.Join(names, "; ")
}

