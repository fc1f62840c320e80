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
		select {
		case <-ctx.Done():
			return store.Reservation{}, ctx.Err()
		case <-timeout.C:
			if errors.Is(err, store.ErrBudgetReached) {
				return r, err
			}
			return store.Reservation{}, billing.ErrContended
		case <-wake:
		case <-time.After(holdPoll):
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
