package privacy

import (
	"context"
	"errors"
	"fmt"

	"svc/internal/errs"
	"svc/internal/store"
)

// AccountStore is what deleting an account needs of the store.
type AccountStore interface {
	GetAccount(ctx context.Context, accountID int64) (store.Account, error)
	DeleteAccount(ctx context.Context, accountID int64) (store.AccountDeletion, error)
}

// DeleteAccount deletes the account and everything it owns, once confirm repeats its name:
// the id alone is too easy to get wrong for something that cannot be undone, and the name
// shows the operator which account it is.
//
// What accounting needs is kept: a record of the deleted account (id, name, plan, final
// balance) and every ledger row it had, unchanged, in the ledger archive; the rows sum to
// the final balance, so a balance refunded, written off or owed stays explained. Everything
// else (keys, conversations and messages, the knowledge base and its chunks' vectors, sites
// and crawls, embed tokens, dashboard users and sessions, notices, cache, reservations, usage
// events and daily totals, the owner's test sets with their runs and results) is deleted. Ids are never handed out again, so the archive can
// never be confused with a newer account.
func DeleteAccount(ctx context.Context, st AccountStore, accountID int64, confirm string) (store.AccountDeletion, error) {
	a, err := st.GetAccount(ctx, accountID)
	if errors.Is(err, store.ErrNotFound) {
		return store.AccountDeletion{}, errs.Newf(errs.NotFound, "account %d does not exist", accountID)
	}
	if err != nil {
		return store.AccountDeletion{}, fmt.Errorf("delete account: %w", err)
	}
	if confirm != a.Name {
		return store.AccountDeletion{}, errs.Newf(errs.BadRequest,
			"account %d is named %q; confirm with its exact name to delete it (nothing was deleted)", a.ID, a.Name)
	}
	d, err := st.DeleteAccount(ctx, accountID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Deleted by someone else since it was read.
		return d, errs.Newf(errs.NotFound, "account %d does not exist", accountID)
	case errors.Is(err, store.ErrConflict):
		// Not the operator's mistake, and gone by itself within a crawl's time: not exit 2.
		return d, fmt.Errorf("account %d has a crawl in progress; nothing was deleted: try again once it has finished", accountID)
	}
	if err != nil {
		return d, fmt.Errorf("delete account: %w", err)
	}
	return d, nil
}
