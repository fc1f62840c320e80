// Package smtptest is a real SMTP server on loopback for tests (go-smtp): it accepts every
// message and keeps it, so a test asserts what the service really sent over the wire.
package smtptest

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// Mail is one message as the server received it.
type Mail struct {
	From string
	To   []string
	Data string
}

// Mailbox is a running server and what it has received.
type Mailbox struct {
	mu   sync.Mutex
	msgs []Mail
	addr string
}

// Start runs a Mailbox until t ends.
func Start(t testing.TB) *Mailbox {
	t.Helper()
	mb := &Mailbox{}
	srv := smtp.NewServer(mb)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mb.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return mb
}

// URL is the server's address as SVC_SMTP_URL takes it.
func (mb *Mailbox) URL() string { return "smtp://" + mb.addr }

// Messages are the messages received so far, oldest first.
func (mb *Mailbox) Messages() []Mail {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return append([]Mail(nil), mb.msgs...)
}

// NewSession implements smtp.Backend.
func (mb *Mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{mb: mb}, nil }

type session struct {
	mb  *Mailbox
	cur Mail
}

func (s *session) Reset()        { s.cur = Mail{} }
func (s *session) Logout() error { return nil }
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.cur.From = from
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.To = append(s.cur.To, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = string(b)
	s.mb.mu.Lock()
	s.mb.msgs = append(s.mb.msgs, s.cur)
	s.mb.mu.Unlock()
	return nil
}
