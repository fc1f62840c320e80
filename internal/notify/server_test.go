package notify

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// received is one message a test server accepted.
type received struct {
	From    string   // envelope sender
	To      []string // envelope recipients
	Data    []byte
	TLS     bool
	User    string // the authenticated user, if any
	Subject string // decoded
	Header  netmail.Header
	Body    string // decoded
}

// testServer is a real SMTP server (go-smtp) on 127.0.0.1 that keeps what it accepts.
type testServer struct {
	t    *testing.T
	Addr string

	// Set before start.
	user, pass  string      // when set, AUTH PLAIN is offered and required
	tlsConfig   *tls.Config // when set, STARTTLS is offered
	implicitTLS bool        // the listener speaks TLS from the start (smtps)

	mu        sync.Mutex
	messages  []received
	failNext  int // sessions still to be answered 451 at MAIL FROM
	rejected  int
	srv       *smtp.Server
	ln        net.Listener // closed by stop itself: Serve may not have taken it yet
	listening bool
	// hold keeps a stopped server's port, refusing every connection, so that no other
	// test's server can take the port while this one is "down" (the mail would arrive there).
	hold net.Listener
}

// start listens on addr ("" = a free port) and serves until the test ends or stop.
func (ts *testServer) start(addr string) {
	ts.t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ts.mu.Lock()
	if ts.hold != nil {
		ts.hold.Close()
		ts.hold = nil
	}
	ts.mu.Unlock()
	var l net.Listener
	var err error
	for range 50 { // a port just closed may take a moment to be free again
		if l, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		ts.t.Fatalf("listen %s: %v", addr, err)
	}
	if ts.implicitTLS {
		l = tls.NewListener(l, ts.tlsConfig)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &session{ts: ts, tls: isTLS}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 1 << 20
	if !ts.implicitTLS {
		srv.TLSConfig = ts.tlsConfig
	}
	ts.mu.Lock()
	ts.srv, ts.ln, ts.listening, ts.Addr = srv, l, true, l.Addr().String()
	ts.mu.Unlock()
	go srv.Serve(l)
	ts.t.Cleanup(ts.stop)
}

// stop closes the listener and every connection: the server is down. The port stays held by
// a listener that drops every connection, until start or the end of the test.
func (ts *testServer) stop() {
	ts.mu.Lock()
	srv, ln, was := ts.srv, ts.ln, ts.listening
	ts.listening = false
	ts.mu.Unlock()
	if !was {
		return
	}
	// srv.Close alone misses a listener that Serve (in its goroutine) has not taken yet,
	// which then serves on after the "outage".
	ln.Close()
	srv.Close()
	hold, err := net.Listen("tcp", ts.Addr)
	if err != nil {
		return // the port is gone already; a connection to it fails all the same
	}
	go func() {
		for {
			c, err := hold.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ts.mu.Lock()
	ts.hold = hold
	ts.mu.Unlock()
	ts.t.Cleanup(func() { hold.Close() })
}

func (ts *testServer) failSessions(n int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.failNext = n
}

func (ts *testServer) received() []received {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]received(nil), ts.messages...)
}

func (ts *testServer) url(scheme, userinfo, query string) string {
	u := scheme + "://"
	if userinfo != "" {
		u += userinfo + "@"
	}
	u += ts.Addr
	if query != "" {
		u += "?" + query
	}
	return u
}

func newTestServer(t *testing.T) *testServer {
	ts := &testServer{t: t}
	ts.start("")
	return ts
}

type session struct {
	ts   *testServer
	tls  bool
	user string
	msg  received
}

func (s *session) AuthMechanisms() []string {
	if s.ts.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != s.ts.user || password != s.ts.pass {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication failed"}
		}
		s.user = username
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.ts.user != "" && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.ts.mu.Lock()
	defer s.ts.mu.Unlock()
	if s.ts.failNext > 0 {
		s.ts.failNext--
		s.ts.rejected++
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
	}
	s.msg = received{From: from, TLS: s.tls, User: s.user}
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.msg.To = append(s.msg.To, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.msg.Data = b
	if err := s.msg.decode(); err != nil {
		return &smtp.SMTPError{Code: 554, Message: "unreadable message: " + err.Error()}
	}
	s.ts.mu.Lock()
	s.ts.messages = append(s.ts.messages, s.msg)
	s.ts.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.msg = received{} }
func (s *session) Logout() error { return nil }

// decode reads the message as a mail client would: RFC 2047 subject, transfer encoding.
func (m *received) decode() error {
	msg, err := netmail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		return err
	}
	m.Header = msg.Header
	if m.Subject, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return err
	}
	body := msg.Body
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "", "7bit", "8bit":
	default:
		return errors.New("unexpected transfer encoding " + msg.Header.Get("Content-Transfer-Encoding"))
	}
	b, err := io.ReadAll(body)
	m.Body = strings.ReplaceAll(string(b), "\r\n", "\n")
	return err
}

// selfSigned makes a certificate for 127.0.0.1 and a client pool that trusts it.
func selfSigned(t *testing.T) (server *tls.Config, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		MinVersion: tls.VersionTLS12}, roots
}

// newSilentListener accepts connections and never says a word; it returns its address.
func newSilentListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}
