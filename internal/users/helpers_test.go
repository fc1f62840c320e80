package users

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// testCost keeps argon2id cheap under -race; production hashes use defaultParams.
var testCost = argonParams{memory: 64, time: 1, threads: 1}

const testPublicURL = "http://127.0.0.1:8080"

// env is a service on a fresh SQLite store, with one account.
type env struct {
	t       *testing.T
	st      *sqlite.Store
	svc     *Service
	clock   *storetest.Clock
	account store.Account
	logs    *syncBuffer
	kicks   int
	kickMu  sync.Mutex
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newEnv(t *testing.T) *env {
	t.Helper()
	clock := storetest.ClockAt(time.Date(2031, 3, 4, 9, 0, 0, 0, time.UTC))
	st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, st: st, clock: clock, logs: &syncBuffer{}}
	e.account, _ = storetest.NewAccount(t, st, "Acme", 0)
	cost := testCost
	e.svc = New(Deps{Store: st, Now: clock.Now, PublicURL: testPublicURL + "/",
		Log: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Kick: func() {
			e.kickMu.Lock()
			e.kicks++
			e.kickMu.Unlock()
		}, cost: &cost})
	return e
}

func ctx() context.Context { return context.Background() }

// addUser adds a user of the env's account with a password.
func (e *env) addUser(email, role, password string) store.User {
	e.t.Helper()
	u, link, err := e.svc.AddUser(ctx(), e.account.ID, email, role, password)
	if err != nil {
		e.t.Fatalf("add user %s: %v", email, err)
	}
	if (link == "") != (password != "") {
		e.t.Fatalf("add user %s: invite link %q with password %v", email, link, password != "")
	}
	return u
}

// signIn signs in and fails the test on an error.
func (e *env) signIn(email, password string) Signed {
	e.t.Helper()
	s, err := e.svc.SignIn(ctx(), email, password, "203.0.113.7", "Mozilla/5.0 test")
	if err != nil {
		e.t.Fatalf("sign in %s: %v", email, err)
	}
	return s
}

// notices are the env account's queued notices, oldest first.
func (e *env) notices() []store.Notice {
	e.t.Helper()
	ns, err := e.st.Notices(ctx(), e.account.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	for i, j := 0, len(ns)-1; i < j; i, j = i+1, j-1 {
		ns[i], ns[j] = ns[j], ns[i]
	}
	return ns
}

func payloadOf(t *testing.T, n store.Notice) LinkPayload {
	t.Helper()
	var p LinkPayload
	if err := json.Unmarshal([]byte(n.Payload), &p); err != nil {
		t.Fatalf("payload %q: %v", n.Payload, err)
	}
	return p
}

// tokenOf is the raw token at the end of a link.
func tokenOf(t *testing.T, link, kind string) string {
	t.Helper()
	prefix := testPublicURL + "/dashboard/" + kind + "/"
	if !strings.HasPrefix(link, prefix) {
		t.Fatalf("link %q does not start with %q", link, prefix)
	}
	return strings.TrimPrefix(link, prefix)
}

func wantErr(t *testing.T, err, sentinel error) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("error %v, want %v", err, sentinel)
	}
}
