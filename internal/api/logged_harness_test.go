package api_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"svc/internal/account"
	"svc/internal/cli"
	"svc/internal/config"
	"svc/internal/openapi/validate"
	"svc/internal/store/teststore"
)

// logBuffer collects a server's JSON log lines, safely for concurrent writers.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines are the decoded log records.
func (b *logBuffer) lines(t testing.TB) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		out = append(out, rec)
	}
	return out
}

// accessLines are the access log records ("http"), by request id.
func (b *logBuffer) accessLines(t testing.TB) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, rec := range b.lines(t) {
		if rec["msg"] == "http" {
			id, _ := rec["request_id"].(string)
			out[id] = rec
		}
	}
	return out
}

// newLoggedHarness is newHarness with the server's log, every level, kept in a buffer: the
// app is wired by cli.NewApp exactly as serve wires it.
func newLoggedHarness(t testing.TB) (*harness, *logBuffer) {
	t.Helper()
	validatorOnce.Do(func() { validator, validatorErr = validate.NewValidator() })
	if validatorErr != nil {
		t.Fatal(validatorErr)
	}
	st := teststore.Open(t, nil)
	logs := &logBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	accounts := account.New(st, nil)
	app, err := cli.NewApp(st, accounts, config.Config{LLMProvider: "builtin", SMTPFrom: config.DefaultSMTPFrom}, log, cli.AppOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app.Handler)
	t.Cleanup(srv.Close)
	return &harness{t: t, srv: srv, st: st, accounts: accounts, v: validator}, logs
}

// rawRequest writes req on a fresh TCP connection, then half-closes it (closeWrite) or closes
// it at once, and returns what the server answered (nothing, after a full close).
func rawRequest(t testing.TB, addr, req string, closeWrite bool) (status int, body string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	if !closeWrite {
		return 0, ""
	}
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// sendRequest is a raw HTTP/1.1 send with the request id id.
func sendRequest(key, id, message string) string {
	body := "message=" + message
	return fmt.Sprintf("POST /api/v1/chat/send HTTP/1.1\r\nHost: svc.test\r\nAuthorization: Bearer %s\r\n"+
		"X-Request-Id: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s",
		key, id, len(body), body)
}
