package users

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/store"
)

// maxEmailBytes is the longest address SMTP can carry (RFC 5321's path limit less the
// brackets).
const maxEmailBytes = 254

// NormalizeEmail trims and lower-cases an address and checks that it is one plain address
// (local@domain, at most 254 bytes, no spaces, no display name).
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	invalid := func(why string) error {
		return errs.Wrap(errs.BadRequest, "The e-mail address is not valid: "+why+".", ErrEmailInvalid)
	}
	switch {
	case e == "":
		return "", invalid("it is empty")
	case len(e) > maxEmailBytes:
		return "", invalid(fmt.Sprintf("it is longer than %d characters", maxEmailBytes))
	case strings.ContainsFunc(e, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return "", invalid("it contains a space")
	case strings.Count(e, "@") != 1 || strings.HasPrefix(e, "@") || strings.HasSuffix(e, "@"):
		return "", invalid("it must look like name@example.com")
	}
	if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
		return "", invalid("it must look like name@example.com")
	}
	return e, nil
}

// checkRole validates a role; "" is an owner.
func checkRole(role string) (string, error) {
	switch role {
	case "":
		return store.UserOwner, nil
	case store.UserOwner, store.UserAgent:
		return role, nil
	}
	return "", roleInvalid()
}

// checkLang validates a dashboard language; "" follows the account's.
func checkLang(lang string) error {
	if lang == "" || i18n.Supported(lang) {
		return nil
	}
	return errs.Wrap(errs.BadRequest, "The language must be tr, en or de.", ErrLangInvalid)
}

// AddUser creates a user of the account. With a password the user can sign in at once;
// without one ("") an invite link is made, queued as a mail to the user and returned, so
// the operator can also pass it on. role "" is owner.
//
// Only a user of this account with the e-mail is a conflict: a person may be a user of
// several accounts (an agency's staff in each client's dashboard), so inviting an address
// that has a user in another account is answered like any invite and tells nothing of it.
func (s *Service) AddUser(ctx context.Context, accountID int64, email, role, password string) (store.User, string, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return store.User{}, "", err
	}
	if role, err = checkRole(role); err != nil {
		return store.User{}, "", err
	}
	var phc string
	if password != "" {
		if err := ValidatePassword(password); err != nil {
			return store.User{}, "", err
		}
		if phc, err = s.hashFor(ctx, email, password); err != nil {
			return store.User{}, "", err
		}
	}
	if _, err := s.st.GetAccount(ctx, accountID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return store.User{}, "", errs.Newf(errs.NotFound, "Account %d does not exist.", accountID)
		}
		return store.User{}, "", fmt.Errorf("add user: %w", err)
	}
	now := s.now()
	u := store.User{AccountID: accountID, Email: email, Role: role, PasswordHash: phc}
	if phc != "" {
		u.PasswordChangedAt = now
	}
	if err := s.st.CreateUser(ctx, &u); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return store.User{}, "", errs.Wrap(errs.BadRequest, "The account already has a user with this e-mail.", ErrEmailTaken)
		}
		return store.User{}, "", fmt.Errorf("add user: %w", err)
	}
	s.log.Info("user added", "user", u.ID, "account", accountID, "role", role, "invited", phc == "")
	if phc != "" {
		return u, "", nil
	}
	link, err := s.issueLink(ctx, u, store.AuthInvite, "")
	if err != nil {
		return u, "", fmt.Errorf("user %d added, but the invite failed (send another): %w", u.ID, err)
	}
	return u, link, nil
}

// Invite makes a fresh invite link for a user who has no password yet, queues it as a mail
// in lang ("" = the user's or the account's language) and returns it.
func (s *Service) Invite(ctx context.Context, accountID, userID int64, lang string) (string, error) {
	if err := checkLang(lang); err != nil {
		return "", err
	}
	u, err := s.getUser(ctx, accountID, userID)
	if err != nil {
		return "", err
	}
	if u.PasswordHash != "" {
		return "", errs.Wrap(errs.BadRequest, "This user has already set a password.", ErrHasPassword)
	}
	return s.issueLink(ctx, u, store.AuthInvite, lang)
}

// ListUsers lists the account's users, oldest first.
func (s *Service) ListUsers(ctx context.Context, accountID int64) ([]store.User, error) {
	us, err := s.st.ListUsers(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return us, nil
}

// RemoveUser removes a user with its sessions (which end at once) and links. The account's
// last owner cannot be removed: someone must be able to manage the account.
//
// The check and the removal are serialised within this process. Two processes (`svc user
// remove` beside `svc serve`) removing an account's last two owners at the same instant
// could still both pass; the store has no conditional removal to close that, and the
// operator can add an owner back with `svc user add`.
func (s *Service) RemoveUser(ctx context.Context, accountID, userID int64) error {
	s.owners.Lock()
	defer s.owners.Unlock()
	target, owners, err := s.withOwners(ctx, accountID, userID)
	if err != nil {
		return err
	}
	if target.Role == store.UserOwner && owners == 1 {
		return lastOwner()
	}
	if err := s.st.RemoveUser(ctx, accountID, userID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return userNotFound()
		}
		return fmt.Errorf("remove user: %w", err)
	}
	s.log.Info("user removed; sessions ended", "user", userID, "account", accountID)
	return nil
}

// SetRole changes a user's role; the account's last owner cannot become an agent.
func (s *Service) SetRole(ctx context.Context, accountID, userID int64, role string) error {
	if role == "" {
		return roleInvalid()
	}
	role, err := checkRole(role)
	if err != nil {
		return err
	}
	s.owners.Lock()
	defer s.owners.Unlock()
	target, owners, err := s.withOwners(ctx, accountID, userID)
	if err != nil {
		return err
	}
	if target.Role == role {
		return nil
	}
	if target.Role == store.UserOwner && owners == 1 {
		return lastOwner()
	}
	target.Role = role
	if err := s.st.UpdateUser(ctx, &target); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return userNotFound()
		}
		return fmt.Errorf("set role: %w", err)
	}
	s.log.Info("user role changed", "user", userID, "account", accountID, "role", role)
	return nil
}

// SetLang sets the user's dashboard language: tr, en, de, or "" for the account's.
func (s *Service) SetLang(ctx context.Context, accountID, userID int64, lang string) error {
	if err := checkLang(lang); err != nil {
		return err
	}
	u, err := s.getUser(ctx, accountID, userID)
	if err != nil {
		return err
	}
	u.Lang = lang
	if err := s.st.UpdateUser(ctx, &u); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return userNotFound()
		}
		return fmt.Errorf("set language: %w", err)
	}
	return nil
}

// getUser reads one of the account's users; a missing one is errs.NotFound.
func (s *Service) getUser(ctx context.Context, accountID, userID int64) (store.User, error) {
	u, err := s.st.GetUser(ctx, accountID, userID)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, userNotFound()
	}
	if err != nil {
		return store.User{}, fmt.Errorf("get user: %w", err)
	}
	return u, nil
}

// withOwners reads one of the account's users and counts the account's owners.
func (s *Service) withOwners(ctx context.Context, accountID, userID int64) (target store.User, owners int, err error) {
	us, err := s.st.ListUsers(ctx, accountID)
	if err != nil {
		return target, 0, fmt.Errorf("list users: %w", err)
	}
	found := false
	for _, u := range us {
		if u.Role == store.UserOwner {
			owners++
		}
		if u.ID == userID {
			target, found = u, true
		}
	}
	if !found {
		return target, 0, userNotFound()
	}
	return target, owners, nil
}
