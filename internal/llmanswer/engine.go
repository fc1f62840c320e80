package llmanswer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/store"
)

// Engine answers with a language model. It is safe for concurrent use.
type Engine struct {
	llm    llm.Client
	base   *engine.Engine
	kb     engine.Searcher
	opts   Options
	canary string // a marker in the reply prompt: a reply that repeats it leaked the prompt
	log    *slog.Logger
}

// New returns an engine that writes with client and reads the knowledge base through base
// (retrieval, product cards, the offline answer) and kb (the products a reply names).
func New(client llm.Client, base *engine.Engine, kb engine.Searcher, opts Options, log *slog.Logger) (*Engine, error) {
	if client == nil || base == nil || kb == nil {
		return nil, errors.New("llmanswer: nil client, engine or searcher")
	}
	if log == nil {
		log = slog.Default()
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("llmanswer: canary: %w", err)
	}
	return &Engine{llm: client, base: base, kb: kb, opts: opts.withDefaults(), canary: "ref-" + hex.EncodeToString(b[:]), log: log}, nil
}

// turnOut is one answer in progress: the calls made so far, which are what it costs.
type turnOut struct {
	calls []engine.Call
	// embedModel and embedTokens are the searches by meaning's question embeddings.
	embedModel  string
	embedTokens int
}

func (t *turnOut) add(name string, r llm.Response) {
	t.calls = append(t.calls, engine.Call{Name: name, Model: r.Model, InputTokens: r.InputTokens, OutputTokens: r.OutputTokens})
}

// finish totals the calls into the answer.
func (t *turnOut) finish(a engine.Answer) engine.Answer {
	a.Calls = t.calls
	a.EmbeddingModel, a.EmbeddingTokens = t.embedModel, t.embedTokens
	a.InputTokens, a.OutputTokens = 0, 0
	for _, c := range t.calls {
		a.InputTokens += c.InputTokens
		a.OutputTokens += c.OutputTokens
	}
	if a.DocIDs == nil {
		a.DocIDs = []int64{}
	}
	if a.Passages == nil {
		a.Passages = []engine.Passage{}
	}
	if a.Sources == nil {
		a.Sources = []store.Source{}
	}
	return a
}

// Answer runs the sub-calls: plan (only with conversation context to resolve), retrieve,
// reply, local guard, check. A provider failure hands the question to the built-in engine
// (Degraded, charged nothing); the caller's cancellation is returned as an error.
func (e *Engine) Answer(ctx context.Context, req engine.Request) (engine.Answer, error) {
	a, err := e.answer(ctx, req)
	if err == nil || ctx.Err() != nil {
		return a, err
	}
	// Only a provider's failure (an *llm.Error, the open breaker included) degrades; a store
	// error is ours and surfaces as one.
	var perr *llm.Error
	if !errors.As(err, &perr) {
		return engine.Answer{}, err
	}
	e.log.Warn("model answer failed; built-in engine answers instead", "account", req.AccountID, "err", err)
	b, berr := e.base.Answer(ctx, req)
	if berr != nil {
		return engine.Answer{}, berr
	}
	b.Degraded, b.Calls, b.InputTokens, b.OutputTokens = true, nil, 0, 0
	return b, nil
}

func (e *Engine) answer(ctx context.Context, req engine.Request) (engine.Answer, error) {
	out := &turnOut{}
	lg := req.Lang
	if instructionLike(req.Question) {
		// A message that only tries to subvert the assistant gets the fallback, and costs
		// nothing: no model is shown it.
		return out.finish(e.fallback(req)), nil
	}
	pl := plan{Standalone: req.Question, Answerable: true}
	if needsPlan(req) {
		p, resp, err := e.plan(ctx, req)
		if err != nil {
			return engine.Answer{}, err
		}
		out.add("plan", resp)
		pl = p
	}
	ctxt, err := e.gather(ctx, req, pl)
	if err != nil {
		return engine.Answer{}, err
	}
	out.embedModel, out.embedTokens = ctxt.embedModel, ctxt.embedTokens
	if !pl.Answerable || ctxt.empty() {
		return out.finish(e.fallback(req)), nil
	}
	// The reply runs through the guard sentence by sentence (release): as the model writes
	// it when the caller streams, else once it is written, to the same body.
	rel := e.newRelease(ctx, req, ctxt)
	var onText func(string)
	if req.Stream != nil {
		onText = rel.write
	}
	text, resp, err := e.reply(ctx, req, pl, ctxt, onText)
	if err != nil {
		return engine.Answer{}, err
	}
	out.add("reply", resp)
	if onText == nil {
		rel.write(text)
	}
	body, cited, ok := rel.finish()
	if rel.err != nil {
		return engine.Answer{}, rel.err
	}
	if !ok {
		return out.finish(e.fallback(req)), nil
	}
	cards := ctxt.cards
	supported, resp, err := e.check(ctx, ctxt, body)
	if err != nil {
		return engine.Answer{}, err
	}
	out.add("check", resp)
	if !supported {
		e.log.Info("reply failed the quality check", "account", req.AccountID)
		rel.decline()
		return out.finish(e.fallback(req)), nil
	}
	if src := ctxt.sourceLine(lg, cited); src != "" {
		rel.add("\n" + src)
		body += "\n" + src
	}
	return out.finish(engine.Answer{
		Text:      body,
		Confident: true,
		DocIDs:    ctxt.docIDs(cited, cards),
		Sources:   ctxt.sources(cited, cards),
		Passages:  ctxt.passages,
		Cards:     cards,
		Question:  pl.Standalone,
		Evidence:  ctxt.evidence,
	}), nil
}

// Evidence is the built-in engine's: the model never decides what a question is about.
func (e *Engine) Evidence(ctx context.Context, accountID int64, question, lang string) (string, error) {
	return e.base.Evidence(ctx, accountID, question, lang)
}

// fallback is the built-in engine's rephrase suggestion in the request's language and tone.
func (e *Engine) fallback(req engine.Request) engine.Answer {
	return engine.Answer{Text: engine.FallbackText(req.Lang, req.Tone)}
}

// needsPlan reports whether planning can change the outcome: only when there is earlier
// conversation for the message to refer to. A first message is its own standalone question,
// and retrieval decides whether the KB holds anything on it.
func needsPlan(req engine.Request) bool {
	return len(req.History) > 0 || strings.TrimSpace(req.Summary) != ""
}
