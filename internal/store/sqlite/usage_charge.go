package sqlite

import (
	"context"

	"svc/internal/store"
)

func (s *Store) ChargeUsage(ctx context.Context, accountID int64, c *store.Charge, reservationID int64) (int64, error) {
	return 0, errTODO
}
