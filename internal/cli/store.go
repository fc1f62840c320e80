package cli

import (
	"context"
	"errors"
	"fmt"

	"svc/internal/store/sqlite"
	"svc/internal/storecopy"
)

// cmdStoreCopy runs `svc store copy --from SRC --to DST`: every record of one store (a data
// directory or a postgres:// URL) into another, empty one, verified by per-table counts and
// ledger totals (DECISIONS.md, "Several machines"; storecopy). --data and --database-url are
// not read: both sides are named explicitly, so a copy never picks a store from the
// environment by accident.
func cmdStoreCopy(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("store copy", env)
	if err != nil {
		return err
	}
	from := c.fs.String("from", "", "store to copy: a data directory or a postgres:// URL")
	to := c.fs.String("to", "", "empty store to copy into: a data directory or a postgres:// URL")
	if err := c.noPositional(args); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		return usagef("store copy: --from SRC and --to DST are required (a data directory or a postgres:// URL each)")
	}
	src, err := storecopy.ParseEndpoint(*from)
	if err != nil {
		return usagef("store copy: --from: %v", err)
	}
	dst, err := storecopy.ParseEndpoint(*to)
	if err != nil {
		return usagef("store copy: --to: %v", err)
	}
	res, err := storecopy.Copy(ctx, src, dst)
	switch {
	case errors.Is(err, storecopy.ErrNoSource), errors.Is(err, storecopy.ErrNotEmpty),
		errors.Is(err, storecopy.ErrSame), errors.Is(err, storecopy.ErrSchema), errors.Is(err, sqlite.ErrServing):
		return usagef("store copy: %v", err)
	case err != nil:
		return fmt.Errorf("store copy: %w", err)
	}
	out := map[string]any{"from": res.From, "to": res.To, "tables": res.Tables,
		"ledger_total_micro": res.LedgerTotalMicro, "balance_total_micro": res.BalanceMicro,
		"reserved_total_micro": res.ReservedMicro, "schema_version": res.SchemaVersion,
		"verified": res.Verified, "duration_ms": res.Duration.Milliseconds()}
	if !res.Verified {
		out["mismatches"] = res.Mismatches
	}
	if err := c.print(out); err != nil {
		return err
	}
	if !res.Verified {
		return fmt.Errorf("store copy: the target differs from the source (%d mismatches); see \"mismatches\"", len(res.Mismatches))
	}
	return nil
}
