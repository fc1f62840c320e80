package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"svc/internal/billing"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/smalltalk"
	"svc/internal/store"
)

// SendResult is the outcome of one send: the stored question and reply.
type SendResult struct {
	ConversationID int64
	User           store.Message
	Reply          store.Message
	LowConfidence  bool
	// Mode and Reason are the widget token's mode after the send (VisitorSend only).
	Mode   string
	Reason string
}

// Send runs the pipeline of SERVICE.md in its fixed order for the account's API
// conversation: validate, rate limit, then answer (see answer).
func (s *Service) Send(ctx context.Context, a store.Account, keyID int64, message string) (SendResult, error) {
	return s.send(ctx, a, keyID, message, nil)
}

// SendStream is Send handing the reply to stream while it is composed (see Stream). It runs
// to its end whether or not its caller is still there (see detach).
func (s *Service) SendStream(ctx context.Context, a store.Account, keyID int64, message string, stream Stream) (SendResult, error) {
	ctx, cancel := detach(ctx)
	defer cancel()
	return s.send(ctx, a, keyID, message, stream)
}

func (s *Service) send(ctx context.Context, a store.Account, keyID int64, message string, stream Stream) (SendResult, error) {
	text, err := validateMessage(message, MaxMessageChars)
	if err != nil {
		return SendResult{}, err
	}
	now := s.now().UTC()
	if ok, wait := s.limiter.Allow(fmt.Sprintf("send:key:%d", keyID), a.SendRatePerMin, now); !ok {
		return SendResult{}, &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
			Safe: fmt.Sprintf("Too many messages: at most %d a minute. Try again shortly.", a.SendRatePerMin)}
	}
	conv, err := s.st.OpenConversation(ctx, a.ID, a.Lang)
	if err != nil {
		return SendResult{}, err
	}
	return s.answer(ctx, &pending{svc: s, acct: a, conv: conv, text: text, now: now, stream: newStreamer(stream, text)})
}

// answer runs the rest of the pipeline on a validated message: detect the language, small
// talk, this account's cache, (for a widget) cache-only mode, daily quota, balance, retrieve
// and compose, charge and store. Only the last step writes, and it writes the question, the
// reply and the charge in one transaction.
func (s *Service) answer(ctx context.Context, p *pending) (SendResult, error) {
	a, now := p.acct, p.now
	rd := s.readings.read(p.text, p.conv.Lang)
	p.lang = rd.lang

	if rd.isTalk {
		if rd.talkLang != "" {
			p.lang = rd.talkLang
		}
		return p.commit(ctx, p.reply(smalltalk.Reply(rd.talk, p.lang, a.TonePreset), store.SourceCacheShared, false),
			store.Charge{EventType: store.EventCacheShared})
	}

	p.q = rd.q
	if res, ok, err := p.fromCache(ctx); err != nil || ok {
		return res, err
	}
	// Past the cache every question would buy an answer: a widget token in a surge answers
	// no more of them until the spike is over.
	if w := p.widget; w != nil {
		if s.surge != nil && s.surge.Observe(w.token.ID, p.addr, now) {
			return p.commitCacheOnly(ctx, ModeReasonSurge)
		}
		if ok, wait := s.limiter.Allow(fmt.Sprintf("embed:token:%d", w.token.ID), TokenAnswersPerMinute, now); !ok {
			return SendResult{}, &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
				Safe: "This site's assistant is answering too many new questions right now. Try again shortly."}
		}
	}

	midnight := now.Truncate(24 * time.Hour)
	if a.DailyAnswers > 0 {
		used, err := s.st.CountEvents(ctx, a.ID, store.EventAnswer, midnight)
		if err != nil {
			return SendResult{}, err
		}
		if used >= a.DailyAnswers {
			return SendResult{}, quotaError(now)
		}
	}
	// Only an account with no money left gets the balance notice; one whose balance is held
	// by its other answers in progress waits for them (see hold).
	if a.BalanceMicro <= 0 {
		return p.commitSystem(ctx)
	}
	return p.compose(ctx, midnight)
}

// compose is the paid part of a send: it reserves what the answer may cost (see hold), brings the
// conversation's summary up to date when turns have left the context window, asks the
// engine, and commits the turn, which settles the charge to the calls' real usage and
// releases the reservation in the same transaction. Any failure before the commit releases
// the reservation, so a failed, timed-out or cancelled answer costs nothing.
func (p *pending) compose(ctx context.Context, midnight time.Time) (SendResult, error) {
	s, a := p.svc, p.acct
	window, err := p.loadContext(ctx)
	if err != nil {
		return SendResult{}, err
	}
	folded := false // the turn carrying the new summary has committed
	if len(window.fold) > 0 {
		if through := window.foldThrough; s.folding.begin(p.conv.ID, p.conv.SummarizedThrough, through) {
			defer func() { s.folding.end(p.conv.ID, through, folded) }()
		} else {
			window.keepVerbatim()
		}
	}
	req := engine.Request{AccountID: a.ID, Question: p.text, Lang: p.lang, Tone: a.TonePreset, ToneCustom: a.ToneCustom,
		Business: a.Name, SalesMode: a.SalesMode, Summary: p.conv.Summary, History: window.history}
	if p.stream != nil {
		req.Stream = p.stream.piece
	}
	in, out := s.engine.Budget(req, window.fold)
	var budget *store.TokenBudget
	if w := p.widget; w != nil {
		// A widget answer always reserves, even from an engine that asks for no reservation,
		// because the reservation is what keeps parallel visitors inside the token's budget.
		budget = &store.TokenBudget{TokenID: w.token.ID, LimitMicro: w.token.DailyBudgetMicro, Since: midnight}
		if in+out == 0 {
			in, out = builtinHoldIn, builtinHoldOut
		}
	}
	worst := billing.Cost(in, out, a.InputRate, a.OutputRate)
	if in+out > 0 {
		r, err := p.hold(ctx, worst, budget)
		switch {
		case errors.Is(err, store.ErrBudgetReached):
			return p.budgetReached(ctx, budget)
		case errors.Is(err, store.ErrInsufficientBalance):
			return p.commitSystem(ctx)
		case err != nil:
			return SendResult{}, err
		}
		p.reservation = r.ID
		defer p.release(ctx)
	}
	// The question is accepted and its answer paid for: a streamed send starts here.
	p.stream.begin()
	var extra []store.Charge
	var summary *store.SummaryUpdate
	if len(window.fold) > 0 {
		sm, err := s.engine.Summarize(ctx, engine.SummaryRequest{AccountID: a.ID, Lang: p.conv.Lang, Previous: p.conv.Summary,
			Turns: window.fold})
		if err != nil {
			return SendResult{}, fmt.Errorf("summarize context: %w", err)
		}
		req.Summary = sm.Text
		summary = &store.SummaryUpdate{Text: sm.Text, Through: window.foldThrough}
		extra = append(extra, p.charge(store.EventSummary, sm.Calls, true))
	}
	ans, err := s.engine.Answer(ctx, req)
	if err != nil {
		return SendResult{}, fmt.Errorf("compose answer: %w", err)
	}
	if ans.EmbeddingTokens > 0 {
		// The question's embedding is billed with its reply, in the same transaction; a
		// reply that is no answer (a decline, a degraded one) meters it without charging.
		extra = append(extra, p.embeddingCharge(ans, ans.Confident && !ans.Degraded))
	}
	var t *store.Turn
	switch {
	case ans.Degraded:
		// The provider failed and the built-in engine answered: nothing was bought, nothing
		// is charged, and the lesser answer is not cached.
		source, low := store.SourceAI, false
		if !ans.Confident {
			source, low = store.SourceFallback, true
		}
		reply := p.reply(ans.Text, source, low)
		reply.DocIDs = ans.DocIDs
		if ans.Confident {
			reply.Sources = ans.Sources
		}
		if a.SalesMode && ans.Confident {
			reply.Products = productCards(ans.Cards)
		}
		t = p.turn(reply, store.Charge{EventType: store.EventDegraded})
	case !ans.Confident:
		// No confident answer is no answer: a fallback is free even when model calls were
		// made to find that out. The calls are still recorded with their tokens.
		t = p.turn(p.reply(ans.Text, store.SourceFallback, true), p.charge(store.EventFallback, ans.Calls, false))
	default:
		reply := p.reply(ans.Text, store.SourceAI, false)
		reply.DocIDs, reply.Sources = ans.DocIDs, ans.Sources
		if a.SalesMode {
			reply.Products = productCards(ans.Cards)
		}
		t = p.turn(reply, p.charge(store.EventAnswer, ans.Calls, true))
		t.QuotaLimit, t.QuotaSince = a.DailyAnswers, midnight
		// The answer is cached under the question it answers: a follow-up that the planner
		// made standalone is cached as that, never as the fragment whose sense came from
		// this conversation. An answer that does not name what its question names (another
		// country's price, another product's page) is not cached: it may be the engine's
		// best, but served again it would multiply a wrong answer (see names.go).
		q, asked := p.q, p.text
		if ans.Question != "" && ans.Question != p.text {
			q, asked = newQuestionKey(ans.Question, p.lang), ans.Question
		}
		if q.key != "" && answerNames(q.names, ans.Text, p.lang) {
			t.Cache = &store.CacheEntry{Lang: p.lang, Key: q.key, Question: asked, Answer: ans.Text, DocIDs: ans.DocIDs,
				Sources: ans.Sources, Terms: q.terms, Evidence: ans.Evidence}
		}
	}
	t.Extra, t.Summary, t.ReservationID, t.Budget = extra, summary, p.reservation, budget
	if p.reservation != 0 {
		t.OverdraftMicro = p.overdraft
	}
	cost := t.Charge.AmountMicro
	for _, c := range extra {
		cost += c.AmountMicro
	}
	res, err := p.save(ctx, t)
	switch {
	case err == nil:
		folded = summary != nil
		if p.reservation != 0 {
			p.reservation = 0 // released by the commit
			s.wakeups.signal(a.ID)
			if t.Charge.EventType == store.EventAnswer {
				s.holds.Observe(worst, cost)
			}
		}
		if t.NoticeQueued && s.notify != nil {
			s.notify()
		}
		if t.Capped > 0 {
			s.log.Warn("answer cost more than its reservation; the excess was written off", "account", a.ID,
				"written_off_micro", t.Capped)
		}
	case errors.Is(err, store.ErrInsufficientBalance):
		// An unreserved charge (an engine that asks for no hold) found the balance spent or
		// held since our check.
		return p.outOfMoney(ctx)
	case errors.Is(err, store.ErrQuotaReached):
		return SendResult{}, quotaError(p.now)
	}
	return res, err
}

// release gives back a reservation that no commit settled. It runs on a context that
// outlives the request's cancellation, since a cancelled send is exactly when it matters.
func (p *pending) release(ctx context.Context) {
	if p.reservation == 0 {
		return
	}
	if err := p.svc.st.Release(context.WithoutCancel(ctx), p.acct.ID, p.reservation); err != nil {
		p.svc.log.Error("release reservation", "account", p.acct.ID, "reservation", p.reservation, "err", err)
	}
	p.reservation = 0
	p.svc.wakeups.signal(p.acct.ID)
}

// outOfMoney answers a charge the balance refused: the balance notice when the account has
// no money left, and a retry when its other answers in progress hold what it has.
func (p *pending) outOfMoney(ctx context.Context) (SendResult, error) {
	a, err := p.svc.st.GetAccount(ctx, p.acct.ID)
	if err != nil {
		return SendResult{}, err
	}
	// An unreserved charge cannot be made smaller, so a balance too small for it is spent
	// for this answer even with nothing else held.
	if verdict, _ := billing.AfterRefusal(a.BalanceMicro, a.ReservedMicro, 1); verdict == billing.Contended {
		return SendResult{}, billing.ErrContended
	}
	return p.commitSystem(ctx)
}

// charge prices calls at the account's rates: the charge is the sum of their tokens priced
// once, so a split into sub-calls never rounds the bill up more than once. Each call keeps
// its own tokens and cost for the record. billable false records the calls at no cost.
func (p *pending) charge(event string, calls []engine.Call, billable bool) store.Charge {
	c := store.Charge{EventType: event}
	for _, k := range calls {
		u := store.CallUsage{Call: k.Name, Model: k.Model, InputTokens: k.InputTokens, OutputTokens: k.OutputTokens}
		if billable {
			u.CostMicro = billing.Cost(k.InputTokens, k.OutputTokens, p.acct.InputRate, p.acct.OutputRate)
		}
		c.Calls = append(c.Calls, u)
		c.InputTokens += k.InputTokens
		c.OutputTokens += k.OutputTokens
	}
	if billable {
		c.AmountMicro = billing.Cost(c.InputTokens, c.OutputTokens, p.acct.InputRate, p.acct.OutputRate)
	}
	return c
}

// embeddingCharge is the embedding usage event of the answer's question embeddings, at the
// operator's embedding price when billable.
func (p *pending) embeddingCharge(ans engine.Answer, billable bool) store.Charge {
	u := store.CallUsage{Call: "embedding", Model: ans.EmbeddingModel, InputTokens: ans.EmbeddingTokens}
	if billable {
		u.CostMicro = billing.Cost(ans.EmbeddingTokens, 0, p.svc.embedPrice, 0)
	}
	return store.Charge{EventType: store.EventEmbedding, AmountMicro: u.CostMicro, InputTokens: u.InputTokens,
		Calls: []store.CallUsage{u}}
}

func quotaError(now time.Time) error {
	next := now.Truncate(24 * time.Hour).Add(24 * time.Hour)
	return &errs.Error{Kind: errs.LimitReached, RetryAfter: next.Sub(now),
		Safe: "The daily answer limit of this account is reached; it resets at 00:00 UTC."}
}

// validateMessage trims the message and checks its length in characters (not bytes).
func validateMessage(message string, max int) (string, error) {
	if !utf8.ValidString(message) {
		return "", errs.New(errs.BadRequest, "The message is not valid UTF-8 text.")
	}
	text := strings.TrimSpace(strings.ReplaceAll(message, "\x00", ""))
	n := utf8.RuneCountInString(text)
	if n == 0 {
		return "", errs.New(errs.BadRequest, "The message is empty.")
	}
	if n > max {
		return "", errs.Newf(errs.BadRequest, "The message is %d characters long; at most %d are allowed.", n, max)
	}
	return text, nil
}

// productCards turns the engine's cards into the message's products, at most
// MaxProductCards of them and each document once. The engine has already chosen them for
// the question and kept its reply to their names.
func productCards(cards []engine.Card) []store.Product {
	var out []store.Product
	seen := make(map[int64]bool, len(cards))
	for _, c := range cards {
		if seen[c.DocID] || len(out) == MaxProductCards {
			continue
		}
		seen[c.DocID] = true
		out = append(out, c.Product)
	}
	return out
}

// pending is one send in progress.
type pending struct {
	svc  *Service
	acct store.Account
	conv store.Conversation
	text string
	lang string
	q    questionKey // the question normalised in lang: the cache key and its terms
	now  time.Time
	// reservation is the balance held for this send's answer until its turn commits, and
	// overdraft how far its settle may take the free balance below zero (one hold).
	reservation int64
	overdraft   int64
	// widget is set when a widget visitor asked: the turn counts against its token; addr is
	// then the visitor's client address key.
	widget *visitorTurn
	addr   string
	// kb is the KB's running totals, read once a send (see kbState).
	kb *store.KBState
	// stream receives a streamed send's events; nil when the send is not streamed.
	stream *streamer
}

// kbState returns the account's KB totals, read once a send, the first time a step asks.
func (p *pending) kbState(ctx context.Context) (store.KBState, error) {
	if p.kb == nil {
		st, err := p.svc.st.KBState(ctx, p.acct.ID)
		if err != nil {
			return store.KBState{}, err
		}
		p.kb = &st
	}
	return *p.kb, nil
}

// has reports whether the account's KB holds chunks of document type typ: a KB without Q&A
// entries has no curated answer to look for, one without products no card to attach.
func (p *pending) has(ctx context.Context, typ string) (bool, error) {
	st, err := p.kbState(ctx)
	return st.Chunks[typ] > 0, err
}

func (p *pending) reply(body, source string, low bool) store.Message {
	return store.Message{Role: store.RoleAssistant, Body: body, Source: source, Lang: p.lang, LowConfidence: low}
}

// turn pairs the question with its reply. The question carries the source of the reply that
// answered it, so a client can tell how every message was handled.
func (p *pending) turn(reply store.Message, charge store.Charge) *store.Turn {
	t := &store.Turn{AccountID: p.acct.ID, ConversationID: p.conv.ID, Lang: p.lang,
		User:  store.Message{Role: store.RoleUser, Body: p.text, Source: reply.Source, Lang: p.lang},
		Reply: reply, Charge: charge}
	if p.widget != nil {
		t.EmbedTokenID = p.widget.token.ID
	}
	return t
}

func (p *pending) save(ctx context.Context, t *store.Turn) (SendResult, error) {
	if err := p.svc.st.SaveTurn(ctx, t); err != nil {
		return SendResult{}, err
	}
	p.svc.observe(t)
	p.stream.settle(t.Reply.Body, t.Reply.Lang)
	return SendResult{ConversationID: p.conv.ID, User: t.User, Reply: t.Reply, LowConfidence: t.Reply.LowConfidence}, nil
}

func (p *pending) commit(ctx context.Context, reply store.Message, charge store.Charge) (SendResult, error) {
	return p.save(ctx, p.turn(reply, charge))
}

// commitSystem answers with the insufficient-balance notice: HTTP 200, a system message,
// lowConfidence true, nothing charged.
func (p *pending) commitSystem(ctx context.Context) (SendResult, error) {
	return p.commit(ctx, p.reply(p.svc.balanceNotice(p.lang), store.SourceSystem, true), store.Charge{EventType: store.EventSystem})
}
