package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"
)

// When a request's context ends inside a transaction, database/sql rolls it back and then
// reports only that the transaction is done (the half-closed client's "commit: sql:
// transaction has already been committed or rolled back", logged as a store failure). inTx
// names the cancellation as the cause, and nothing is written.
func TestCancelledTransactionReportsTheCancellation(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	err := s.InTx(ctx, func(tx *dbtx) error {
		if _, err := tx.Exec(`CREATE TABLE gone (x INTEGER)`); err != nil {
			return err
		}
		cancel()
		// database/sql's watcher rolls the transaction back once it sees the context end.
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if _, err := tx.Exec(`SELECT 1`); errors.Is(err, sql.ErrTxDone) {
				return nil // as if the last statement had raced the cancellation and won
			}
		}
		t.Fatal("the transaction was never rolled back")
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("inTx after a cancellation: %v, want context.Canceled in the chain", err)
	}
	var n int
	if err := s.r.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE name = 'gone'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the cancelled transaction wrote: %d (%v)", n, err)
	}
}
