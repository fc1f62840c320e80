package ledger

import (
	"strings"
	"testing"
	"time"

	"svc/internal/store"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	consistent := store.AccountLedger{AccountID: 1, BalanceMicro: 700, ReservedMicro: 50,
		LedgerMicro:  map[string]int64{store.LedgerTopup: 1000, store.LedgerCharge: -300},
		Reservations: 1, ReservationsMicro: 50}
	overdrawn := store.AccountLedger{AccountID: 2, BalanceMicro: -40,
		LedgerMicro: map[string]int64{store.LedgerTopup: 100, store.LedgerCharge: -140}}
	empty := store.AccountLedger{AccountID: 3, LedgerMicro: map[string]int64{}}
	tests := []struct {
		name  string
		acct  store.AccountLedger
		kinds []string
		want  string // in the detail of the first problem
	}{
		{"consistent", consistent, nil, ""},
		{"overdrawn by a settled hold is no problem", overdrawn, nil, ""},
		{"new account", empty, nil, ""},
		{"balance off", with(consistent, func(a *store.AccountLedger) { a.BalanceMicro = 900 }),
			[]string{KindBalance}, "balance is 0.0009 USD but the ledger sums to 0.0007 USD (charge -0.0003, topup 0.001): off by 0.0002 USD"},
		{"reserved off", with(consistent, func(a *store.AccountLedger) { a.ReservedMicro = 0 }),
			[]string{KindReserved}, "1 reservation(s) hold 0.00005 USD"},
		{"expired reservation", with(consistent, func(a *store.AccountLedger) {
			a.Expired, a.ExpiredMicro, a.OldestExpiry = 1, 50, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		}), []string{KindExpiredReservation}, "expired at 2025-03-01T12:00:00Z"},
		{"charge without ledger row", with(consistent, func(a *store.AccountLedger) {
			a.UnledgeredCount = 3
			a.Unledgered = []store.UnledgeredEvent{{EventID: 9, MessageID: 4, EventType: "answer", CostMicro: 1200},
				{EventID: 11, EventType: "marketing", CostMicro: 5}}
		}), []string{KindUnledgeredCharge}, "event 9 (answer, message 4, 0.0012 USD), event 11 (marketing, no message, 0.000005 USD) and 1 more"},
		{"several at once", with(consistent, func(a *store.AccountLedger) { a.BalanceMicro, a.ReservedMicro, a.Expired = 1, 1, 1 }),
			[]string{KindBalance, KindReserved, KindExpiredReservation}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckAccount(tc.acct)
			if len(got) != len(tc.kinds) {
				t.Fatalf("problems %+v, want kinds %v", got, tc.kinds)
			}
			for i, p := range got {
				if p.Kind != tc.kinds[i] || p.AccountID != tc.acct.AccountID || p.Detail == "" {
					t.Errorf("problem %d: %+v, want kind %s", i, p, tc.kinds[i])
				}
			}
			if tc.want != "" && !strings.Contains(got[0].Detail, tc.want) {
				t.Errorf("detail %q lacks %q", got[0].Detail, tc.want)
			}
		})
	}
}

func TestCheckReport(t *testing.T) {
	t.Parallel()
	ok := store.AccountLedger{AccountID: 1, LedgerMicro: map[string]int64{}}
	bad := store.AccountLedger{AccountID: 2, BalanceMicro: 5, LedgerMicro: map[string]int64{}}
	if r := Check(store.LedgerReport{Accounts: []store.AccountLedger{ok}}); !r.OK || r.Accounts != 1 || r.Problems == nil {
		t.Fatalf("consistent report: %+v", r)
	}
	r := Check(store.LedgerReport{Accounts: []store.AccountLedger{ok, bad}})
	if r.OK || r.Accounts != 2 || len(r.Problems) != 1 || r.Problems[0].AccountID != 2 {
		t.Fatalf("report with a mismatch: %+v", r)
	}
	if r := Check(store.LedgerReport{}); !r.OK || r.Accounts != 0 {
		t.Fatalf("no accounts: %+v", r)
	}
}

func with(a store.AccountLedger, f func(*store.AccountLedger)) store.AccountLedger {
	f(&a)
	return a
}
