package storetest

import (
	"testing"
	"time"

	"svc/internal/store"
)

var monitoringClockedTests = []clockedTest{
	{"OpsStats", testOpsStats},
}

// OpsStats counts every account's reservations (and the lapsed ones among them, which still
// hold money until something releases them) and the outbox's waiting and given-up notices.
func testOpsStats(t *testing.T, s store.Store, clock *Clock) {
	stats := func() store.OpsStats {
		t.Helper()
		o, err := s.OpsStats(ctx(), clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	if o := stats(); o != (store.OpsStats{}) {
		t.Fatalf("empty store: %+v", o)
	}
	a, _ := NewAccount(t, s, "Stats A", 1_000_000)
	b, _ := NewAccount(t, s, "Stats B", 1_000_000)
	reserve(t, s, a.ID, 1_000) // a minute to live
	if _, err := s.Reserve(ctx(), b.ID, 2_500, time.Hour, nil); err != nil {
		t.Fatal(err)
	}
	released := reserve(t, s, b.ID, 7_000)
	if err := s.Release(ctx(), b.ID, released.ID); err != nil {
		t.Fatal(err)
	}
	if o := stats(); o.Reservations != 2 || o.ReservedMicro != 3_500 || o.LapsedReservations != 0 {
		t.Fatalf("two live reservations: %+v", o)
	}
	clock.Advance(2 * time.Minute)
	if o := stats(); o.Reservations != 2 || o.ReservedMicro != 3_500 || o.LapsedReservations != 1 {
		t.Fatalf("one lapsed, not yet released: %+v", o)
	}

	for _, key := range []string{"stats:1", "stats:2", "stats:3"} {
		n := store.Notice{AccountID: a.ID, Kind: store.NoticeBudgetReached, DedupeKey: key, Payload: "{}"}
		if _, err := s.EnqueueNotice(ctx(), &n); err != nil {
			t.Fatal(err)
		}
	}
	claimed, err := s.ClaimNotices(ctx(), clock.Now(), time.Minute, 2)
	if err != nil || len(claimed) != 2 {
		t.Fatalf("claim: %v %d", err, len(claimed))
	}
	if err := s.NoticeSent(ctx(), claimed[0].ID, clock.Now(), false); err != nil {
		t.Fatal(err)
	}
	if err := s.NoticeFailed(ctx(), claimed[1].ID, "refused", clock.Now(), true); err != nil {
		t.Fatal(err)
	}
	if o := stats(); o.PendingNotices != 1 || o.FailedNotices != 1 {
		t.Fatalf("one pending, one given up, one sent: %+v", o)
	}
}
