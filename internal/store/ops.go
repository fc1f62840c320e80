package store

import (
	"context"
	"time"
)

// LedgerChecker reads the figures `svc ledger check` compares. The store only sums and
// matches rows; what counts as consistent is decided in Go by internal/ledger, so another
// engine supplies the same figures and inherits the same rules.
type LedgerChecker interface {
	// CheckLedger reads the ledger figures of one account, or of every account when accountID
	// is 0, in one consistent snapshot (a check while `svc serve` writes must not see a
	// charge's balance update without its ledger row). Reservations whose expires_at is at or
	// before now are counted apart. A given account that does not exist is ErrNotFound.
	CheckLedger(ctx context.Context, accountID int64, now time.Time) (LedgerReport, error)
}

// LedgerReport is what CheckLedger read: one entry per account, in id order.
type LedgerReport struct {
	Accounts []AccountLedger
}

// MaxUnledgeredListed bounds AccountLedger.Unledgered; UnledgeredCount counts them all.
const MaxUnledgeredListed = 20

// Ledger row kinds: a top-up is positive (a correction negative), a charge negative.
const (
	LedgerTopup  = "topup"
	LedgerCharge = "charge"
)

// AccountLedger is one account's money as its rows tell it.
type AccountLedger struct {
	AccountID     int64
	BalanceMicro  int64 // accounts.balance_micro
	ReservedMicro int64 // accounts.reserved_micro
	// LedgerMicro is the signed sum of the account's ledger rows by kind (LedgerTopup,
	// LedgerCharge, and any other kind a row has).
	LedgerMicro map[string]int64
	// Reservations and ReservationsMicro count the account's reservation rows and sum their
	// amounts; Expired, ExpiredMicro and OldestExpiry are those whose expiry has passed.
	Reservations      int
	ReservationsMicro int64
	Expired           int
	ExpiredMicro      int64
	OldestExpiry      time.Time // zero when none expired
	// Unledgered are charged usage events (cost above zero) without the ledger charge row of
	// their message, type and amount, oldest first, at most MaxUnledgeredListed of them.
	Unledgered      []UnledgeredEvent
	UnledgeredCount int
}

// UnledgeredEvent is a charged usage event whose ledger row is missing.
type UnledgeredEvent struct {
	EventID   int64
	MessageID int64 // 0: a charge outside any conversation
	EventType string
	CostMicro int64
	CreatedAt time.Time
}
