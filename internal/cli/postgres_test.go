package cli

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"svc/internal/store/teststore"
)

// pgSchemaURL is teststore.SchemaURL: a URL whose connections work in a fresh schema.
func pgSchemaURL(t *testing.T) string { return teststore.SchemaURL(t) }

// SVC_DATABASE_URL selects the PostgreSQL store: the account commands run on it, and the data
// directory stays empty.
func TestAccountCommandsOnPostgres(t *testing.T) {
	t.Parallel()
	dbURL, dir := pgSchemaURL(t), t.TempDir()
	run := func(args ...string) (int, map[string]any) {
		t.Helper()
		var out, errb bytes.Buffer
		env := testEnv(dir, "", &out, &errb)
		env.Getenv = func(k string) string {
			switch k {
			case "SVC_DATA":
				return dir
			case "SVC_DATABASE_URL":
				return dbURL
			}
			return ""
		}
		code := Run(context.Background(), args, env)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return code, decodeOne(t, out.String())
	}
	_, m := run("account", "create", "--name", "Acme", "--plan", "growth", "--lang", "de", "--balance-usd", "12.50")
	if m["account_id"].(float64) != 1 || !strings.HasPrefix(m["api_key"].(string), "svc_pk_") {
		t.Fatalf("create output: %v", m)
	}
	if _, m = run("balance", "add", "--account", "1", "--usd", "0.5"); m["balance"].(float64) != 13 {
		t.Fatalf("balance: %v", m)
	}
	if _, m = run("account", "show", "--account", "1"); m["balance"].(float64) != 13 || m["plan"] != "growth" {
		t.Fatalf("show: %v", m)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("the data directory was written with a database URL set: %v %v", err, entries)
	}
}

// Two `svc serve` processes on one PostgreSQL database run at once (no data-directory lock
// between them) and both answer.
func TestTwoServersShareOnePostgres(t *testing.T) {
	t.Parallel()
	dbURL, dir := pgSchemaURL(t), t.TempDir()
	env := func(r *running) Env {
		e := testEnv(dir, "", &r.stdout, &r.stderr)
		e.Getenv = func(k string) string {
			switch k {
			case "SVC_DATA":
				return dir
			case "SVC_DATABASE_URL":
				return dbURL
			}
			return ""
		}
		return e
	}
	a := startServerEnv(t, env)
	defer a.stop(t)
	b := startServerEnv(t, env)
	defer b.stop(t)
}

// startServerEnv is startServer with the environment env makes for the server.
func startServerEnv(t *testing.T, env func(*running) Env) *running {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{base: "http://" + addr, cancel: cancel, done: make(chan int, 1)}
	e := env(r)
	go func() { r.done <- Run(ctx, []string{"serve", "--addr", addr}, e) }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(r.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return r
			}
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve never became healthy: %s", r.stderr.String())
		}
	}
}
