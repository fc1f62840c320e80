package users

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"svc/internal/errs"
	"svc/internal/store"
)

// SignIn checks an e-mail and password and starts a new session (a fresh id on every
// sign-in, so an id planted before sign-in is worth nothing).
//
// Failures are counted per e-mail and per client address; while either is over its limit
// the answer is a *ThrottledError, even for the right password, so guessing cannot go on
// at a slower pace. A success forgets the e-mail's failures (not the address's: one
// correct password must not reset a spray over many e-mails). An unknown e-mail, a user
// without a password and a wrong password are the same ErrBadCredentials after the same
// argon2 work (matching), so neither the answer nor its time tells which e-mails exist.
//
// One person may be a user of several accounts. When the password is right for the
// e-mail's users in more than one, no session starts: the answer is a *ChooseAccount
// listing them, and the person signs in again with SignInTo naming one.
func (s *Service) SignIn(ctx context.Context, email, password, clientAddr, userAgent string) (Signed, error) {
	return s.SignInTo(ctx, email, password, 0, clientAddr, userAgent)
}

// ChooseAccount is SignIn's answer when the password is right for the e-mail's users in
// several accounts: no session started. Only someone who knows the password of each
// membership learns of it; a membership with another password (one an account's owner set
// through the invite link they were shown) is not listed.
type ChooseAccount struct {
	Accounts []AccountChoice // oldest membership first
}

// AccountChoice is one account a sign-in may go into.
type AccountChoice struct {
	ID   int64
	Name string
}

func (e *ChooseAccount) Error() string {
	return fmt.Sprintf("users: the password is right in %d accounts: choose one", len(e.Accounts))
}

// SignInTo is SignIn into the e-mail's user of the account accountID, which the password
// must be right for like any other (0: whichever it is right for).
func (s *Service) SignInTo(ctx context.Context, email, password string, accountID int64, clientAddr, userAgent string) (Signed, error) {
	now := s.now()
	email = clip(strings.ToLower(strings.TrimSpace(email)), maxEmailBytes+1)
	emailKey := classSignInEmail + ":" + email
	keys := []string{emailKey}
	if a := addrKey(clientAddr); a != "" {
		keys = append(keys, classSignInAddr+":"+a)
	}
	if wait := s.blocked(keys); wait > 0 {
		s.log.Info("sign-in throttled", "addr", clientAddr)
		s.signInFailed("throttled")
		return Signed{}, &ThrottledError{RetryAfter: wait}
	}
	us, err := s.st.UsersByEmail(ctx, email)
	if err != nil {
		return Signed{}, fmt.Errorf("sign in: %w", err)
	}
	matched := s.matching(us, password)
	if accountID != 0 {
		matched = slices.DeleteFunc(matched, func(u store.User) bool { return u.AccountID != accountID })
	}
	if len(matched) == 0 {
		for _, k := range keys {
			s.throttle.Fail(k, now)
		}
		s.log.Info("sign-in refused", "users", len(us), "addr", clientAddr)
		s.signInFailed("bad_credentials")
		// The failure is counted above whatever happens next, so a client that hangs up
		// during the hash cannot spray guesses past the throttle; but an answer nobody
		// waits for is not rendered (the request ends as the client's cancel, 499).
		if err := ctx.Err(); err != nil {
			return Signed{}, err
		}
		return Signed{}, badCredentials()
	}
	s.throttle.Reset(emailKey)
	if len(matched) > 1 {
		choose := &ChooseAccount{}
		for _, u := range matched {
			a, err := s.st.GetAccount(ctx, u.AccountID)
			if err != nil {
				return Signed{}, fmt.Errorf("sign in: %w", err)
			}
			choose.Accounts = append(choose.Accounts, AccountChoice{ID: a.ID, Name: a.Name})
		}
		s.log.Info("sign-in: the password is right in several accounts", "accounts", len(matched), "addr", clientAddr)
		return Signed{}, choose
	}
	u := matched[0]

	raw, hash := newSecret()
	x := store.Session{Hash: hash, UserID: u.ID, AccountID: u.AccountID, UserAgent: clip(userAgent, maxUserAgent),
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(SessionMax)}
	if err := s.st.CreateSession(ctx, &x); err != nil {
		return Signed{}, fmt.Errorf("sign in: create session: %w", err)
	}
	if err := s.st.RecordSignIn(ctx, u.AccountID, u.ID, now); err != nil {
		// The session exists; a missing "last sign-in" is not worth refusing it.
		s.log.Warn("sign-in not recorded", "user", u.ID, "err", err)
	} else {
		u.LastSignInAt = now
	}
	s.log.Info("signed in", "user", u.ID, "account", u.AccountID, "session", x.ID)
	return Signed{SessionID: raw, User: u, Session: x}, nil
}

// blocked is the longest wait any of keys must sit out; 0 when none is blocked.
func (s *Service) blocked(keys []string) (wait time.Duration) {
	now := s.now()
	for _, k := range keys {
		if b, d := s.throttle.Blocked(k, now); b && d > wait {
			wait = d
		}
	}
	return wait
}

// Session returns the signed-in user of a session id: ErrNoSession when the id is unknown,
// the session idle longer than SessionIdle or past SessionMax (it is deleted then), or its
// user gone. The user is read fresh, so a role change or a removal applies to the next
// request. LastSeenAt is written at most once a minute.
func (s *Service) Session(ctx context.Context, rawID string) (Signed, error) {
	hash, ok := hashSecret(rawID)
	if !ok {
		return Signed{}, noSession()
	}
	x, err := s.st.SessionByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return Signed{}, noSession()
	}
	if err != nil {
		return Signed{}, fmt.Errorf("session: %w", err)
	}
	now := s.now()
	if !now.Before(x.ExpiresAt) || now.Sub(x.LastSeenAt) > SessionIdle {
		if err := s.st.DeleteSession(ctx, x.ID); err != nil {
			s.log.Warn("expired session not deleted", "session", x.ID, "err", err)
		}
		return Signed{}, noSession()
	}
	u, err := s.st.GetUser(ctx, x.AccountID, x.UserID)
	if errors.Is(err, store.ErrNotFound) {
		_ = s.st.DeleteSession(ctx, x.ID)
		return Signed{}, noSession()
	}
	if err != nil {
		return Signed{}, fmt.Errorf("session: %w", err)
	}
	if now.Sub(x.LastSeenAt) >= touchEvery {
		if err := s.st.TouchSession(ctx, x.ID, now); err != nil {
			s.log.Warn("session not touched", "session", x.ID, "err", err)
		} else {
			x.LastSeenAt = now
		}
	}
	return Signed{User: u, Session: x}, nil
}

// SignOut ends the session; an unknown or malformed id is already signed out.
func (s *Service) SignOut(ctx context.Context, rawID string) error {
	hash, ok := hashSecret(rawID)
	if !ok {
		return nil
	}
	x, err := s.st.SessionByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	if err := s.st.DeleteSession(ctx, x.ID); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	s.log.Info("signed out", "user", x.UserID, "session", x.ID)
	return nil
}

// ChangePassword sets next as u's password after checking current, and ends every other
// session of u (sessionID, the one making the change, stays). Wrong current passwords count
// against the e-mail's sign-in limit, so a stolen session cannot be used to guess it.
func (s *Service) ChangePassword(ctx context.Context, u store.User, sessionID int64, current, next string) error {
	if err := ValidatePassword(next); err != nil {
		return err
	}
	key := classSignInEmail + ":" + u.Email
	if wait := s.blocked([]string{key}); wait > 0 {
		return &ThrottledError{RetryAfter: wait}
	}
	fresh, err := s.st.GetUser(ctx, u.AccountID, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return noSession()
	}
	if err != nil {
		return fmt.Errorf("change password: %w", err)
	}
	phc := fresh.PasswordHash
	if phc == "" {
		phc = s.dummyHash()
	}
	if !s.matches(phc, current) || fresh.PasswordHash == "" {
		s.throttle.Fail(key, s.now())
		return errs.Wrap(errs.BadRequest, "The current password is not correct.", ErrBadCredentials)
	}
	phc, err = s.hashFor(ctx, fresh.Email, next)
	if err != nil {
		return err
	}
	if err := s.st.SetPassword(ctx, fresh.AccountID, fresh.ID, phc, s.now(), sessionID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return noSession()
		}
		return fmt.Errorf("change password: %w", err)
	}
	s.log.Info("password changed; other sessions ended", "user", fresh.ID, "account", fresh.AccountID)
	return nil
}
