// Package ledger decides whether an account's money is consistent, from the figures a store
// reads (store.LedgerChecker). The rules live here, not in SQL, so every store engine is held
// to the same ones and only has to sum its rows.
package ledger

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"svc/internal/billing"
	"svc/internal/store"
)

// Problem kinds.
const (
	// KindBalance: the balance is not the sum of the account's ledger rows (top-ups less
	// charges).
	KindBalance = "balance_mismatch"
	// KindReserved: accounts.reserved_micro is not the sum of the account's reservations.
	KindReserved = "reserved_mismatch"
	// KindExpiredReservation: a reservation outlived its expiry, so nothing released it
	// (neither its answer, nor a later charge of the account, nor the sweeper).
	KindExpiredReservation = "expired_reservation"
	// KindUnledgeredCharge: a charged usage event has no ledger row, so the money it records
	// was never taken from the balance through the ledger.
	KindUnledgeredCharge = "charge_without_ledger_row"
)

// Problem is one inconsistency of one account.
type Problem struct {
	AccountID int64  `json:"account_id"`
	Kind      string `json:"kind"`
	Detail    string `json:"detail"`
}

// Result is the verdict over every account checked.
type Result struct {
	OK       bool      `json:"ok"`
	Accounts int       `json:"accounts"`
	Problems []Problem `json:"problems"`
}

// Check applies the rules to every account of r. A negative balance is not by itself a
// problem: a settled answer may overdraw by at most one hold, and the account owes it; the
// balance must still be exactly what its ledger sums to.
func Check(r store.LedgerReport) Result {
	res := Result{Accounts: len(r.Accounts), Problems: []Problem{}}
	for _, a := range r.Accounts {
		res.Problems = append(res.Problems, CheckAccount(a)...)
	}
	res.OK = len(res.Problems) == 0
	return res
}

// CheckAccount applies the rules to one account.
func CheckAccount(a store.AccountLedger) []Problem {
	var out []Problem
	add := func(kind, format string, args ...any) {
		out = append(out, Problem{AccountID: a.AccountID, Kind: kind, Detail: fmt.Sprintf(format, args...)})
	}
	var sum int64
	for _, v := range a.LedgerMicro {
		sum += v
	}
	if a.BalanceMicro != sum {
		add(KindBalance, "balance is %s USD but the ledger sums to %s USD (%s): off by %s USD",
			usd(a.BalanceMicro), usd(sum), byKind(a.LedgerMicro), usd(a.BalanceMicro-sum))
	}
	if a.ReservedMicro != a.ReservationsMicro {
		add(KindReserved, "reserved is %s USD but its %d reservation(s) hold %s USD",
			usd(a.ReservedMicro), a.Reservations, usd(a.ReservationsMicro))
	}
	if a.Expired > 0 {
		add(KindExpiredReservation, "%d reservation(s) holding %s USD expired and were not released (the oldest expired at %s)",
			a.Expired, usd(a.ExpiredMicro), a.OldestExpiry.UTC().Format(time.RFC3339))
	}
	if a.UnledgeredCount > 0 {
		events := make([]string, 0, len(a.Unledgered))
		for _, e := range a.Unledgered {
			where := "no message"
			if e.MessageID != 0 {
				where = fmt.Sprintf("message %d", e.MessageID)
			}
			events = append(events, fmt.Sprintf("event %d (%s, %s, %s USD)", e.EventID, e.EventType, where, usd(e.CostMicro)))
		}
		more := ""
		if n := a.UnledgeredCount - len(a.Unledgered); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		add(KindUnledgeredCharge, "%d charged usage event(s) have no ledger row: %s%s",
			a.UnledgeredCount, strings.Join(events, ", "), more)
	}
	return out
}

func usd(micro int64) string { return billing.FormatUSD(micro) }

// byKind lists the ledger's sums by kind in a fixed order, for a detail line.
func byKind(m map[string]int64) string {
	if len(m) == 0 {
		return "no rows"
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %s", k, usd(m[k])))
	}
	return strings.Join(parts, ", ")
}
