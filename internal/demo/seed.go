package demo

import (
	"context"
	"errors"
	"fmt"

	"svc/internal/account"
	"svc/internal/kb"
	"svc/internal/store"
)

// AccountName identifies the demo account, so that seeding again finds it instead of making
// another.
const AccountName = "Yolcu Outdoor (demo)"

// openingBalance is the demo account's balance when it is first made: 5.00 USD, enough for
// a few hundred built-in answers.
const openingBalance = 5_000_000

// Seed makes sure the demo account exists with the bundled KB, and issues it a fresh key. It
// is idempotent: the account and its KB are created once and re-imports of unchanged records
// are skipped. Keys are only ever stored hashed, so the key of an earlier run cannot be shown
// again; each run rotates it and prints the new one.
func Seed(ctx context.Context, st store.Store, accounts *account.Service) (store.Account, string, error) {
	a, err := st.FindAccountByName(ctx, AccountName)
	var key string
	switch {
	case errors.Is(err, store.ErrNotFound):
		name, plan, bal := AccountName, store.PlanGrowth, int64(openingBalance)
		a, key, err = accounts.Create(ctx, account.Settings{Name: &name, Plan: &plan, BalanceMicro: &bal})
		if err != nil {
			return a, "", fmt.Errorf("create demo account: %w", err)
		}
	case err != nil:
		return a, "", fmt.Errorf("find demo account: %w", err)
	default:
		if key, err = accounts.RotateKey(ctx, a.ID); err != nil {
			return a, "", fmt.Errorf("rotate demo key: %w", err)
		}
	}
	if _, err := kb.Import(ctx, st, a.ID, 0, Reader()); err != nil {
		return a, "", fmt.Errorf("import demo KB: %w", err)
	}
	a, err = st.GetAccount(ctx, a.ID)
	return a, key, err
}
