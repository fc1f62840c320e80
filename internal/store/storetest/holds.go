package storetest

import (
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// Holds are reservations as the chat service now sizes them: from what answers usually cost,
// so a settle may exceed its hold, and a process that dies leaves its holds behind for the
// sweep to release.
var holdTests = []suiteTest{
	{"OverdraftIsBoundedByTheHold", testOverdraftBound},
	{"ConcurrentOverdraftSettles", testConcurrentOverdraftSettles},
}

var holdClockedTests = []clockedTest{
	{"ReleaseReservationsSweep", testReleaseReservations},
	{"SweepRacesSettles", testSweepRacesSettles},
}

func testOverdraftBound(t *testing.T, s store.Store) {
	for _, tc := range []struct {
		name                      string
		balance, hold, cost, over int64
		wantTaken, wantBalance    int64
	}{
		// The hold was an estimate: the real cost is paid in full while it overdraws by less
		// than the allowance.
		{"within the allowance", 10_000, 8_000, 15_000, 8_000, 15_000, -5_000},
		// Past the allowance the rest is written off: the balance stops at minus one hold.
		{"past the allowance", 10_000, 8_000, 30_000, 8_000, 18_000, -8_000},
		// Without an allowance a settle stops at zero, as before.
		{"no allowance", 10_000, 8_000, 15_000, 0, 10_000, 0},
		// A hold that covers the cost never touches the allowance.
		{"covered", 10_000, 8_000, 6_000, 8_000, 6_000, 4_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := NewAccount(t, s, "Overdraft "+tc.name, tc.balance)
			c, _ := s.OpenConversation(ctx(), a.ID, "en")
			r := reserve(t, s, a.ID, tc.hold)
			tr := turn(a, c, "Q?", "A.", store.Charge{EventType: store.EventAnswer, AmountMicro: tc.cost,
				InputTokens: 100, OutputTokens: 10})
			tr.ReservationID, tr.OverdraftMicro = r.ID, tc.over
			if err := s.SaveTurn(ctx(), tr); err != nil {
				t.Fatal(err)
			}
			if tr.Charge.AmountMicro != tc.wantTaken || tr.Capped != tc.cost-tc.wantTaken {
				t.Fatalf("took %d, capped %d; want %d and %d", tr.Charge.AmountMicro, tr.Capped, tc.wantTaken, tc.cost-tc.wantTaken)
			}
			got := account(t, s, a.ID)
			if got.BalanceMicro != tc.wantBalance || got.ReservedMicro != 0 || ledgerSum(t, s, a.ID) != tc.wantBalance {
				t.Fatalf("balance %d reserved %d, want %d and 0", got.BalanceMicro, got.ReservedMicro, tc.wantBalance)
			}
		})
	}
	// An overdrawn account reserves nothing more, and an allowance without a reservation
	// (an uncapped charge) is refused rather than overdrawing.
	a, _ := NewAccount(t, s, "Overdrawn", 1_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	tr := turn(a, c, "Q?", "A.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5_000})
	tr.OverdraftMicro = 5_000
	if err := s.SaveTurn(ctx(), tr); err == nil {
		t.Fatal("an unreserved charge above the balance was taken")
	}
	r := reserve(t, s, a.ID, 1_000)
	tr = turn(a, c, "Q?", "A.", store.Charge{EventType: store.EventAnswer, AmountMicro: 3_000})
	tr.ReservationID, tr.OverdraftMicro = r.ID, 2_500
	if err := s.SaveTurn(ctx(), tr); err != nil || account(t, s, a.ID).BalanceMicro != -2_000 {
		t.Fatalf("settle: %v, balance %d", err, account(t, s, a.ID).BalanceMicro)
	}
	if _, err := s.Reserve(ctx(), a.ID, 1, time.Minute, nil); err == nil {
		t.Fatal("an overdrawn account got a reservation")
	}
}

// Twenty-four answers race on a balance that funds a few: each holds less than it costs and
// may overdraw by its hold. However they interleave, the balance never goes below minus one
// hold and always equals the ledger.
func testConcurrentOverdraftSettles(t *testing.T, s store.Store) {
	const hold, cost, workers = 1_000, 2_500, 24
	a, _ := NewAccount(t, s, "Crowd", 10_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := s.Reserve(ctx(), a.ID, hold, time.Minute, nil)
			if err != nil {
				return // refused: the balance is held or spent
			}
			tr := turn(a, c, "Q?", "A.", store.Charge{EventType: store.EventAnswer, AmountMicro: cost})
			tr.ReservationID, tr.OverdraftMicro = r.ID, hold
			if err := s.SaveTurn(ctx(), tr); err != nil {
				t.Errorf("settle: %v", err)
			}
		}()
	}
	wg.Wait()
	got := account(t, s, a.ID)
	if got.BalanceMicro < -hold || got.ReservedMicro != 0 || ledgerSum(t, s, a.ID) != got.BalanceMicro {
		t.Fatalf("balance %d, reserved %d, ledger %d", got.BalanceMicro, got.ReservedMicro, ledgerSum(t, s, a.ID))
	}
}

func testReleaseReservations(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Crashed", 100_000)
	b, _ := NewAccount(t, s, "Also crashed", 100_000)
	short, err := s.Reserve(ctx(), a.ID, 10_000, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reserve(ctx(), b.ID, 20_000, time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	long, err := s.Reserve(ctx(), a.ID, 30_000, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing has lapsed yet.
	if got, err := s.ReleaseReservations(ctx(), clock.Now(), time.Time{}); err != nil || got.Count != 0 {
		t.Fatalf("early sweep: %+v %v", got, err)
	}
	clock.Advance(2 * time.Minute)
	got, err := s.ReleaseReservations(ctx(), clock.Now(), time.Time{})
	if err != nil || got != (store.ReleasedReservations{Count: 2, Micro: 30_000, Accounts: 2}) {
		t.Fatalf("sweep: %+v %v", got, err)
	}
	if ra, rb := account(t, s, a.ID).ReservedMicro, account(t, s, b.ID).ReservedMicro; ra != 30_000 || rb != 0 {
		t.Fatalf("reserved %d and %d after the sweep, want 30000 and 0", ra, rb)
	}
	// Released twice is released once: the settle of a swept hold gives nothing back again.
	if err := s.Release(ctx(), a.ID, short.ID); err != nil || account(t, s, a.ID).ReservedMicro != 30_000 {
		t.Fatalf("release of a swept hold: %v, reserved %d", err, account(t, s, a.ID).ReservedMicro)
	}
	// A process starting alone releases every hold made before it, lapsed or not.
	fresh, err := s.Reserve(ctx(), a.ID, 5_000, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = long
	got, err = s.ReleaseReservations(ctx(), clock.Now(), fresh.CreatedAt)
	if err != nil || got != (store.ReleasedReservations{Count: 1, Micro: 30_000, Accounts: 1}) {
		t.Fatalf("start-up release: %+v %v", got, err)
	}
	if r := account(t, s, a.ID).ReservedMicro; r != 5_000 {
		t.Fatalf("reserved %d, want the fresh 5000", r)
	}
	assertMoney(t, s, a.ID, 100_000, 5_000)
	assertMoney(t, s, b.ID, 100_000, 0)
}

// Settles race the sweep of their own lapsed holds: every amount comes back exactly once.
func testSweepRacesSettles(t *testing.T, s store.Store, clock *Clock) {
	const workers, hold, cost = 20, 2_000, 1_500
	a, _ := NewAccount(t, s, "Racer", 100_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	ids := make([]int64, workers)
	for i := range ids {
		ids[i] = reserve(t, s, a.ID, hold).ID
	}
	clock.Advance(2 * time.Minute) // every hold has lapsed
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			tr := turn(a, c, "Q?", "A.", store.Charge{EventType: store.EventAnswer, AmountMicro: cost})
			tr.ReservationID, tr.OverdraftMicro = ids[i], hold
			if err := s.SaveTurn(ctx(), tr); err != nil {
				t.Errorf("settle: %v", err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.ReleaseReservations(ctx(), clock.Now(), time.Time{}); err != nil {
				t.Errorf("sweep: %v", err)
			}
		}()
	}
	wg.Wait()
	assertMoney(t, s, a.ID, 100_000-workers*cost, 0)
}
