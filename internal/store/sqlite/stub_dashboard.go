package sqlite

// Placeholder implementations of store.Dashboard; replaced by the dashboard query files
// (this file is deleted then).

import (
	"context"
	"errors"
	"time"

	"svc/internal/store"
)

var errDashTODO = errors.New("sqlite: dashboard queries not implemented yet")

func (s *Store) ListConversations(ctx context.Context, accountID int64, f store.ConversationFilter) ([]store.ConversationRow, error) {
	return nil, errDashTODO
}
func (s *Store) GetConversation(ctx context.Context, accountID, id int64) (store.Conversation, error) {
	return store.Conversation{}, errDashTODO
}
func (s *Store) Transcript(ctx context.Context, accountID, id, beforeID int64, limit int) ([]store.TranscriptMessage, error) {
	return nil, errDashTODO
}
func (s *Store) DailyUsage(ctx context.Context, accountID int64, since time.Time) ([]store.DayUsage, error) {
	return nil, errDashTODO
}
func (s *Store) DailySources(ctx context.Context, accountID int64, since time.Time) ([]store.DaySource, error) {
	return nil, errDashTODO
}
func (s *Store) ReplyStats(ctx context.Context, accountID int64, since time.Time) (store.ReplyStats, error) {
	return store.ReplyStats{}, errDashTODO
}
func (s *Store) Unanswered(ctx context.Context, accountID int64, since time.Time, limit int) ([]store.UnansweredQuestion, error) {
	return nil, errDashTODO
}
func (s *Store) ReviewQueue(ctx context.Context, accountID int64, kind string, offset, limit int) ([]store.ReviewQueueItem, int, error) {
	return nil, 0, errDashTODO
}
func (s *Store) DismissReview(ctx context.Context, accountID int64, kind string, id int64) error {
	return errDashTODO
}
func (s *Store) ResolveFallback(ctx context.Context, accountID, messageID int64, doc *store.Document) error {
	return errDashTODO
}
func (s *Store) ListDocuments(ctx context.Context, accountID int64, q store.DocQuery) ([]store.DocumentRow, int, error) {
	return nil, 0, errDashTODO
}
func (s *Store) DeleteDocument(ctx context.Context, accountID, docID int64) error { return errDashTODO }
func (s *Store) ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *store.Document) error {
	return errDashTODO
}
func (s *Store) LedgerPage(ctx context.Context, accountID, beforeID int64, limit int) ([]store.LedgerEntry, int, error) {
	return nil, 0, errDashTODO
}
func (s *Store) ActiveKey(ctx context.Context, accountID int64) (store.APIKey, error) {
	return store.APIKey{}, errDashTODO
}
