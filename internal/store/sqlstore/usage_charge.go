package sqlstore

import (
	"context"
	"fmt"

	"svc/internal/store"
)

// ChargeUsage records one usage event outside any conversation (a marketing or Intelligence
// API call) and charges it in one transaction, as SaveTurn charges a turn: lapsed
// reservations are released first; with reservationID the reservation is released and the
// charge capped at the free balance (the written-off rest is returned); without one, a charge
// over the free balance fails with ErrInsufficientBalance and writes nothing. The ledger row
// (for a non-zero charge) and the event have no message. c.AmountMicro and c.EventID are
// written back only once the transaction has committed, so a failed charge can be retried as
// it was.
func (s *Store) ChargeUsage(ctx context.Context, accountID int64, c *store.Charge, reservationID int64) (int64, error) {
	switch {
	case c == nil:
		return 0, fmt.Errorf("charge usage: no charge")
	case c.AmountMicro < 0:
		return 0, fmt.Errorf("charge usage: the charge is negative (%d micro-USD)", c.AmountMicro)
	case c.EventType == "":
		return 0, fmt.Errorf("charge usage: the charge has no event type")
	}
	now := s.now().UTC()
	ch := *c
	var capped int64
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockExistingAccount(ctx, tx, accountID); err != nil {
			return err
		}
		if err := releaseLapsed(ctx, tx, accountID, now); err != nil {
			return err
		}
		if reservationID != 0 {
			if err := releaseReservation(ctx, tx, accountID, reservationID); err != nil {
				return err
			}
		}
		var balance int64
		if ch.AmountMicro > 0 {
			taken, after, err := charge(ctx, tx, accountID, ch.AmountMicro, reservationID != 0, 0)
			if err != nil {
				return err
			}
			capped = ch.AmountMicro - taken
			ch.AmountMicro, balance = taken, after
		}
		return s.recordCharge(ctx, tx, accountID, 0, 0, &ch, balance, now)
	})
	if err != nil {
		return 0, err
	}
	*c = ch
	return capped, nil
}
