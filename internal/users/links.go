package users

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"svc/internal/store"
)

// LinkPayload is the outbox payload of a store.NoticeUserInvite or store.NoticePasswordReset
// mail. It carries the raw link (the mail's whole point), so the notify package composes
// from it and nothing else needs the secret.
type LinkPayload struct {
	UserID int64  `json:"user_id"`
	URL    string `json:"url"`
	// Lang is the mail's language: tr, en or de, or "" for the user's, else the account's.
	Lang      string    `json:"lang"`
	ExpiresAt time.Time `json:"expires_at"`
}

// linkPath is the dashboard page of a link kind: /dashboard/invite/<token> and
// /dashboard/reset/<token>.
func linkPath(kind string) string { return "/dashboard/" + kind + "/" }

// issueLink makes a one-time link of kind for u, queues its mail in lang and returns it.
// A link lives InviteTTL or ResetTTL.
func (s *Service) issueLink(ctx context.Context, u store.User, kind, lang string) (string, error) {
	now := s.now()
	ttl, notice := InviteTTL, store.NoticeUserInvite
	if kind == store.AuthReset {
		ttl, notice = ResetTTL, store.NoticePasswordReset
	}
	raw, hash := newSecret()
	t := store.AuthToken{Hash: hash, UserID: u.ID, AccountID: u.AccountID, Kind: kind, ExpiresAt: now.Add(ttl)}
	if err := s.st.CreateAuthToken(ctx, &t); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", userNotFound()
		}
		return "", fmt.Errorf("create %s link: %w", kind, err)
	}
	link := s.publicURL + linkPath(kind) + raw
	payload, err := json.Marshal(LinkPayload{UserID: u.ID, URL: link, Lang: lang, ExpiresAt: t.ExpiresAt.UTC()})
	if err != nil {
		return "", fmt.Errorf("%s mail: %w", kind, err)
	}
	// The token id makes the key unique per link, so every link asked for is mailed once.
	n := store.Notice{AccountID: u.AccountID, Kind: notice, DedupeKey: fmt.Sprintf("%s:%d", kind, t.ID),
		Payload: string(payload)}
	if _, err := s.st.EnqueueNotice(ctx, &n); err != nil {
		return "", fmt.Errorf("queue %s mail: %w", kind, err)
	}
	s.kicked()
	s.log.Info("one-time link made; its mail is queued", "kind", kind, "user", u.ID, "account", u.AccountID, "link", t.ID,
		"notice", n.ID)
	return link, nil
}

// RequestReset mails a password reset link to the user with that e-mail, if there is one.
// It returns nil whether or not there is, and also when it is throttled (per e-mail and per
// client address), so the answer tells nobody which e-mails have accounts or how many mails
// went out. Every request counts against the limits, for known and unknown e-mails alike.
func (s *Service) RequestReset(ctx context.Context, email, clientAddr string) error {
	now := s.now()
	email = clip(strings.ToLower(strings.TrimSpace(email)), maxEmailBytes+1)
	keys := []string{classResetEmail + ":" + email}
	if a := addrKey(clientAddr); a != "" {
		keys = append(keys, classResetAddr+":"+a)
	}
	if wait := s.blocked(keys); wait > 0 {
		s.log.Info("password reset throttled", "addr", clientAddr)
		return nil
	}
	for _, k := range keys {
		s.throttle.Fail(k, now)
	}
	us, err := s.st.UsersByEmail(ctx, email)
	if err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	// One link per account the e-mail has a user in: each is that membership's password,
	// and each mail names its account.
	for _, u := range us {
		if _, err := s.issueLink(ctx, u, store.AuthReset, u.Lang); err != nil {
			return err
		}
	}
	return nil
}

// CheckLink returns the link of a raw token while it can still be used; ErrBadLink when it
// is unknown, used or expired. The dashboard shows the set-password form only then.
func (s *Service) CheckLink(ctx context.Context, rawToken string) (store.AuthToken, error) {
	hash, ok := hashSecret(rawToken)
	if !ok {
		return store.AuthToken{}, badLink()
	}
	t, err := s.st.AuthTokenByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return store.AuthToken{}, badLink()
	}
	if err != nil {
		return store.AuthToken{}, fmt.Errorf("check link: %w", err)
	}
	if !t.UsedAt.IsZero() || !s.now().Before(t.ExpiresAt) {
		return store.AuthToken{}, badLink()
	}
	return t, nil
}

// RedeemLink sets the password of a link's user and uses the link up: every session of
// the user ends and every other unused link with it. The password is checked against the
// policy first, and the link before the (costly) hash, so garbage tokens cost no argon2
// work; the store then redeems atomically, so of concurrent uses exactly one wins.
func (s *Service) RedeemLink(ctx context.Context, rawToken, password string) (store.User, error) {
	if err := ValidatePassword(password); err != nil {
		return store.User{}, err
	}
	t, err := s.CheckLink(ctx, rawToken)
	if err != nil {
		return store.User{}, err
	}
	owner, err := s.st.GetUser(ctx, t.AccountID, t.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, badLink()
	}
	if err != nil {
		return store.User{}, fmt.Errorf("redeem link: %w", err)
	}
	phc, err := s.hashFor(ctx, owner.Email, password)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.st.RedeemAuthToken(ctx, t.Hash, s.now(), phc)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, badLink()
	}
	if err != nil {
		return store.User{}, fmt.Errorf("redeem link: %w", err)
	}
	s.log.Info("password set through a link", "kind", t.Kind, "user", u.ID, "account", u.AccountID, "link", t.ID)
	return u, nil
}

// Sweep deletes idle and expired sessions and expired links. The server calls it
// periodically; Session refuses stale sessions on its own, so this only reclaims space.
func (s *Service) Sweep(ctx context.Context) {
	now := s.now()
	n, err := s.st.DeleteStaleSessions(ctx, now.Add(-SessionIdle), now)
	if err != nil {
		s.log.Error("session sweep failed", "err", err)
		return
	}
	if n > 0 {
		s.log.Info("stale sessions deleted", "sessions", n)
	}
}
