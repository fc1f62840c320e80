package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"
)

// Default ports: submission with STARTTLS, and submission over implicit TLS (RFC 8314).
const (
	DefaultPort    = 587
	DefaultTLSPort = 465
)

// smtpTimeout bounds the connection and each SMTP command.
const smtpTimeout = 30 * time.Second

// SMTP sends messages through one mail server (a submission server, normally), dialling a
// new connection per message. It is safe for concurrent use.
type SMTP struct {
	scheme   string // "smtp" or "smtps"
	host     string
	port     int
	starttls bool // STARTTLS required (smtp:// only); otherwise used when offered
	user     string
	pass     string
	from     string
	// tlsConfig, when set, replaces the default (the system roots, TLS 1.2 or newer); tests
	// use it to trust their own certificate.
	tlsConfig *tls.Config
}

// NewSMTP parses rawURL and checks from, the sender address.
//
//	smtp://[user:pass@]host[:port]   port 587 by default; STARTTLS when the server offers it
//	smtp://...?starttls=required      STARTTLS mandatory: the send fails without it
//	smtps://[user:pass@]host[:port]  implicit TLS, port 465 by default
//
// With user info the client authenticates (PLAIN, or another mechanism the server offers);
// the password is sent only over TLS or to a loopback server. User and password must be
// percent-encoded where they hold reserved characters. Errors never contain the password.
func NewSMTP(rawURL, from string) (*SMTP, error) {
	if strings.TrimSpace(rawURL) == "" {
		return nil, errors.New("notify: the SMTP URL is empty; expected smtp://[user:pass@]host[:port]")
	}
	// url.Parse's errors quote the URL, password included: report without them.
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("notify: the SMTP URL cannot be parsed; expected smtp://[user:pass@]host[:port], " +
			"with reserved characters of the user and password percent-encoded")
	}
	s := &SMTP{scheme: strings.ToLower(u.Scheme)}
	switch s.scheme {
	case "smtp":
		s.port = DefaultPort
	case "smtps":
		s.port = DefaultTLSPort
	default:
		return nil, fmt.Errorf("notify: the SMTP URL must start with smtp:// or smtps://, not %q", u.Scheme+":")
	}
	if u.Opaque != "" {
		return nil, fmt.Errorf("notify: the SMTP URL must be %s://[user:pass@]host[:port]", s.scheme)
	}
	if s.host = u.Hostname(); s.host == "" {
		return nil, errors.New("notify: the SMTP URL has no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("notify: the SMTP URL's port %q is not a port number (1 to 65535)", p)
		}
		s.port = n
	} else if strings.HasSuffix(u.Host, ":") {
		return nil, errors.New("notify: the SMTP URL has an empty port")
	}
	if u.Path != "" && u.Path != "/" {
		return nil, errors.New("notify: the SMTP URL must not have a path")
	}
	if u.Fragment != "" {
		return nil, errors.New("notify: the SMTP URL must not have a fragment")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, errors.New("notify: the SMTP URL's query cannot be parsed")
	}
	for k, vs := range q {
		switch {
		case k != "starttls":
			return nil, fmt.Errorf("notify: unknown SMTP URL parameter %q (only starttls=required is known)", k)
		case len(vs) != 1 || vs[0] != "required":
			return nil, errors.New("notify: the SMTP URL parameter starttls takes one value, required")
		case s.scheme == "smtps":
			return nil, errors.New("notify: starttls=required applies to smtp://; smtps:// is TLS from the start")
		}
		s.starttls = true
	}
	if u.User != nil {
		s.user = u.User.Username()
		pass, ok := u.User.Password()
		switch {
		case s.user == "":
			return nil, errors.New("notify: the SMTP URL has a password but no user name")
		case !ok || pass == "":
			return nil, errors.New("notify: the SMTP URL has a user name but no password (smtp://user:pass@host)")
		}
		s.pass = pass
	}
	from = strings.TrimSpace(from)
	if from == "" {
		return nil, errors.New("notify: the sender address (from) is required")
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("notify: the sender address %q is not a valid e-mail address", from)
	}
	s.from = from
	return s, nil
}

// String describes the server without the password, for logs.
func (s *SMTP) String() string {
	if s == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString(s.scheme + "://")
	if s.user != "" {
		b.WriteString(url.User(s.user).String() + ":***@")
	}
	b.WriteString(netJoin(s.host, s.port))
	if s.starttls {
		b.WriteString("?starttls=required")
	}
	return b.String()
}

// LogValue keeps the password out of structured logs.
func (s *SMTP) LogValue() slog.Value { return slog.StringValue(s.String()) }

// From is the sender address.
func (s *SMTP) From() string { return s.from }

func netJoin(host string, port int) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.Itoa(port)
}

// Send delivers m on a new connection. An invalid recipient is a Permanent error; every other
// failure (connection, TLS, authentication, a 4xx or 5xx reply) is worth retrying later.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := mail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("smtp: sender address: %w", err)
	}
	if _, err := netmail.ParseAddress(m.To); err != nil {
		return Permanent(fmt.Errorf("smtp: the recipient address %q is not valid", m.To))
	}
	if err := msg.To(m.To); err != nil {
		return Permanent(fmt.Errorf("smtp: the recipient address %q is not valid", m.To))
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(mail.TypeTextPlain, m.Text)

	tlsConfig := &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
	if s.tlsConfig != nil {
		tlsConfig = s.tlsConfig.Clone()
		if tlsConfig.ServerName == "" {
			tlsConfig.ServerName = s.host
		}
	}
	opts := []mail.Option{mail.WithPort(s.port), mail.WithTimeout(smtpTimeout), mail.WithTLSConfig(tlsConfig)}
	switch {
	case s.scheme == "smtps":
		opts = append(opts, mail.WithSSL())
	case s.starttls:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if s.user != "" {
		// PLAIN first; otherwise what the server offers. go-mail's PLAIN and LOGIN refuse to
		// send the password in clear text except to a loopback server.
		opts = append(opts, mail.WithUsername(s.user), mail.WithPassword(s.pass),
			mail.WithOpportunisticSMTPAuth(mail.SMTPAuthPlain, mail.SMTPAuthSCRAMSHA256, mail.SMTPAuthSCRAMSHA1,
				mail.SMTPAuthLogin, mail.SMTPAuthCramMD5))
	}
	// go-mail watches ctx only while dialling and bounds the rest by per-command deadlines;
	// closing the connection when ctx ends bounds the whole exchange, which is what keeps a
	// send inside the Worker's claim.
	var stop func() bool
	dialer := &net.Dialer{}
	opts = append(opts, mail.WithDialContextFunc(func(dctx context.Context, network, addr string) (net.Conn, error) {
		var conn net.Conn
		var err error
		if s.scheme == "smtps" {
			conn, err = (&tls.Dialer{NetDialer: dialer, Config: tlsConfig}).DialContext(dctx, network, addr)
		} else {
			conn, err = dialer.DialContext(dctx, network, addr)
		}
		if err == nil {
			stop = context.AfterFunc(ctx, func() { conn.Close() })
		}
		return conn, err
	}))
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	c, err := mail.NewClient(s.host, opts...)
	if err != nil {
		return s.redact(fmt.Errorf("smtp %s: %w", s, err))
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", ctx.Err(), err)
		}
		return s.redact(fmt.Errorf("smtp %s: %w", s, err))
	}
	return nil
}

// redact hides the password should a library or the server ever echo it.
func (s *SMTP) redact(err error) error {
	if err == nil || s.pass == "" {
		return err
	}
	text := err.Error()
	clean := text
	for _, secret := range []string{s.pass, url.QueryEscape(s.pass), url.PathEscape(s.pass)} {
		clean = strings.ReplaceAll(clean, secret, "***")
	}
	if clean == text {
		return err
	}
	// Not wrapped: the cause's text is what must not escape.
	return errors.New(clean)
}
