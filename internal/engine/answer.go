package engine

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"unicode/utf8"

	"svc/internal/lang"
	"svc/internal/store"
)

// Answer is a reply to one question.
type Answer struct {
	Text      string // the reply, in the question's language
	Confident bool   // false: Text is a fallback suggesting a rephrase; nothing was found
	// DocIDs are the documents the reply was drawn from (cited), followed by those of its
	// product cards.
	DocIDs []int64
	// Sources name DocIDs' documents for the visitor, at most MaxSources (see Sources); empty
	// for a reply that quotes nothing.
	Sources  []store.Source
	Passages []Passage // what was retrieved, best first (empty for a fallback)
	// Cards are the products the reply is about, most relevant first; only with
	// Request.SalesMode and a question about products, and never more than Options.MaxCards.
	Cards []Card
	// Token counts with the o200k_base tokenizer: input is the question plus every passage
	// text the engine read to compose the reply; output is the reply text.
	InputTokens, OutputTokens int
	// Calls are the billed units of work behind the reply; their tokens sum to InputTokens
	// and OutputTokens. A fallback composed without reading anything has none.
	Calls []Call
	// Degraded marks a reply the built-in engine wrote because the model provider failed:
	// nothing was spent on it, so nothing is charged.
	Degraded bool
	// Question is the question the reply answers: the request's, or the planner's standalone
	// form of a follow-up. An answer is cached under it, never under a fragment whose sense
	// came from the conversation.
	Question string
	// Evidence names the passage sentences the built-in engine would answer Question from
	// ("" when it has no confident answer). Two questions with the same evidence ask for the
	// same thing; the cache uses it to tell a rewording from a question that only looks alike.
	Evidence string
	// Answerability is the score the quoted reply got (see Answerability.Score), 0 when
	// nothing was quoted; Features the evidence it was computed from. A reply below the
	// model's threshold is the fallback, whatever it would have quoted.
	Answerability float64
	Features      Features
	// Grounded reports that the KB holds a passage for the question in some language: the
	// reply is confident, or a chunk found by meaning stands out (semanticPick) in a language
	// the built-in engine does not quote. A model may answer from Passages then.
	Grounded bool
	// EmbeddingModel and EmbeddingTokens are what the search by meaning spent on embedding
	// the question (0 when its embedding was remembered): billed as an embedding event.
	EmbeddingModel  string
	EmbeddingTokens int
}

// Answer retrieves passages for the question and composes an extractive reply: the best one
// or two sentences, a short lead-in in the request's tone and the source page. When the
// knowledge base has nothing that covers enough of the question, the reply is a fallback
// that asks the visitor to rephrase. With Sales Mode, a question about products also gets
// product cards (see salesAnswer).
func (e *Engine) Answer(ctx context.Context, req Request) (Answer, error) {
	a, err := e.answer(ctx, req)
	if err == nil && (a.InputTokens > 0 || a.OutputTokens > 0) {
		a.Calls = []Call{{Name: "engine", InputTokens: a.InputTokens, OutputTokens: a.OutputTokens}}
	}
	a.Question = req.Question
	a.Sources = Sources(a.DocIDs, a.Passages, a.Cards)
	a.Grounded = a.Grounded || a.Confident
	return a, err
}

// Evidence is Answer's retrieval and extraction alone: it names the sentences the engine
// would answer the question from, or "" when none answers it confidently. It costs one
// search and is never billed.
func (e *Engine) Evidence(ctx context.Context, accountID int64, question, lg string) (string, error) {
	lg = questionLang(lg, question)
	r, err := e.retrieve(ctx, accountID, question, lg, semWants{pick: true})
	if err != nil {
		return "", err
	}
	e.prefer(&r, question, lg)
	if err := e.readSection(ctx, accountID, &r); err != nil {
		return "", err
	}
	cands := bestPerDoc(r.ranked, e.opts.AnswerPassages)
	var ex extract
	if !e.hopeless(&r, cands) {
		ex = e.extract(&r, lg, 0)
	}
	if _, _, ok := e.assess(&r, cands, ex); ok {
		return evidenceOf(ex), nil
	}
	if pick, ok := e.semanticPick(&r, lg); ok {
		return evidenceOf(e.semanticExtract(lg, pick)), nil
	}
	return "", nil
}

// leadReserve is the room a reply keeps for its lead-in when the quote's length is chosen,
// so that the same question is quoted alike in every tone (Evidence has no tone). A longer
// lead-in costs the quote the difference (see answer).
const leadReserve = 60

// extract quotes the passage that answers r's question, in the room a reply of at most
// Options.MaxReply characters leaves after the lead-in, the source line and less characters
// (0 normally), and never more than Options.MaxReplyChars.
func (e *Engine) extract(r *retrieval, lg string, less int) extract {
	if len(r.ranked) == 0 {
		return extract{}
	}
	src := utf8.RuneCountInString(sourceLine(lg, &r.ranked[0].hit))
	room := min(e.opts.MaxReplyChars, e.opts.MaxReply-leadReserve-src-2) - less
	if room < minQuote {
		room = minQuote
	}
	return e.rank.extractAnswer(&r.q, r.extractable(), room)
}

// minQuote is the shortest room a quote is given, whatever the source line's length.
const minQuote = 200

// evidenceOf is a short stable name of an extraction: its document and a hash of its text.
func evidenceOf(ex extract) string {
	if ex.text == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(ex.text))
	return fmt.Sprintf("%d:%x", ex.docID, sum[:8])
}

func (e *Engine) answer(ctx context.Context, req Request) (Answer, error) {
	lg := questionLang(req.Lang, req.Question)
	r, err := e.retrieve(ctx, req.AccountID, req.Question, lg, semWants{pick: true, passages: e.opts.AnswerPassages})
	if err != nil {
		return Answer{}, err
	}
	e.prefer(&r, req.Question, lg)
	if err := e.readSection(ctx, req.AccountID, &r); err != nil {
		return Answer{}, err
	}
	cands := bestPerDoc(r.ranked, e.opts.AnswerPassages)
	ph := phrasesFor(lg, req.Tone)
	var ex extract
	if !e.hopeless(&r, cands) {
		ex = e.extract(&r, lg, 0)
	}
	feats, score, ok := e.assess(&r, cands, ex)
	if !ok {
		ex = extract{}
	}
	sem := func(a Answer) Answer { // what the search by meaning adds to any reply
		if r.sem != nil {
			a.EmbeddingModel, a.EmbeddingTokens = r.sem.model, r.sem.tokens
			if !a.Confident {
				_, a.Grounded = e.semanticPick(&r, "")
				if a.Grounded {
					a.Passages = e.fusedPassages(&r, e.opts.AnswerPassages)
				}
			}
		}
		return a
	}
	if req.SalesMode {
		a, err := e.salesAnswer(ctx, req, lg, ph, &r, cands, ex)
		if err == nil && !a.Confident && ex.text == "" {
			if pick, ok := e.semanticPick(&r, lg); ok {
				a, ex = e.semanticAnswer(req.Question, lg, ph, &r, pick)
			}
		}
		a.Evidence = evidenceOf(ex)
		a.Answerability, a.Features = score, feats
		return sem(a), err
	}
	if ex.text == "" {
		if pick, ok := e.semanticPick(&r, lg); ok {
			a, ex := e.semanticAnswer(req.Question, lg, ph, &r, pick)
			a.Evidence = evidenceOf(ex)
			a.Answerability, a.Features = score, feats
			return sem(a), nil
		}
		a := e.fallback(req.Question, ph)
		a.Answerability, a.Features = score, feats
		return sem(a), nil
	}
	a := e.extractive(req.Question, lg, ph, r.ranked, cands, ex)
	if over := utf8.RuneCountInString(a.Text) - e.opts.MaxReply; over > 0 {
		// A lead-in longer than leadReserve: quote less rather than exceed the reply's length.
		ex = e.extract(&r, lg, over)
		a = e.extractive(req.Question, lg, ph, r.ranked, cands, ex)
	}
	a.Evidence = evidenceOf(ex)
	a.Answerability, a.Features = score, feats
	if r.sem != nil {
		a.Passages = e.fusedPassages(&r, e.opts.AnswerPassages)
	}
	return sem(a), nil
}

// extractive wraps the extracted sentences in the lead-in and the source line.
func (e *Engine) extractive(question, lg string, ph tonePhrases, ranked, cands []candidate, ex extract) Answer {
	text := ph.leadFor(question, ex.text) + " " + ex.text + "\n" + sourceLine(lg, &ranked[0].hit)
	return Answer{
		Text:         text,
		Confident:    true,
		DocIDs:       []int64{ex.docID},
		Passages:     passages(cands),
		InputTokens:  e.readTokens(question, ranked, ex),
		OutputTokens: e.textTokens(text),
	}
}

// readTokens counts the question and the chunks extraction scored. A chunk's count was made
// when it was built (the same counter on the same text), so it is only counted here when
// the store has none.
func (e *Engine) readTokens(question string, ranked []candidate, ex extract) int {
	in := e.textTokens(question)
	read := ex.cands
	if read == nil {
		read = ranked
	}
	for _, ci := range ex.read {
		if h := &read[ci].hit; h.Tokens > 0 {
			in += h.Tokens
		} else {
			in += e.CountTokens(h.Text)
		}
	}
	return in
}

// passages lists the candidates as the engine's callers see them.
func passages(cands []candidate) []Passage {
	out := make([]Passage, len(cands))
	for i := range cands {
		out[i] = cands[i].passage()
	}
	return out
}

// questionLang normalizes the caller's language tag ("tr", "DE", "en-GB") to one of the
// engine's languages, and detects the question's language when the tag names none of them.
func questionLang(tag, question string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	switch tag {
	case lang.TR, lang.EN, lang.DE:
		return tag
	}
	return lang.DetectOr(question, lang.EN)
}

// confident is arbitration's quick test of whether a passage covers the question (it picks a
// passage in the reply's language, and tells whether a page vouches for a product); whether
// a reply is given is Answerability's decision. A passage must contain
// MinCoverage of the question's term weight, or MinSupport of it when at least two question
// terms match: two terms meeting in one passage are good evidence of the subject,
// while one shared word ("Istanbul" in "will it rain in Istanbul?") is not. Terms that no
// chunk of the account contains carry the highest weight, so a question about a subject the
// KB never mentions falls short even when a generic word of it matches, unless that term is
// a German verb or adjective (see newQuery). Calibrated on the XQuAD dev split (answerable)
// and the unanswerable questions of the engine's tests.
func (e *Engine) confident(q *query, cands []candidate) bool {
	if len(cands) == 0 || q.total == 0 || q.gateTotal <= 0 {
		return false
	}
	if e.opts.MinCoverage < 0 {
		return true
	}
	best := &cands[0]
	cov := best.coverage * q.total / q.gateTotal
	return cov >= e.opts.MinCoverage || best.matched >= 2 && cov >= e.opts.MinSupport
}

func (e *Engine) fallback(question string, ph tonePhrases) Answer {
	return Answer{
		Text:         ph.fallback,
		DocIDs:       []int64{},
		Passages:     []Passage{},
		InputTokens:  e.textTokens(question),
		OutputTokens: e.textTokens(ph.fallback),
	}
}

// sourceLine names the cited document: "Source: Returns (https://…)", or the title alone
// for a document without a URL (a Q&A, an article).
func sourceLine(lg string, h *store.ChunkHit) string {
	return SourceLine(lg, h.Title, h.URL)
}

// SourceLine is the line that names a reply's source document in lg.
func SourceLine(lg, title, url string) string {
	label, ok := sourceLabels[lg]
	if !ok {
		label = sourceLabels[lang.EN]
	}
	name := title
	switch {
	case name == "":
		name = url
	case url != "":
		name += " (" + url + ")"
	}
	return label + ": " + name
}
