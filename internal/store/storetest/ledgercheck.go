package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"svc/internal/ledger"
	"svc/internal/store"
)

// Tamperer breaks a store's data behind its contract's back, as a bug or a hand edit would,
// so the suite can check that CheckLedger's figures reveal it. A store implements it in its
// test code only.
type Tamperer interface {
	// TamperBalance moves accounts.balance_micro by delta and writes no ledger row.
	TamperBalance(ctx context.Context, accountID, delta int64) error
	// TamperReserved moves accounts.reserved_micro by delta and touches no reservation.
	TamperReserved(ctx context.Context, accountID, delta int64) error
	// TamperDropCharge deletes the ledger row of a charged usage event (the charge row of its
	// message, type and amount) and leaves the event.
	TamperDropCharge(ctx context.Context, accountID, eventID int64) error
}

var ledgerCheckTests = []suiteTest{
	{"LedgerCheckConsistent", testLedgerCheckConsistent},
	{"LedgerCheckExpiredReservation", testLedgerCheckExpiredReservation},
	{"LedgerCheckCorruptedBalance", testLedgerCheckCorruptedBalance},
	{"LedgerCheckCorruptedReserved", testLedgerCheckCorruptedReserved},
	{"LedgerCheckMissingLedgerRow", testLedgerCheckMissingLedgerRow},
}

// ledgerFixture is an account with every kind of money movement: an opening balance, a top-up
// and a correction, a charged answer in a conversation, a charged call outside any, a free
// reply, and a live reservation.
type ledgerFixture struct {
	account     store.Account
	answerEvent int64 // the charged answer's usage event
	usageEvent  int64 // the charged call outside a conversation
	answerCost  int64
	usageCost   int64
}

func newLedgerFixture(t *testing.T, s store.Store, name string) ledgerFixture {
	t.Helper()
	f := ledgerFixture{answerCost: 3_550, usageCost: 1_200}
	f.account, _ = NewAccount(t, s, name, 1_000_000)
	id := f.account.ID
	if _, err := s.AddBalance(ctx(), id, 500_000, "top-up"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddBalance(ctx(), id, -100_000, "correction"); err != nil {
		t.Fatal(err)
	}
	c, err := s.OpenConversation(ctx(), id, "en")
	if err != nil {
		t.Fatal(err)
	}
	// Two answers of the same price: each needs its own ledger row.
	for _, q := range []string{"q1", "q2"} {
		tr := turn(f.account, c, q, "a", store.Charge{EventType: store.EventAnswer, AmountMicro: f.answerCost, InputTokens: 10})
		if err := s.SaveTurn(ctx(), tr); err != nil {
			t.Fatal(err)
		}
		f.answerEvent = tr.Charge.EventID
	}
	if err := s.SaveTurn(ctx(), turn(f.account, c, "hi", "hello", store.Charge{EventType: store.EventCacheShared})); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ch := store.Charge{EventType: "marketing", AmountMicro: f.usageCost, InputTokens: 5}
		if _, err := s.ChargeUsage(ctx(), id, &ch, 0); err != nil {
			t.Fatal(err)
		}
		f.usageEvent = ch.EventID
	}
	reserve(t, s, id, 10_000)
	return f
}

// checkLedger runs CheckLedger on one account at now and applies the rules.
func checkLedger(t *testing.T, s store.Store, accountID int64, now time.Time) ledger.Result {
	t.Helper()
	rep, err := s.CheckLedger(ctx(), accountID, now)
	if err != nil {
		t.Fatalf("check ledger: %v", err)
	}
	return ledger.Check(rep)
}

// wantProblems fails unless res reports exactly these kinds, in order, all for accountID.
func wantProblems(t *testing.T, res ledger.Result, accountID int64, kinds ...string) {
	t.Helper()
	if res.OK != (len(kinds) == 0) || len(res.Problems) != len(kinds) {
		t.Fatalf("problems %+v, want kinds %v", res.Problems, kinds)
	}
	for i, p := range res.Problems {
		if p.Kind != kinds[i] || p.AccountID != accountID {
			t.Fatalf("problem %d: %+v, want %s of account %d", i, p, kinds[i], accountID)
		}
	}
}

func tamperer(t *testing.T, s store.Store) Tamperer {
	t.Helper()
	tm, ok := s.(Tamperer)
	if !ok {
		t.Fatalf("the store under test (%T) does not implement storetest.Tamperer in its test code", s)
	}
	return tm
}

func testLedgerCheckConsistent(t *testing.T, s store.Store) {
	f := newLedgerFixture(t, s, "Consistent")
	other, _ := NewAccount(t, s, "Empty", 0)
	rep, err := s.CheckLedger(ctx(), f.account.ID, time.Now())
	if err != nil || len(rep.Accounts) != 1 {
		t.Fatalf("one account: %v %+v", err, rep)
	}
	a := rep.Accounts[0]
	wantCharges := -2*f.answerCost - 2*f.usageCost
	if a.AccountID != f.account.ID || a.LedgerMicro[store.LedgerTopup] != 1_400_000 || a.LedgerMicro[store.LedgerCharge] != wantCharges ||
		a.BalanceMicro != 1_400_000+wantCharges || a.Reservations != 1 || a.ReservationsMicro != 10_000 ||
		a.ReservedMicro != 10_000 || a.Expired != 0 || a.UnledgeredCount != 0 || !a.OldestExpiry.IsZero() {
		t.Fatalf("figures: %+v", a)
	}
	wantProblems(t, ledger.Check(rep), f.account.ID)

	all, err := s.CheckLedger(ctx(), 0, time.Now())
	if err != nil || len(all.Accounts) != 2 || all.Accounts[0].AccountID != f.account.ID || all.Accounts[1].AccountID != other.ID {
		t.Fatalf("every account: %v %+v", err, all)
	}
	if res := ledger.Check(all); !res.OK || res.Accounts != 2 {
		t.Fatalf("every account: %+v", res)
	}
	if _, err := s.CheckLedger(ctx(), other.ID+100, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing account: %v", err)
	}
}

func testLedgerCheckExpiredReservation(t *testing.T, s store.Store) {
	f := newLedgerFixture(t, s, "Stale")
	// The fixture's reservation lives a minute; seen from two minutes on, nothing released it.
	later := time.Now().Add(2 * time.Minute)
	res := checkLedger(t, s, f.account.ID, later)
	wantProblems(t, res, f.account.ID, ledger.KindExpiredReservation)
	rep, _ := s.CheckLedger(ctx(), f.account.ID, later)
	if a := rep.Accounts[0]; a.Expired != 1 || a.ExpiredMicro != 10_000 || a.OldestExpiry.IsZero() || !a.OldestExpiry.Before(later) {
		t.Fatalf("expired figures: %+v", a)
	}
}

func testLedgerCheckCorruptedBalance(t *testing.T, s store.Store) {
	f := newLedgerFixture(t, s, "Corrupt")
	clean, _ := NewAccount(t, s, "Clean", 5_000)
	if err := tamperer(t, s).TamperBalance(ctx(), f.account.ID, 777); err != nil {
		t.Fatal(err)
	}
	wantProblems(t, checkLedger(t, s, f.account.ID, time.Now()), f.account.ID, ledger.KindBalance)
	// Checking every account finds the one, and only it.
	wantProblems(t, checkLedger(t, s, 0, time.Now()), f.account.ID, ledger.KindBalance)
	wantProblems(t, checkLedger(t, s, clean.ID, time.Now()), clean.ID)
}

func testLedgerCheckCorruptedReserved(t *testing.T, s store.Store) {
	f := newLedgerFixture(t, s, "Held")
	if err := tamperer(t, s).TamperReserved(ctx(), f.account.ID, 5_000); err != nil {
		t.Fatal(err)
	}
	wantProblems(t, checkLedger(t, s, f.account.ID, time.Now()), f.account.ID, ledger.KindReserved)
}

func testLedgerCheckMissingLedgerRow(t *testing.T, s store.Store) {
	for _, tc := range []struct {
		name  string
		event func(ledgerFixture) (int64, int64)
	}{
		{"answer", func(f ledgerFixture) (int64, int64) { return f.answerEvent, f.answerCost }},
		{"outside a conversation", func(f ledgerFixture) (int64, int64) { return f.usageEvent, f.usageCost }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newLedgerFixture(t, s, "Unledgered "+tc.name)
			event, cost := tc.event(f)
			tm := tamperer(t, s)
			if err := tm.TamperDropCharge(ctx(), f.account.ID, event); err != nil {
				t.Fatal(err)
			}
			// Without its row the balance no longer matches the ledger either; put the
			// money back so the missing row is the only thing left to find.
			if err := tm.TamperBalance(ctx(), f.account.ID, cost); err != nil {
				t.Fatal(err)
			}
			wantProblems(t, checkLedger(t, s, f.account.ID, time.Now()), f.account.ID, ledger.KindUnledgeredCharge)
			rep, _ := s.CheckLedger(ctx(), f.account.ID, time.Now())
			a := rep.Accounts[0]
			if a.UnledgeredCount != 1 || len(a.Unledgered) != 1 || a.Unledgered[0].EventID != event || a.Unledgered[0].CostMicro != cost {
				t.Fatalf("unledgered: %+v", a.Unledgered)
			}
		})
	}
}
