package demo

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"slices"
	"time"

	"svc/internal/store"
	"svc/internal/users"
)

// OwnerEmail is the demo account's dashboard owner.
const OwnerEmail = "owner@yolcu-outdoor.example"

// ownerStore is what seeding the demo owner needs.
type ownerStore interface {
	ListUsers(ctx context.Context, accountID int64) ([]store.User, error)
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
	list, err := st.ListUsers(ctx, a.ID)
	if err != nil {
		return "", "", fmt.Errorf("demo owner: %w", err)
	}
	i := slices.IndexFunc(list, func(u store.User) bool { return u.Email == OwnerEmail })
	if i < 0 {
		if _, _, err := us.AddUser(ctx, a.ID, OwnerEmail, store.UserOwner, password); err != nil {
			return "", "", fmt.Errorf("demo owner: %w", err)
		}
		return OwnerEmail, password, nil
	}
	u := list[i]
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
