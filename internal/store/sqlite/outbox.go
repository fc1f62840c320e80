package sqlite

import (
	"context"
	"time"

	"svc/internal/store"
)

func (s *Store) EnqueueNotice(ctx context.Context, n *store.Notice) (bool, error) { return false, errTODO }
func (s *Store) ClaimNotices(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Notice, error) {
	return nil, errTODO
}
func (s *Store) NoticeSent(ctx context.Context, noticeID int64, at time.Time) error { return errTODO }
func (s *Store) NoticeFailed(ctx context.Context, noticeID int64, errText string, next time.Time, final bool) error {
	return errTODO
}
func (s *Store) Notices(ctx context.Context, accountID int64) ([]store.Notice, error) { return nil, errTODO }
