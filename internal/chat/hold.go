package chat

import (
	"context"
	"errors"
	"sync"
	"time"

	"svc/internal/errs"
	"svc/internal/store"
)

// How long a send waits for answers in progress to settle when they hold the money (or the
// token budget) it needs. Answers settle within a few seconds, usually to less than they
// held; a settle in this process wakes the waiters at once, one in another process is seen
// by polling.
const (
	holdWait = 8 * time.Second
	holdPoll = 250 * time.Millisecond
	// holdQuickRetries bounds the retries without a wait when the balance looked free but
	// the reservation lost a race for it.
	holdQuickRetries = 3
)

// errContended answers a send that found the account's balance held by its other answers in
// progress for longer than holdWait. The account is funded, so this is not a balance notice:
// nothing is stored and the client is asked to retry.
func errContended() error {
	return &errs.Error{Kind: errs.RateLimited, RetryAfter: 2 * time.Second,
		Safe: "Other answers for this account are still being written and hold its balance. Try again in a few seconds."}
}

// hold reserves money for one answer whose worst case is worst micro-USD (see billing.Holds
// for the size). Refusals are told apart, because only one of them means the account is out
// of money:
//   - the balance is zero or less: store.ErrInsufficientBalance, the balance notice;
//   - the free balance is below the hold but nothing else is held: the hold is what is free
//     (the settle may overdraw by one hold), so a small balance is spent rather than stranded;
//   - other answers hold the rest: wait for them (holdWait), then errContended;
//   - the token's budget is spent: store.ErrBudgetReached, final; held by answers in progress:
//     wait for them like the balance, then store.ErrBudgetReached for budgetReached to tell.
func (p *pending) hold(ctx context.Context, worst int64, budget *store.TokenBudget) (store.Reservation, error) {
	s := p.svc
	size := s.holds.Size(worst)
	p.overdraft = size
	amount := size
	timeout := time.NewTimer(holdWait)
	defer timeout.Stop()
	quick := 0
	for {
		wake := s.wakeups.wait(p.acct.ID) // before trying, so a settle in between is not missed
		r, err := s.st.Reserve(ctx, p.acct.ID, amount, reserveTTL, budget)
		retry := false
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
			free := a.BalanceMicro - a.ReservedMicro
			switch {
			case a.BalanceMicro <= 0:
				return r, err
			case a.ReservedMicro == 0:
				amount, retry = min(free, size), true
			case free >= amount:
				retry = true
			}
		default:
			return r, err
		}
		if retry && quick < holdQuickRetries {
			quick++
			continue
		}
		quick = 0
		select {
		case <-ctx.Done():
			return store.Reservation{}, ctx.Err()
		case <-timeout.C:
			if errors.Is(err, store.ErrBudgetReached) {
				return r, err
			}
			return store.Reservation{}, errContended()
		case <-wake:
		case <-time.After(holdPoll):
		}
		amount = size
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
