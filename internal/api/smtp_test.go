package api_test

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// mailbox is a real SMTP server on loopback that keeps what it receives.
type mailbox struct {
	mu   sync.Mutex
	msgs []mail
	addr string
}

type mail struct {
	From string
	To   []string
	Data string
}

func startMailbox(t testing.TB) *mailbox {
	t.Helper()
	mb := &mailbox{}
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

func (mb *mailbox) URL() string { return "smtp://" + mb.addr }

func (mb *mailbox) Messages() []mail {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return append([]mail(nil), mb.msgs...)
}

// NewSession implements smtp.Backend.
func (mb *mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &mailSession{mb: mb}, nil }

type mailSession struct {
	mb  *mailbox
	cur mail
}

func (s *mailSession) Reset()        { s.cur = mail{} }
func (s *mailSession) Logout() error { return nil }
func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	s.cur.From = from
	return nil
}
func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.To = append(s.cur.To, to)
	return nil
}
func (s *mailSession) Data(r io.Reader) error {
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
