// Package users is the dashboard's people: their passwords (argon2id), sign-in with
// throttling, sessions with idle and absolute expiry, one-time links to set a password
// (invites and resets, mailed through the outbox), and the owner/agent roles with the rule
// that an account always keeps an owner.
//
// Secrets never leave this package in a form that signs anyone in, except to the caller that
// must hand them to the browser: session ids and link tokens are stored as SHA-256 hashes,
// and nothing here logs a password, a raw session id or a raw link token.
package users

import (
	"context"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"svc/internal/store"
)

// Session and link lifetimes.
const (
	// SessionIdle ends a session nobody used for a working day, so a browser left signed in
	// overnight on a shared machine is signed out by morning.
	SessionIdle = 8 * time.Hour
	// SessionMax ends every session a week after sign-in however active it is, bounding
	// what a stolen cookie is worth.
	SessionMax = 7 * 24 * time.Hour
	// touchEvery is how often a session's LastSeenAt is written: at most once a minute, so
	// that every page view does not become a write.
	touchEvery = time.Minute
	// InviteTTL gives an invited person a week to set a first password.
	InviteTTL = 7 * 24 * time.Hour
	// ResetTTL is short: a reset link is asked for by the person who will use it at once.
	ResetTTL = time.Hour
	// maxUserAgent clips the stored User-Agent, which is only shown in a list.
	maxUserAgent = 256
)

// Store is what the service needs of the store.
type Store interface {
	CreateUser(ctx context.Context, u *store.User) error
	GetUser(ctx context.Context, accountID, userID int64) (store.User, error)
	UsersByEmail(ctx context.Context, email string) ([]store.User, error)
	ListUsers(ctx context.Context, accountID int64) ([]store.User, error)
	UpdateUser(ctx context.Context, u *store.User) error
	RemoveUser(ctx context.Context, accountID, userID int64) error
	SetPassword(ctx context.Context, accountID, userID int64, hash string, at time.Time, keepSessionID int64) error
	RecordSignIn(ctx context.Context, accountID, userID int64, at time.Time) error
	CreateSession(ctx context.Context, s *store.Session) error
	SessionByHash(ctx context.Context, hash []byte) (store.Session, error)
	TouchSession(ctx context.Context, sessionID int64, at time.Time) error
	DeleteSession(ctx context.Context, sessionID int64) error
	DeleteStaleSessions(ctx context.Context, idleBefore, now time.Time) (int, error)
	CreateAuthToken(ctx context.Context, t *store.AuthToken) error
	AuthTokenByHash(ctx context.Context, hash []byte) (store.AuthToken, error)
	RedeemAuthToken(ctx context.Context, hash []byte, now time.Time, passwordHash string) (store.User, error)
	EnqueueNotice(ctx context.Context, n *store.Notice) (queued bool, err error)
	GetAccount(ctx context.Context, accountID int64) (store.Account, error)
}

// Deps are what a Service needs; Store is required.
type Deps struct {
	Store    Store
	Throttle Throttle         // nil: an in-memory one (NewMemoryThrottle)
	Now      func() time.Time // nil: time.Now
	// PublicURL is the base of the links in mails, such as http://127.0.0.1:8080.
	PublicURL string
	Log       *slog.Logger // nil: discard
	// Kick, when set, wakes the outbox worker after a mail is queued.
	Kick func()
	// Metrics counts refused sign-ins; may be nil.
	Metrics Metrics

	// cost overrides the argon2id parameters; only this package's tests set it, because
	// the real cost makes `go test -race` crawl.
	cost *argonParams
}

// Service is the dashboard users' domain. It is safe for concurrent use.
type Service struct {
	st        Store
	throttle  Throttle
	now       func() time.Time
	publicURL string
	log       *slog.Logger
	kick      func()
	metrics   Metrics
	params    argonParams
	// key is argonKey, the one costly step of checking a password; a test replaces it to
	// count them (a sign-in pays for exactly one, whatever the e-mail).
	key func(phc, pw string) (got, want []byte, ok bool)

	dummyOnce sync.Once
	dummy     string // a hash of nothing, verified when there is no real one

	// owners serialises the last-owner checks of RemoveUser and SetRole with their change
	// within this process (the store has no conditional removal; see RemoveUser).
	owners sync.Mutex
}

// Signed is a signed-in user: the session and its user, read fresh.
type Signed struct {
	// SessionID is the raw random id for the cookie (32 random bytes, base64url); only
	// SignIn fills it, since the caller of Session already has it.
	SessionID string
	User      store.User
	Session   store.Session
}

// New builds a Service.
func New(d Deps) *Service {
	if d.Store == nil {
		panic("users: New needs a Store")
	}
	s := &Service{st: d.Store, throttle: d.Throttle, now: d.Now, log: d.Log, kick: d.Kick, metrics: d.Metrics,
		publicURL: strings.TrimRight(strings.TrimSpace(d.PublicURL), "/"), params: defaultParams(),
		key: argonKey}
	if d.cost != nil {
		s.params = *d.cost
	}
	if s.throttle == nil {
		s.throttle = NewMemoryThrottle()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// dummyHash is a hash with the service's parameters of a password nobody knows, so that a
// sign-in for an unknown e-mail (or a user without a password) does the same work as one
// with a wrong password.
func (s *Service) dummyHash() string {
	s.dummyOnce.Do(func() {
		secret, _ := newSecret()
		phc, err := hashPassword(secret, s.params)
		if err != nil {
			// Only a failing random source gets here; a hash that never verifies keeps
			// the sign-in refusing, at a lower cost.
			phc = "$argon2id$v=19$m=8,t=1,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		}
		s.dummy = phc
	})
	return s.dummy
}

// matches reports whether pw is the password of the PHC string phc.
func (s *Service) matches(phc, pw string) bool {
	got, want, ok := s.key(phc, pw)
	return ok && subtle.ConstantTimeCompare(got, want) == 1
}

// matching returns the users among us whose password pw is. It derives one key per distinct
// salt, which is one for the users of an e-mail (they share theirs: hashFor), and one for a
// dummy hash when none has a password, so that neither the answer nor the time it takes
// tells whether, or in how many accounts, an e-mail has a user.
func (s *Service) matching(us []store.User, pw string) []store.User {
	var out []store.User
	derived := map[string][]byte{} // salt (phcSaltOf) -> pw's key with it; nil: not a hash
	for _, u := range us {
		if u.PasswordHash == "" {
			continue
		}
		salt := phcSaltOf(u.PasswordHash)
		got, seen := derived[salt]
		var want []byte
		if !seen {
			var ok bool
			if got, want, ok = s.key(u.PasswordHash, pw); !ok {
				got = nil
			}
			derived[salt] = got
		} else if _, _, w, ok := parsePHC(u.PasswordHash); ok {
			want = w
		}
		if got != nil && want != nil && subtle.ConstantTimeCompare(got, want) == 1 {
			out = append(out, u)
		}
	}
	if len(derived) == 0 {
		s.key(s.dummyHash(), pw)
	}
	return out
}

// hashFor hashes the new password pw of a user with email. It takes the parameters and salt
// of the e-mail's users' passwords (the same person's in other accounts), the oldest first,
// so that matching derives one key for all of them; a fresh salt when there are none. The
// users of one e-mail sharing a salt costs little: they are one person's.
func (s *Service) hashFor(ctx context.Context, email, pw string) (string, error) {
	us, err := s.st.UsersByEmail(ctx, email)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	for _, u := range us {
		if p, salt, _, ok := parsePHC(u.PasswordHash); ok && p == s.params {
			return hashWithSalt(pw, p, salt), nil
		}
	}
	return hashPassword(pw, s.params)
}

// kicked wakes the outbox worker, when there is one.
func (s *Service) kicked() {
	if s.kick != nil {
		s.kick()
	}
}
