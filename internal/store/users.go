package store

import (
	"context"
	"time"
)

// Dashboard user roles. An owner may do everything; an agent reads conversations, works
// the review queue and curated Q&A, and sees usage read-only.
const (
	UserOwner = "owner"
	UserAgent = "agent"
)

// User is a person's membership of one account's dashboard. One person (one e-mail) may
// have a user in several accounts, an agency's staff in each client's, each with its own
// role and password; an e-mail is unique within an account.
type User struct {
	ID        int64
	AccountID int64
	// Email is lower-cased by the caller and unique within the account.
	Email string
	Role  string // UserOwner or UserAgent
	// PasswordHash is a PHC-format argon2id string; "" until the user sets a password
	// through an invite link.
	PasswordHash string
	Lang         string // the dashboard language the user chose; "" = the account's
	CreatedAt    time.Time
	LastSignInAt time.Time // zero: never
	// PasswordChangedAt is when the password was last set (zero: never).
	PasswordChangedAt time.Time
}

// Session is one signed-in browser. Only the SHA-256 of its random id is stored, so a
// copy of the database does not sign anyone in.
type Session struct {
	ID         int64
	Hash       []byte
	UserID     int64
	AccountID  int64
	UserAgent  string // clipped; shown to the user in a list of their sessions
	CreatedAt  time.Time
	LastSeenAt time.Time
	// ExpiresAt is the absolute end of the session, however active it is.
	ExpiresAt time.Time
}

// One-time link kinds.
const (
	AuthInvite = "invite" // set a first password
	AuthReset  = "reset"  // forgot password
)

// AuthToken is a one-time link that lets a user set a password. Only the SHA-256 of its
// random secret is stored.
type AuthToken struct {
	ID        int64
	Hash      []byte
	UserID    int64
	AccountID int64
	Kind      string // AuthInvite or AuthReset
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // zero until redeemed
}

// Users stores dashboard users, their sessions and their one-time links. Rules (expiry,
// throttling, hashing) live in the users package; the store keeps data and makes the
// multi-row changes atomic.
type Users interface {
	// CreateUser inserts u and fills ID and CreatedAt. ErrConflict when the account already
	// has a user with that e-mail (other accounts' users do not matter).
	CreateUser(ctx context.Context, u *User) error
	// GetUser returns one of the account's users, or ErrNotFound.
	GetUser(ctx context.Context, accountID, userID int64) (User, error)
	// UsersByEmail returns the users with that (lower-cased) e-mail in every account, oldest
	// first; none is an empty list. Sign-in and password resets are its callers.
	UsersByEmail(ctx context.Context, email string) ([]User, error)
	// ListUsers returns the account's users, oldest first.
	ListUsers(ctx context.Context, accountID int64) ([]User, error)
	// UpdateUser writes u's Role and Lang. ErrNotFound when the account has no such user.
	UpdateUser(ctx context.Context, u *User) error
	// RemoveUser deletes the user with its sessions and links, in one transaction.
	// ErrNotFound when the account has no such user.
	RemoveUser(ctx context.Context, accountID, userID int64) error
	// SetPassword stores hash as the user's password at at and, in the same transaction,
	// deletes every session of the user but keepSessionID (0: all of them) and every unused
	// link of the user. ErrNotFound when the account has no such user.
	SetPassword(ctx context.Context, accountID, userID int64, hash string, at time.Time, keepSessionID int64) error
	// RecordSignIn sets the user's LastSignInAt.
	RecordSignIn(ctx context.Context, accountID, userID int64, at time.Time) error

	// CreateSession inserts s and fills its ID.
	CreateSession(ctx context.Context, s *Session) error
	// SessionByHash returns the session with that hash, expired or not (the caller judges
	// expiry), or ErrNotFound.
	SessionByHash(ctx context.Context, hash []byte) (Session, error)
	// TouchSession sets the session's LastSeenAt.
	TouchSession(ctx context.Context, sessionID int64, at time.Time) error
	// DeleteSession ends one session; ending one that is gone is not an error.
	DeleteSession(ctx context.Context, sessionID int64) error
	// DeleteUserSessions ends every session of the user.
	DeleteUserSessions(ctx context.Context, accountID, userID int64) error
	// DeleteStaleSessions deletes sessions last seen before idleBefore or whose ExpiresAt is
	// before now, and links that expired before now; it returns how many sessions went.
	DeleteStaleSessions(ctx context.Context, idleBefore, now time.Time) (int, error)

	// CreateAuthToken inserts t and fills its ID and CreatedAt.
	CreateAuthToken(ctx context.Context, t *AuthToken) error
	// AuthTokenByHash returns the link with that hash, used or not, or ErrNotFound.
	AuthTokenByHash(ctx context.Context, hash []byte) (AuthToken, error)
	// RedeemAuthToken, in one transaction: finds the unused link with that hash whose
	// ExpiresAt is after now, marks it used, sets the user's password to passwordHash as
	// SetPassword does (every session of the user ends, every other unused link too), and
	// returns the user. ErrNotFound when there is no such usable link; a link redeemed by a
	// concurrent call is not usable.
	RedeemAuthToken(ctx context.Context, hash []byte, now time.Time, passwordHash string) (User, error)
}
