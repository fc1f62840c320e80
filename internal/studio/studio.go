// Package studio runs the two generators grounded on an account's knowledge base: the
// marketing generator (marketingGenerate) and the Intelligence API. It validates requests,
// resolves the site scope (only the caller's own sites; anything else falls back to the
// whole account, never another tenant), gathers the sources, lets the built-in composers or
// the language model write, runs the grounding guard over every field, and bills by tokens
// exactly like a chat answer. It knows nothing of HTTP.
package studio

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"svc/internal/billing"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/llm"
	"svc/internal/ratelimit"
	"svc/internal/store"
)

// Usage event types of the generators. Only the first two are ever charged.
const (
	EventMarketing    = "marketing"
	EventIntelligence = "intelligence"
	EventData         = "intelligence_data" // the data op: no model, free
	EventDegraded     = "generation_degraded"
)

// Service runs marketing and Intelligence requests.
type Service struct {
	st      store.Store
	eng     *engine.Engine
	model   llm.Client // nil: the built-in composers only
	limiter ratelimit.Limiter
	now     func() time.Time
	log     *slog.Logger
	holdTTL time.Duration
}

// Deps are the Service's collaborators.
type Deps struct {
	Store   store.Store
	Engine  *engine.Engine
	LLM     llm.Client // nil for the built-in engine
	Limiter ratelimit.Limiter
	Now     func() time.Time
	Log     *slog.Logger
	// HoldTTL is how long a generation's reservation lasts unless settled (SVC_HOLD_TTL);
	// billing.DefaultHoldTTL when zero.
	HoldTTL time.Duration
}

// New returns a Service.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Limiter == nil {
		d.Limiter = ratelimit.NewMemory()
	}
	if d.HoldTTL <= 0 {
		d.HoldTTL = billing.DefaultHoldTTL
	}
	return &Service{st: d.Store, eng: d.Engine, model: d.LLM, limiter: d.Limiter, now: d.Now, log: d.Log, holdTTL: d.HoldTTL}
}

// Meta is data.meta of both generators (SERVICE.md).
type Meta struct {
	Lang     string
	Grounded bool // KB data was used
	KBUsed   int  // passages used
	Products int  // products used
	Tokens   int  // tokens billed (input + output)
	Depth    string
	Total    *int // the data op: rows matching in all
}

func (s *Service) allow(a store.Account, what string, perMin int) error {
	if ok, wait := s.limiter.Allow(fmt.Sprintf("%s:acct:%d", what, a.ID), perMin, s.now().UTC()); !ok {
		return &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
			Safe: fmt.Sprintf("Too many %s requests: at most %d a minute for this account. Try again shortly.", what, perMin),
			Key:  "err.studio.rate_limited_" + what, Args: []any{perMin}}
	}
	return nil
}

// siteScope is the site the caller asked for when it is one of theirs, else 0 (the whole
// account): an unowned or unknown site id never reaches another tenant's data, and is not an
// error either (SERVICE.md: grounding falls back to the caller's account).
func (s *Service) siteScope(ctx context.Context, a store.Account, siteID int64) (int64, error) {
	if siteID <= 0 {
		return 0, nil
	}
	if _, err := s.st.GetSite(ctx, a.ID, siteID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return 0, nil
		}
		return 0, err
	}
	return siteID, nil
}

var errNoBalance = errs.Coded(errs.TooMany, "err.studio.balance_insufficient", "The account balance is insufficient for this request; top up the balance and retry.")

// generation is one billed piece of work: what the built-in composer read and wrote, or
// the model call's reported tokens.
type generation struct {
	event    string
	in, out  int
	calls    []store.CallUsage
	degraded bool
}

// settle charges g at the account's rates in one transaction with its usage event (releasing
// reservationID when set), and returns the tokens billed.
func (s *Service) settle(ctx context.Context, a store.Account, g generation, reservationID int64) (int, error) {
	c := &store.Charge{EventType: g.event, InputTokens: g.in, OutputTokens: g.out, Calls: g.calls}
	if g.degraded {
		c.EventType = EventDegraded
		c.InputTokens, c.OutputTokens = 0, 0
	} else if g.event != EventData {
		c.AmountMicro = billing.Cost(g.in, g.out, a.InputRate, a.OutputRate)
	}
	if len(c.Calls) == 0 && c.AmountMicro > 0 {
		c.Calls = []store.CallUsage{{Call: "engine", InputTokens: g.in, OutputTokens: g.out, CostMicro: c.AmountMicro}}
	}
	capped, err := s.st.ChargeUsage(context.WithoutCancel(ctx), a.ID, c, reservationID)
	if errors.Is(err, store.ErrInsufficientBalance) {
		return 0, errNoBalance
	}
	if err != nil {
		return 0, err
	}
	if capped > 0 {
		s.log.Warn("generation cost more than its reservation; the excess was written off", "account", a.ID,
			"written_off_micro", capped)
	}
	return c.InputTokens + c.OutputTokens, nil
}

// callModel makes one model call under a reservation of its worst case. A provider failure
// returns ok false (the caller composes with the built-in engine instead, free); the
// reservation is then released. On success the caller settles with the reservation id.
func (s *Service) callModel(ctx context.Context, a store.Account, req llm.Request) (resp llm.Response, reservation int64, ok bool, err error) {
	in := s.eng.CountTokens(req.System)
	for _, m := range req.Messages {
		in += s.eng.CountTokens(m.Content)
	}
	r, err := s.reserve(ctx, a, billing.Cost(in, req.MaxTokens, a.InputRate, a.OutputRate))
	if err != nil {
		return resp, 0, false, err
	}
	resp, err = s.model.Complete(ctx, req)
	if err != nil {
		if rerr := s.st.Release(context.WithoutCancel(ctx), a.ID, r.ID); rerr != nil {
			s.log.Error("release reservation", "account", a.ID, "err", rerr)
		}
		var perr *llm.Error
		if ctx.Err() == nil && (errors.As(err, &perr) || errors.Is(err, llm.ErrCircuitOpen)) {
			s.log.Warn("model generation failed; the built-in composer writes instead", "account", a.ID, "err", err)
			return resp, 0, false, nil
		}
		return resp, 0, false, fmt.Errorf("model generation: %w", err)
	}
	return resp, r.ID, true, nil
}

// reserve holds worst for a generation; a refusal is judged by billing.AfterRefusal (a
// whole free balance held when it is below the worst case and nothing else holds any; the
// settle caps the charge at what was taken).
func (s *Service) reserve(ctx context.Context, a store.Account, worst int64) (store.Reservation, error) {
	r, err := s.st.Reserve(ctx, a.ID, worst, s.holdTTL, nil)
	if !errors.Is(err, store.ErrInsufficientBalance) {
		return r, err
	}
	now, err := s.st.GetAccount(ctx, a.ID)
	if err != nil {
		return r, err
	}
	switch verdict, free := billing.AfterRefusal(now.BalanceMicro, now.ReservedMicro, worst); verdict {
	case billing.Spent:
		return r, errNoBalance
	case billing.Contended:
		return r, billing.ErrContended
	default:
		r, err = s.st.Reserve(ctx, a.ID, free, s.holdTTL, nil)
		if errors.Is(err, store.ErrInsufficientBalance) {
			return r, billing.ErrContended // another request took it in between
		}
		return r, err
	}
}

// release gives back a reservation that no settle took.
func (s *Service) release(ctx context.Context, a store.Account, id int64) {
	if id == 0 {
		return
	}
	if err := s.st.Release(context.WithoutCancel(ctx), a.ID, id); err != nil {
		s.log.Error("release reservation", "account", a.ID, "err", err)
	}
}
