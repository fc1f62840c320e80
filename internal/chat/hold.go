package chat

import (
	"context"
	"errors"
	"sync"
	"time"

	"svc/internal/billing"
	"svc/internal/store"
)

// How long a send waits for answers in progress to settle when they hold the money (or the
// token budget) it needs. Answers settle within a few seconds, usually to less than they
// held; a settle in this process wakes the waiters at once, one in another process is seen
// by polling.
const (
	holdWait = 8 * time.Second
	holdPoll = 250 * time.Millisecond
)

// hold reserves money for one answer whose worst case is worst micro-USD (billing.Holds
// sizes it; against a token's budget it is the worst case). A refusal for money is judged by billing.AfterRefusal: a spent balance is
// store.ErrInsufficientBalance (the balance notice); a free balance below the hold with
// nothing else held is held whole; a balance held by other answers is waited for
// (holdWait), then billing.ErrContended. A token budget spent is store.ErrBudgetReached at
// once; one held by answers in progress is waited for like the balance, then
// store.ErrBudgetReached for budgetReached to tell.
func (p *pending) hold(ctx context.Context, worst int64, budget *store.TokenBudget) (store.Reservation, error) {
	s := p.svc
	// A token's budget admits an answer while any of it is left, so the answers in flight at
	// its end must each hold what they may cost: a hold sized from recent answers is passed
	// by one answer in twenty, and with many visitors at once the overshoot grew past one
	// hold (seen with three replicas). The worst case bounds it.
	size := worst
	if budget == nil {
		size = s.holds.Size(worst)
	}
	p.overdraft = size
	amount := size
	timeout := time.NewTimer(holdWait)
	defer timeout.Stop()
	// Only the send holding the account's turn retries a refused hold; the others wait for
	// the turn. Five hundred sends each retrying on every settle queued on the account's row
	// lock ahead of the settles they waited for, and ran out of time with money still free.
	waiting := false
	defer func() {
		if waiting {
			s.turns.leave(p.acct.ID)
		}
	}()
	for {
		wake := s.wakeups.wait(p.acct.ID) // before trying, so a settle in between is not missed
		r, err := s.st.Reserve(ctx, p.acct.ID, amount, s.holdTTL, budget)
		amount = size
		switch {
		case err == nil:
			return r, nil
		case errors.Is(err, store.ErrBudgetReached):
			spent, err2 := p.tokenSpend(ctx, budget)
			if err2 != nil {
				return r, err2
			}
			if spent >= budget.LimitMicro {
				return r, err
			}
		case errors.Is(err, store.ErrInsufficientBalance):
			a, err2 := s.st.GetAccount(ctx, p.acct.ID)
			if err2 != nil {
				return r, err2
			}
			switch verdict, free := billing.AfterRefusal(a.BalanceMicro, a.ReservedMicro, size); verdict {
			case billing.Spent:
				return r, err
			case billing.HoldWhatIsFree:
				amount = free
				continue
			}
		default:
			return r, err
		}
		if !waiting {
			// The turn first, then a fresh try: the money may have been settled meanwhile.
			turn := s.turns.enter(p.acct.ID)
			select {
			case <-ctx.Done():
				s.turns.abandon(p.acct.ID)
				return store.Reservation{}, ctx.Err()
			case <-timeout.C:
				s.turns.abandon(p.acct.ID)
				return r, contended(err)
			case turn <- struct{}{}:
				waiting = true
				continue
			}
		}
		select {
		case <-ctx.Done():
			return store.Reservation{}, ctx.Err()
		case <-timeout.C:
			return r, contended(err)
		case <-wake:
		case <-time.After(holdPoll):
		}
	}
}

// contended is what a send that waited holdWait in vain is told: a token budget held by
// answers in progress stays store.ErrBudgetReached (budgetReached tells the two apart), a
// balance held by them is billing.ErrContended.
func contended(err error) error {
	if errors.Is(err, store.ErrBudgetReached) {
		return err
	}
	return billing.ErrContended
}

// holdTurns gives each account one turn at retrying a refused hold in this process: a send
// enters by sending on the account's channel (capacity one) and leaves by receiving from it.
// An account's channel is dropped when no send is in or waiting for it.
type holdTurns struct {
	mu sync.Mutex
	by map[int64]*turn
}

type turn struct {
	ch    chan struct{}
	users int
}

// enter returns the channel a send writes to take the account's turn; every enter is
// matched by one leave (after the turn was taken) or one abandon (when it was not).
func (t *holdTurns) enter(accountID int64) chan<- struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil {
		t.by = map[int64]*turn{}
	}
	c, ok := t.by[accountID]
	if !ok {
		c = &turn{ch: make(chan struct{}, 1)}
		t.by[accountID] = c
	}
	c.users++
	return c.ch
}

// leave gives the turn back.
func (t *holdTurns) leave(accountID int64) {
	t.mu.Lock()
	c := t.by[accountID]
	t.mu.Unlock()
	<-c.ch
	t.abandon(accountID)
}

// abandon counts out a send that entered and will not (or no longer) hold the turn.
func (t *holdTurns) abandon(accountID int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.by[accountID]; c != nil {
		if c.users--; c.users == 0 {
			delete(t.by, accountID)
		}
	}
}

// wakeups lets sends waiting for an account's money learn at once that an answer of that
// account settled or gave its hold back in this process.
type wakeups struct {
	mu sync.Mutex
	ch map[int64]chan struct{}
}

// wait returns a channel closed at the account's next signal.
func (w *wakeups) wait(accountID int64) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch == nil {
		w.ch = map[int64]chan struct{}{}
	}
	c, ok := w.ch[accountID]
	if !ok {
		c = make(chan struct{})
		w.ch[accountID] = c
	}
	return c
}

// signal wakes every send waiting on the account.
func (w *wakeups) signal(accountID int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.ch[accountID]; ok {
		close(c)
		delete(w.ch, accountID)
	}
}
