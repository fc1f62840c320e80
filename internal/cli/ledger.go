package cli

import (
	"context"
	"fmt"
	"time"

	"svc/internal/ledger"
	"svc/internal/store"
)

// cmdLedgerCheck runs `svc ledger check [--account ID]`: the store reads each account's
// balance, ledger sums, reservations and charged events in one snapshot, and ledger.Check
// decides. It prints the verdict and exits 1 when anything is wrong, so scripts and the
// crash-recovery test can run it after a restart.
func cmdLedgerCheck(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("ledger check", env)
	if err != nil {
		return err
	}
	id := c.fs.Int64("account", 0, "check only this account (default: every account)")
	if err := c.noPositional(args); err != nil {
		return err
	}
	if *id < 0 {
		return usagef("ledger check: --account must be a positive account id")
	}
	// One account must exist (exit 2 when not); without one, every account is checked.
	var s store.Store
	if *id != 0 {
		s, err = c.openAccount(ctx, *id)
	} else {
		s, err = c.openStore(ctx)
	}
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := s.CheckLedger(ctx, *id, time.Now())
	if err != nil {
		return err
	}
	res := ledger.Check(rep)
	if err := c.print(res); err != nil {
		return err
	}
	if !res.OK {
		return fmt.Errorf("ledger check: %d problem(s) in %d account(s) checked", len(res.Problems), res.Accounts)
	}
	return nil
}
