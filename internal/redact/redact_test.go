package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

const (
	key     = "svc_pk_0123456789abcdef0123456789abcdef"
	token   = "svc_emb_AbCdEfGh0123456789AbCdEfGh01234567"
	preview = "svc_prev_12.34.1700000000.q83v2zL3bKxg-7_Rz0ab"
	link    = "k3J8s0_aZ-9qLmN1oP2rS3tU4vW5xY6zA7bC8dE9fG0"
)

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"/api/v1/chat/send", "/api/v1/chat/send"},
		{"Unknown action \"" + key + "\".", "Unknown action \"svc_pk_[REDACTED]\"."},
		{"/api/v1/chat/" + key, "/api/v1/chat/svc_pk_[REDACTED]"},
		{"/api/v1/embed/" + token + "/x", "/api/v1/embed/svc_emb_[REDACTED]/x"},
		{"token=" + preview + "&a=1", "token=svc_prev_[REDACTED]&a=1"},
		{"SVC_PK_0123ABCD", "SVC_PK_[REDACTED]"},
		{"svc%5Fpk%5F0123abcd", "svc%5Fpk%5F[REDACTED]"},
		{"svc_pk_0123 and " + token, "svc_pk_[REDACTED] and svc_emb_[REDACTED]"},
		{"/dashboard/reset/" + link, "/dashboard/reset/[REDACTED]"},
		{"https://svc.example/dashboard/invite/" + link + "?x=1", "https://svc.example/dashboard/invite/[REDACTED]?x=1"},
		{"cookie svc_session=" + link + "; other=1", "cookie svc_session=[REDACTED]; other=1"},
		// Our own sentences about key shapes have nothing after the prefix to hide.
		{"keys start with svc_pk_ and 32 hex", "keys start with svc_pk_ and 32 hex"},
		{"/dashboard/login?next=/dashboard/", "/dashboard/login?next=/dashboard/"},
		{"the svc service", "the svc service"},
	}
	for _, tc := range tests {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Contains(tc.in); got != (tc.in != tc.want) {
			t.Errorf("Contains(%q) = %v", tc.in, got)
		}
	}
}

type stringer string

func (s stringer) String() string { return string(s) }

// Every way a value reaches a log line is redacted: the message, string attributes, errors,
// Stringers, other values, groups, attributes bound with With, and LogValuers.
func TestHandlerRedactsEveryValue(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(NewHandler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log = log.With("bound", "id "+key).WithGroup("g")
	log.Debug("request "+key,
		slog.String("path", "/api/v1/chat/"+token),
		slog.Any("error", fmt.Errorf("authenticate: %w", errors.New("bad key "+key))),
		slog.Any("stringer", stringer(preview)),
		slog.Any("map", map[string]string{"k": key}),
		slog.Any("bytes", []byte(token)),
		slog.Group("inner", slog.String("link", "/dashboard/reset/"+link)),
		slog.Any("valuer", slog.StringValue(key)),
		slog.Int("n", 3),
		slog.Any("plain", errors.New("no secret here")),
	)
	out := buf.String()
	for _, secret := range []string{key, token, preview, link, "0123456789abcdef"} {
		if strings.Contains(out, secret) {
			t.Errorf("log line holds %q: %s", secret, out)
		}
	}
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	g, _ := rec["g"].(map[string]any)
	if g == nil || g["n"] != 3.0 || g["plain"] != "no secret here" || rec["bound"] != "id svc_pk_[REDACTED]" {
		t.Errorf("values without secrets changed, or the structure was lost: %s", out)
	}
	if got := strings.Count(out, Mark); got != 9 {
		t.Errorf("%d redactions, want 9: %s", got, out)
	}
}

func TestLoggerWrapsOnce(t *testing.T) {
	t.Parallel()
	l := Logger(slog.New(slog.DiscardHandler))
	if Logger(l) != l {
		t.Error("a redacting logger was wrapped again")
	}
	if _, ok := l.Handler().(*Handler); !ok {
		t.Errorf("handler %T", l.Handler())
	}
}
