package sqlstore

import "context"

// kbWritten finishes a transaction that changed the account's documents: the cached answers
// they made stale are withdrawn (withdrawCache), then the dialect's index does what it does
// after a write (IndexWritten: FTS5 merges a bounded step of segments; GIN needs none).
func (s *Store) kbWritten(ctx context.Context, tx *Tx, accountID int64, ch docChanges) error {
	if err := withdrawCache(ctx, tx, accountID, ch); err != nil || !ch.written {
		return err
	}
	return s.d.IndexWritten(ctx, tx)
}
