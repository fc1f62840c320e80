package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"

	"svc/internal/store"
	"svc/internal/users"
)

// OwnerEmail is the demo account's dashboard owner.
const OwnerEmail = "owner@yolcu-outdoor.example"

// ownerStore is what seeding the demo owner needs.
type ownerStore interface {
	UserByEmail(ctx context.Context, email string) (store.User, error)
	SetPassword(ctx context.Context, accountID, userID int64, hash string, at time.Time, keepSessionID int64) error
}

// SeedOwner makes sure the demo account has its dashboard owner and gives it a fresh
// random password, which it returns: like the demo's key, the password is shown once per
// run and never stored in plain text. Setting it ends the owner's earlier sessions.
func SeedOwner(ctx context.Context, st ownerStore, us *users.Service, a store.Account, now time.Time) (email, password string, err error) {
	password, err = randomPassword()
	if err != nil {
		return "", "", err
	}
	u, err := st.UserByEmail(ctx, OwnerEmail)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if _, _, err := us.AddUser(ctx, a.ID, OwnerEmail, store.UserOwner, password); err != nil {
			return "", "", fmt.Errorf("demo owner: %w", err)
		}
		return OwnerEmail, password, nil
	case err != nil:
		return "", "", fmt.Errorf("demo owner: %w", err)
	case u.AccountID != a.ID:
		return "", "", fmt.Errorf("demo owner: %s belongs to account %d", OwnerEmail, u.AccountID)
	}
	hash, err := users.HashPassword(password)
	if err != nil {
		return "", "", err
	}
	if err := st.SetPassword(ctx, a.ID, u.ID, hash, now, 0); err != nil {
		return "", "", fmt.Errorf("demo owner: %w", err)
	}
	return OwnerEmail, password, nil
}

// randomPassword is 16 characters from an alphabet without look-alikes (about 90 bits).
func randomPassword() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 16)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			return "", err
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b), nil
}
