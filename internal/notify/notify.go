// Package notify delivers the owner notices of the store's durable outbox (store.Outbox) by
// e-mail: the Worker claims due notices, composes each in the account's language, sends it
// through a Sender (SMTP in production) and records the outcome, retrying with backoff so
// that a mail-server outage loses nothing.
//
// Delivery is at least once: a notice is marked sent only after the mail server accepted
// it, and the claim's lease keeps other workers (and other processes on the same data) off
// it meanwhile. A notice is sent twice only when the process dies, or the store refuses the
// "sent" mark, between the server's acceptance and that mark.
package notify

import (
	"context"
	"errors"
)

// Message is one plain-text e-mail.
type Message struct {
	To      string // the recipient's address
	Subject string
	Text    string // the body, UTF-8 plain text
}

// Sender delivers a message; an error means the message was not accepted.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// permanentError marks a failure that no retry can fix (a notice of an unknown kind, an
// account without an e-mail address): the notice fails for good at once.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent wraps err so that the Worker gives the notice up at once instead of retrying.
// A Sender returns it for a message that can never be sent (an invalid address).
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, was made by Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}
