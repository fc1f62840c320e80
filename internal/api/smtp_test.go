package api_test

import (
	"testing"

	"svc/internal/notify/smtptest"
)

// mailbox is a real SMTP server on loopback that keeps what it receives.
type (
	mailbox = smtptest.Mailbox
	mail    = smtptest.Mail
)

func startMailbox(t testing.TB) *mailbox { return smtptest.Start(t) }
