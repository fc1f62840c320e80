package sqlite

import (
	"context"
	"errors"
	"time"

	"svc/internal/store"
)

var errTODO = errors.New("not implemented yet")

func (s *Store) CreateEmbedToken(ctx context.Context, t *store.EmbedToken, maxActive int) error {
	return errTODO
}
func (s *Store) EmbedTokens(ctx context.Context, accountID int64) ([]store.EmbedToken, error) {
	return nil, errTODO
}
func (s *Store) GetEmbedToken(ctx context.Context, accountID, tokenID int64) (store.EmbedToken, error) {
	return store.EmbedToken{}, errTODO
}
func (s *Store) UpdateEmbedToken(ctx context.Context, t *store.EmbedToken) error { return errTODO }
func (s *Store) RevokeEmbedToken(ctx context.Context, accountID, tokenID int64) error {
	return errTODO
}
func (s *Store) ActiveEmbedTokensByPrefix(ctx context.Context, prefix string) ([]store.EmbedToken, error) {
	return nil, errTODO
}
func (s *Store) ActiveEmbedDomains(ctx context.Context) ([]string, error) { return nil, errTODO }
func (s *Store) TouchEmbedToken(ctx context.Context, tokenID int64, at time.Time) error {
	return errTODO
}
func (s *Store) EmbedUsage(ctx context.Context, accountID int64, since time.Time) (map[int64]store.EmbedUsage, error) {
	return nil, errTODO
}
func (s *Store) OpenVisitorConversation(ctx context.Context, accountID, tokenID int64, visitor, lang string) (store.Conversation, error) {
	return store.Conversation{}, errTODO
}
func (s *Store) CountUserMessages(ctx context.Context, accountID, conversationID int64, since time.Time) (int, error) {
	return 0, errTODO
}
