package notify

import (
	"context"
	"crypto/tls"
	"fmt"
	"strings"
	"testing"
	"time"
)

const secret = "s3cr3t-Pässwort"

func TestNewSMTPParsesURLs(t *testing.T) {
	for _, tc := range []struct {
		url, want                string
		host, user, pass, scheme string
		port                     int
		starttls                 bool
	}{
		{"smtp://mail.example.com", "smtp://mail.example.com:587", "mail.example.com", "", "", "smtp", 587, false},
		{"smtp://mail.example.com:2525/", "smtp://mail.example.com:2525", "mail.example.com", "", "", "smtp", 2525, false},
		{"SMTP://u%40x.test:p%3Aw%2Fd@mail.example.com?starttls=required",
			"smtp://u%40x.test:***@mail.example.com:587?starttls=required", "mail.example.com", "u@x.test", "p:w/d", "smtp", 587, true},
		{"smtps://bob:pw@smtp.example.org", "smtps://bob:***@smtp.example.org:465", "smtp.example.org", "bob", "pw", "smtps", 465, false},
		{"smtps://[::1]:1465", "smtps://[::1]:1465", "::1", "", "", "smtps", 1465, false},
	} {
		s, err := NewSMTP(tc.url, "Widget <noreply@svc.example>")
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		if s.host != tc.host || s.port != tc.port || s.user != tc.user || s.pass != tc.pass || s.scheme != tc.scheme ||
			s.starttls != tc.starttls || s.From() != "Widget <noreply@svc.example>" {
			t.Fatalf("%s: parsed %+v", tc.url, *s)
		}
		if s.String() != tc.want {
			t.Fatalf("%s: String() = %q, want %q", tc.url, s.String(), tc.want)
		}
		if got := fmt.Sprintf("%v %+v", s, s); strings.Contains(got, tc.pass) && tc.pass != "" {
			t.Fatalf("formatting shows the password: %s", got)
		}
	}
}

func TestNewSMTPRejectsBadInput(t *testing.T) {
	enc := "s3cr3t-P%C3%A4sswort" // secret, percent-encoded
	for _, tc := range []struct{ url, from, wantErr string }{
		{"", "a@b.test", "empty"},
		{"http://u:" + enc + "@mail.test", "a@b.test", "smtp:// or smtps://"},
		{"mail.test:25", "a@b.test", "smtp:// or smtps://"},
		{"smtp:mail.test", "a@b.test", "smtp://"},
		{"smtp://", "a@b.test", "no host"},
		{"smtp://u:" + enc + "@:25", "a@b.test", "no host"},
		{"smtp://u:" + enc + "@mail.test:0", "a@b.test", "port"},
		{"smtp://mail.test:70000", "a@b.test", "port"},
		{"smtp://u:" + enc + "@mail.test:abc", "a@b.test", "cannot be parsed"},
		{"smtp://u:" + secret + "%zz@mail.test", "a@b.test", "cannot be parsed"},
		{"smtp://u:" + enc + "@mail.test:", "a@b.test", "empty port"},
		{"smtp://mail.test/inbox", "a@b.test", "path"},
		{"smtp://mail.test#x", "a@b.test", "fragment"},
		{"smtp://mail.test?starttls=maybe", "a@b.test", "starttls"},
		{"smtp://mail.test?starttls=required&starttls=required", "a@b.test", "starttls"},
		{"smtp://mail.test?tls=1", "a@b.test", "unknown SMTP URL parameter"},
		{"smtps://mail.test?starttls=required", "a@b.test", "TLS from the start"},
		{"smtp://user@mail.test", "a@b.test", "no password"},
		{"smtp://user:@mail.test", "a@b.test", "no password"},
		{"smtp://:" + enc + "@mail.test", "a@b.test", "no user name"},
		{"smtp://u:" + enc + "@mail.test", "", "sender address"},
		{"smtp://u:" + enc + "@mail.test", "not an address", "not a valid e-mail address"},
		{"smtp://u:" + enc + "@mail.test", "a@b.test\r\nBcc: evil@x.test", "not a valid e-mail address"},
	} {
		s, err := NewSMTP(tc.url, tc.from)
		if err == nil {
			t.Fatalf("%q accepted: %v", tc.url, s)
		}
		if !strings.Contains(err.Error(), tc.wantErr) {
			t.Fatalf("%q: error %q, want it to mention %q", tc.url, err, tc.wantErr)
		}
		if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), enc) {
			t.Fatalf("%q: error shows the password: %v", tc.url, err)
		}
	}
}

func sendOne(t *testing.T, rawURL string, configure func(*SMTP)) error {
	t.Helper()
	s, err := NewSMTP(rawURL, "svc <noreply@svc.test>")
	if err != nil {
		t.Fatal(err)
	}
	if configure != nil {
		configure(s)
	}
	return s.Send(context.Background(), Message{To: "owner@shop.test", Subject: "Günlük bütçe doldu: „Größe“",
		Text: "Merhaba,\nşöyle böyle: 0.0500 USD.\n"})
}

func TestSMTPSendsToAPlainServer(t *testing.T) {
	ts := newTestServer(t)
	if err := sendOne(t, ts.url("smtp", "", ""), nil); err != nil {
		t.Fatal(err)
	}
	got := ts.received()
	if len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}
	m := got[0]
	if m.From != "noreply@svc.test" || len(m.To) != 1 || m.To[0] != "owner@shop.test" || m.TLS || m.User != "" {
		t.Fatalf("envelope: %+v", m)
	}
	if m.Subject != "Günlük bütçe doldu: „Größe“" || m.Body != "Merhaba,\nşöyle böyle: 0.0500 USD.\n" {
		t.Fatalf("subject %q body %q", m.Subject, m.Body)
	}
	if m.Header.Get("Message-Id") == "" || m.Header.Get("Date") == "" || !strings.Contains(m.Header.Get("From"), "noreply@svc.test") {
		t.Fatalf("headers: %v", m.Header)
	}
	if !strings.Contains(string(m.Data), "=?UTF-8?") {
		t.Fatalf("the subject is not RFC 2047 encoded:\n%s", m.Data)
	}
}

func TestSMTPAuthOverLoopback(t *testing.T) {
	ts := &testServer{t: t, user: "mailer@svc.test", pass: secret}
	ts.start("")
	userinfo := "mailer%40svc.test:s3cr3t-P%C3%A4sswort"
	if err := sendOne(t, ts.url("smtp", userinfo, ""), nil); err != nil {
		t.Fatal(err)
	}
	if got := ts.received(); len(got) != 1 || got[0].User != "mailer@svc.test" {
		t.Fatalf("not authenticated: %+v", got)
	}
	// Without credentials the server refuses; with a wrong password too, and the error does
	// not carry what was sent.
	if err := sendOne(t, ts.url("smtp", "", ""), nil); err == nil {
		t.Fatal("sent without authenticating")
	}
	err := sendOne(t, ts.url("smtp", "mailer%40svc.test:"+strings.ToUpper(secret[:6])+"-wrong", ""), nil)
	if err == nil || !strings.Contains(err.Error(), "535") {
		t.Fatalf("wrong password: %v", err)
	}
	if strings.Contains(err.Error(), "S3CR3T") || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("error shows the password: %v", err)
	}
	if len(ts.received()) != 1 {
		t.Fatal("a refused session delivered")
	}
}

func TestSMTPRedactsAnEchoedPassword(t *testing.T) {
	s, err := NewSMTP("smtp://u:"+strings.ReplaceAll(secret, "ä", "%C3%A4")+"@127.0.0.1:1", "a@b.test")
	if err != nil {
		t.Fatal(err)
	}
	got := s.redact(fmt.Errorf("535 bad credentials for u/%s", secret))
	if strings.Contains(got.Error(), secret) || !strings.Contains(got.Error(), "***") {
		t.Fatalf("not redacted: %v", got)
	}
}

func TestSMTPStartTLS(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	trust := func(s *SMTP) { s.tlsConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12} }

	ts := &testServer{t: t, tlsConfig: serverTLS, user: "u", pass: secret}
	ts.start("")
	userinfo := "u:s3cr3t-P%C3%A4sswort"
	// Offered: used without being asked, and then auth runs inside TLS.
	if err := sendOne(t, ts.url("smtp", userinfo, ""), trust); err != nil {
		t.Fatal(err)
	}
	if err := sendOne(t, ts.url("smtp", userinfo, "starttls=required"), trust); err != nil {
		t.Fatal(err)
	}
	for _, m := range ts.received() {
		if !m.TLS || m.User != "u" {
			t.Fatalf("not over TLS with auth: %+v", m)
		}
	}
	// An untrusted certificate fails the send rather than falling back to clear text.
	if err := sendOne(t, ts.url("smtp", userinfo, ""), nil); err == nil {
		t.Fatal("sent past an untrusted certificate")
	}

	// Required but not offered: refused.
	plain := newTestServer(t)
	err := sendOne(t, plain.url("smtp", "", "starttls=required"), nil)
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("required STARTTLS missing: %v", err)
	}
	if len(plain.received()) != 0 {
		t.Fatal("delivered without the required STARTTLS")
	}
	if n := len(ts.received()); n != 2 {
		t.Fatalf("%d messages over STARTTLS, want 2", n)
	}
}

func TestSMTPImplicitTLS(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	ts := &testServer{t: t, tlsConfig: serverTLS, implicitTLS: true, user: "u", pass: secret}
	ts.start("")
	err := sendOne(t, ts.url("smtps", "u:s3cr3t-P%C3%A4sswort", ""), func(s *SMTP) {
		s.tlsConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.received(); len(got) != 1 || !got[0].TLS || got[0].User != "u" {
		t.Fatalf("implicit TLS: %+v", got)
	}
}

func TestSMTPRefusesABadRecipientForGood(t *testing.T) {
	ts := newTestServer(t)
	s, err := NewSMTP(ts.url("smtp", "", ""), "noreply@svc.test")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), Message{To: "not an address", Subject: "x", Text: "y"})
	if err == nil || !IsPermanent(err) {
		t.Fatalf("bad recipient: %v (permanent %v)", err, IsPermanent(err))
	}
}

func TestSMTPSendStopsWithItsContext(t *testing.T) {
	// A server that accepts the connection and never greets: the send must end with ctx.
	l := newSilentListener(t)
	s, err := NewSMTP("smtp://"+l, "noreply@svc.test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, Message{To: "a@b.test", Subject: "x", Text: "y"})
	if err == nil {
		t.Fatal("sent to a silent server")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("send took %v past its context", d)
	}
}
