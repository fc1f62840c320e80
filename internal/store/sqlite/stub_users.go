package sqlite

// Placeholder implementations of store.Users; replaced by users.go, sessions.go and
// auth_tokens.go (this file is deleted then).

import (
	"context"
	"errors"
	"time"

	"svc/internal/store"
)

var errUsersTODO = errors.New("sqlite: users not implemented yet")

func (s *Store) CreateUser(ctx context.Context, u *store.User) error { return errUsersTODO }
func (s *Store) GetUser(ctx context.Context, accountID, userID int64) (store.User, error) {
	return store.User{}, errUsersTODO
}
func (s *Store) UserByEmail(ctx context.Context, email string) (store.User, error) {
	return store.User{}, errUsersTODO
}
func (s *Store) ListUsers(ctx context.Context, accountID int64) ([]store.User, error) {
	return nil, errUsersTODO
}
func (s *Store) UpdateUser(ctx context.Context, u *store.User) error           { return errUsersTODO }
func (s *Store) RemoveUser(ctx context.Context, accountID, userID int64) error { return errUsersTODO }
func (s *Store) SetPassword(ctx context.Context, accountID, userID int64, hash string, at time.Time, keep int64) error {
	return errUsersTODO
}
func (s *Store) RecordSignIn(ctx context.Context, accountID, userID int64, at time.Time) error {
	return errUsersTODO
}
func (s *Store) CreateSession(ctx context.Context, x *store.Session) error { return errUsersTODO }
func (s *Store) SessionByHash(ctx context.Context, hash []byte) (store.Session, error) {
	return store.Session{}, errUsersTODO
}
func (s *Store) TouchSession(ctx context.Context, id int64, at time.Time) error { return errUsersTODO }
func (s *Store) DeleteSession(ctx context.Context, id int64) error              { return errUsersTODO }
func (s *Store) DeleteUserSessions(ctx context.Context, accountID, userID int64) error {
	return errUsersTODO
}
func (s *Store) DeleteStaleSessions(ctx context.Context, idleBefore, now time.Time) (int, error) {
	return 0, errUsersTODO
}
func (s *Store) CreateAuthToken(ctx context.Context, t *store.AuthToken) error { return errUsersTODO }
func (s *Store) AuthTokenByHash(ctx context.Context, hash []byte) (store.AuthToken, error) {
	return store.AuthToken{}, errUsersTODO
}
func (s *Store) RedeemAuthToken(ctx context.Context, hash []byte, now time.Time, ph string) (store.User, error) {
	return store.User{}, errUsersTODO
}
