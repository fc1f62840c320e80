package users

import (
	"errors"
	"fmt"
	"time"

	"svc/internal/errs"
)

// Sentinel errors. The service returns them wrapped in an *errs.Error (a Kind and a message
// safe to show), so errors.Is finds the sentinel and errs.As the message; Reason turns them
// into stable codes for the dashboard's own texts.
var (
	// ErrBadCredentials: unknown e-mail, no password yet, or a wrong password; the three
	// are deliberately one error.
	ErrBadCredentials = errors.New("bad_credentials")
	// ErrNoSession: the session id is unknown, idle too long, past its end, or its user is
	// gone.
	ErrNoSession = errors.New("no_session")
	// ErrBadLink: the link is unknown, used or expired.
	ErrBadLink = errors.New("bad_link")

	ErrPasswordTooShort = errors.New("password_too_short")
	ErrPasswordTooLong  = errors.New("password_too_long")
	ErrPasswordInvalid  = errors.New("password_invalid")
	ErrEmailInvalid     = errors.New("email_invalid")
	ErrEmailTaken       = errors.New("email_taken")
	ErrRoleInvalid      = errors.New("role_invalid")
	ErrLangInvalid      = errors.New("lang_invalid")
	// ErrLastOwner: the change would leave the account without an owner.
	ErrLastOwner = errors.New("last_owner")
	// ErrHasPassword: an invite was asked for a user who already has a password.
	ErrHasPassword = errors.New("has_password")
	// ErrUserNotFound: the account has no such user.
	ErrUserNotFound = errors.New("user_not_found")
)

// ThrottledError is a refusal because of too many recent failures. It unwraps to an
// errs.RateLimited error, so layers that only know errs answer 429 with Retry-After.
type ThrottledError struct {
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("users: too many attempts; retry in %s", e.RetryAfter.Round(time.Second))
}

func (e *ThrottledError) Unwrap() error {
	return &errs.Error{Kind: errs.RateLimited, Safe: "Too many attempts. Please wait a few minutes and try again.",
		RetryAfter: e.RetryAfter}
}

// Reason is the stable code of an error of this package ("password_too_short",
// "throttled", ...), or "" for any other error. The dashboard picks its message by it.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	var te *ThrottledError
	if errors.As(err, &te) {
		return "throttled"
	}
	for _, s := range []error{ErrBadCredentials, ErrNoSession, ErrBadLink, ErrPasswordTooShort, ErrPasswordTooLong,
		ErrPasswordInvalid, ErrEmailInvalid, ErrEmailTaken, ErrRoleInvalid, ErrLangInvalid, ErrLastOwner,
		ErrHasPassword, ErrUserNotFound} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return ""
}

// Errors as the service returns them.
func badCredentials() error {
	return errs.Wrap(errs.Unauthorized, "The e-mail address or the password is not correct.", ErrBadCredentials)
}

func noSession() error {
	return errs.Wrap(errs.Unauthorized, "Please sign in.", ErrNoSession)
}

func badLink() error {
	return errs.Wrap(errs.BadRequest, "This link is not valid: it was already used or it has expired.", ErrBadLink)
}

func userNotFound() error {
	return errs.Wrap(errs.NotFound, "No such user.", ErrUserNotFound)
}

func roleInvalid() error {
	return errs.Wrap(errs.BadRequest, "The role must be owner or agent.", ErrRoleInvalid)
}

func lastOwner() error {
	return errs.Wrap(errs.BadRequest, "This is the account's only owner: make another user an owner first.", ErrLastOwner)
}
