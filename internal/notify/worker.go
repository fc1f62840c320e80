package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"svc/internal/i18n"
	"svc/internal/store"
)

// The retry policy.
const (
	// Lease is how long a claimed notice stays away from other workers while one sends it.
	Lease = 2 * time.Minute
	// SendTimeout bounds one delivery attempt, well inside Lease, so that no other worker
	// can claim a notice while a send of it may still succeed.
	SendTimeout = time.Minute
	// MaxAttempts is the attempt after which a failing notice is given up (status failed).
	MaxAttempts = 24
	// FirstBackoff is the wait after the first failed attempt; it doubles after each further
	// one up to MaxBackoff.
	FirstBackoff = time.Minute
	MaxBackoff   = time.Hour
	// DefaultInterval is the pause between passes of Run.
	DefaultInterval = 30 * time.Second
	// perPass bounds one pass, so that a flood of notices cannot keep Flush from returning.
	perPass = 200
	// maxErrorText bounds the error text stored with a failed attempt.
	maxErrorText = 500
)

// Backoff is the wait before the next attempt after attempt failed attempts (1, 2, ...):
// 1 minute, doubling, at most 1 hour.
func Backoff(attempts int) time.Duration {
	if attempts < 1 {
		attempts = 1
	}
	if attempts > 7 { // 2^6 minutes already passes the cap
		return MaxBackoff
	}
	return min(FirstBackoff<<(attempts-1), MaxBackoff)
}

// Deps are what a Worker needs.
type Deps struct {
	Store  store.Store
	Sender Sender
	Log    *slog.Logger     // default: discard
	Now    func() time.Time // default: time.Now
	// PublicURL is the service's public base URL, used in the links of the mails ("" = only
	// paths).
	PublicURL string
	// Interval is the pause between passes of Run (default 30 s).
	Interval time.Duration
	// Texts is the catalog the mails are worded from; the embedded one when nil.
	Texts *i18n.Catalog
	// Metrics counts failed attempts; may be nil.
	Metrics Metrics
}

// Metrics is what the worker reports to the service's metrics.
type Metrics interface {
	// OutboxFailed counts a failed attempt at a notice of kind; final when it was given up.
	OutboxFailed(kind string, final bool)
}

// Worker delivers the outbox. Several workers, in one process or several, may run on the
// same store: claims keep them off each other's notices.
type Worker struct {
	store     store.Store
	sender    Sender
	log       *slog.Logger
	now       func() time.Time
	publicURL string
	interval  time.Duration
	texts     *mailTexts
	kick      chan struct{}
	metrics   Metrics
}

// NewWorker builds a worker; Store and Sender are required.
func NewWorker(d Deps) *Worker {
	if d.Store == nil || d.Sender == nil {
		panic("notify: NewWorker needs a Store and a Sender")
	}
	w := &Worker{store: d.Store, sender: d.Sender, log: d.Log, now: d.Now,
		publicURL: strings.TrimRight(strings.TrimSpace(d.PublicURL), "/"), interval: d.Interval,
		kick: make(chan struct{}, 1), metrics: d.Metrics}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.now == nil {
		w.now = time.Now
	}
	if w.interval <= 0 {
		w.interval = DefaultInterval
	}
	cat := d.Texts
	if cat == nil {
		cat = i18n.MustLoad()
	}
	w.texts = newMailTexts(cat)
	return w
}

// Kick asks Run for a pass now (a notice was just queued). It never blocks, and kicks made
// while a pass runs collapse into one more pass.
func (w *Worker) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run delivers notices until ctx is done: a pass, then a pause of Interval or until Kick.
func (w *Worker) Run(ctx context.Context) {
	w.log.Info("notice outbox worker started", "interval", w.interval)
	defer w.log.Info("notice outbox worker stopped")
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-w.kick:
		}
		if _, err := w.Flush(ctx); err != nil && ctx.Err() == nil {
			w.log.Error("notice outbox pass failed", "err", err)
		}
		timer.Reset(w.interval)
	}
}

// Flush runs one pass: it delivers every notice due now and returns how many were sent. An
// error means the store failed (or ctx ended); a failed delivery is not an error, it is
// recorded on the notice and retried later.
func (w *Worker) Flush(ctx context.Context) (sent int, err error) {
	for range perPass {
		if err := ctx.Err(); err != nil {
			return sent, err
		}
		// One at a time, so that each claim's lease covers exactly one send.
		claimed, err := w.store.ClaimNotices(ctx, w.now(), Lease, 1)
		if err != nil {
			return sent, fmt.Errorf("claim notices: %w", err)
		}
		if len(claimed) == 0 {
			return sent, nil
		}
		ok, err := w.deliver(ctx, claimed[0])
		if ok {
			sent++
		}
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// deliver composes, sends and records one claimed notice. err is a store failure only.
func (w *Worker) deliver(ctx context.Context, n store.Notice) (sent bool, err error) {
	log := w.log.With("notice", n.ID, "account", n.AccountID, "kind", n.Kind, "attempt", n.Attempts+1)
	m, err := w.compose(ctx, n)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err() // the claim lapses and the notice is taken up again
		}
		return false, w.failed(ctx, log, n, err)
	}
	sendCtx, cancel := context.WithTimeout(ctx, SendTimeout)
	err = w.sender.Send(sendCtx, m)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			// Shutting down: not the server's fault, so no attempt is counted; the claim
			// lapses and the notice is sent after it.
			log.Info("notice send interrupted; it is retried after its claim lapses", "err", err)
			return false, ctx.Err()
		}
		return false, w.failed(ctx, log, n, err)
	}
	// The server has the mail: record it even if ctx ends now, or it would be sent again.
	markCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := w.store.NoticeSent(markCtx, n.ID, w.now(), secretKinds[n.Kind]); err != nil {
		log.Error("notice sent but not marked sent; it will be sent again after its claim lapses", "err", err)
		return true, fmt.Errorf("mark notice %d sent: %w", n.ID, err)
	}
	log.Info("notice sent", "to", m.To)
	return true, nil
}

// failed records a failed attempt: retried after Backoff, or given up when the failure is
// permanent or this was attempt MaxAttempts.
func (w *Worker) failed(ctx context.Context, log *slog.Logger, n store.Notice, cause error) error {
	attempts := n.Attempts + 1
	final := IsPermanent(cause) || attempts >= MaxAttempts
	if w.metrics != nil {
		w.metrics.OutboxFailed(n.Kind, final)
	}
	now := w.now()
	next := now
	if !final {
		next = now.Add(Backoff(attempts))
	}
	text := clip(cause.Error(), maxErrorText)
	markCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := w.store.NoticeFailed(markCtx, n.ID, text, next, final); err != nil {
		log.Error("notice failed and the failure was not recorded", "err", err, "cause", text)
		return fmt.Errorf("record notice %d failure: %w", n.ID, err)
	}
	if final {
		log.Error("notice given up", "err", text)
	} else {
		log.Warn("notice not sent; will retry", "err", text, "next_attempt_at", next.UTC())
	}
	return nil
}

// compose builds the mail of a notice. Errors are Permanent when no retry can help.
func (w *Worker) compose(ctx context.Context, n store.Notice) (Message, error) {
	kind, ok := kinds[n.Kind]
	if !ok {
		return Message{}, Permanent(fmt.Errorf("unknown notice kind %q: nothing can send it", n.Kind))
	}
	a, err := w.store.GetAccount(ctx, n.AccountID)
	if errors.Is(err, store.ErrNotFound) {
		return Message{}, Permanent(fmt.Errorf("account %d does not exist", n.AccountID))
	}
	if err != nil {
		return Message{}, fmt.Errorf("read account %d: %w", n.AccountID, err)
	}
	m, err := kind(ctx, w, a, n)
	if err != nil {
		return Message{}, err
	}
	if m.To != "" { // a mail to someone else than the owner (a dashboard user)
		return m, nil
	}
	to := strings.TrimSpace(a.Email)
	if to == "" {
		return Message{}, Permanent(fmt.Errorf("account %d has no e-mail address; set one with "+
			"`svc account update --account %d --email ADDRESS`", a.ID, a.ID))
	}
	m.To = to
	return m, nil
}

// mailTexts are the mails' words in each language, read from the catalog once, when the
// worker is built.
type mailTexts struct {
	budget map[string]budgetText
	links  map[string]userLinkText
	// cat is the catalog itself, for the mails that word themselves from it as they go
	// (the tests mail).
	cat *i18n.Catalog
}

func newMailTexts(cat *i18n.Catalog) *mailTexts {
	return &mailTexts{budget: loadBudgetTexts(cat), links: loadUserLinkTexts(cat), cat: cat}
}

// composer writes the subject and text of one kind of notice for account a. It sets To
// only when the mail is not for the account's owner address.
type composer func(ctx context.Context, w *Worker, a store.Account, n store.Notice) (Message, error)

// secretKinds carry a one-time link in their payload: it is cleared once the mail is out,
// so a copy of the database cannot redeem it (links themselves are stored hashed).
var secretKinds = map[string]bool{store.NoticePasswordReset: true, store.NoticeUserInvite: true}

// kinds are the notice kinds this package can send.
var kinds = map[string]composer{
	store.NoticeBudgetReached: composeBudget,
	store.NoticePasswordReset: composeUserLink,
	store.NoticeUserInvite:    composeUserLink,
	store.NoticeTestsBroken:   composeTestsBroken,
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
