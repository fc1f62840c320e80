// Package teststore opens the store a test runs on: an SQLite file in the test's temporary
// folder, or, with SVC_TEST_STORE=postgres, a PostgreSQL schema of the test's own, so that the
// same HTTP and CLI tests run against either store with one environment switch (CI runs the
// API tests both ways).
package teststore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"svc/internal/store"
	"svc/internal/store/postgres"
	"svc/internal/store/sqlite"
)

// DefaultPostgresURL is the PostgreSQL server every machine runs (trust authentication).
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Postgres reports whether SVC_TEST_STORE asks for PostgreSQL.
func Postgres() bool { return os.Getenv("SVC_TEST_STORE") == "postgres" }

// Open opens a fresh store for t, closed when t ends; now is the store's clock (time.Now when
// nil).
func Open(t testing.TB, now func() time.Time) store.Store {
	t.Helper()
	if Postgres() {
		return OpenPostgres(t, now)
	}
	s, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{Now: now})
	if err != nil {
		t.Fatalf("open SQLite store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenPostgres opens a PostgreSQL store in a new schema of t's own, dropped when t ends.
func OpenPostgres(t testing.TB, now func() time.Time) *postgres.Store {
	t.Helper()
	dbURL := PostgresURL(t)
	schema := Schema(t, dbURL)
	s, err := postgres.Open(context.Background(), dbURL, postgres.Options{Now: now, MaxConns: 8,
		Configure: func(c *pgxpool.Config) { c.ConnConfig.RuntimeParams["search_path"] = schema }})
	if err != nil {
		t.Fatalf("open PostgreSQL store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// PostgresURL is the server PostgreSQL tests run on: SVC_TEST_DATABASE_URL, else the local
// one. Unreachable, the test skips, unless SVC_REQUIRE_POSTGRES=1 (CI) fails it.
func PostgresURL(t testing.TB) string {
	t.Helper()
	dbURL := os.Getenv("SVC_TEST_DATABASE_URL")
	if dbURL == "" {
		dbURL = DefaultPostgresURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		if os.Getenv("SVC_REQUIRE_POSTGRES") == "1" || Postgres() {
			t.Fatalf("PostgreSQL is required (SVC_REQUIRE_POSTGRES=1 or SVC_TEST_STORE=postgres): %v", err)
		}
		t.Skipf("PostgreSQL unreachable (set SVC_TEST_DATABASE_URL, or SVC_REQUIRE_POSTGRES=1 to fail): %v", err)
	}
	conn.Close(ctx)
	return dbURL
}

// Schema creates a schema of t's own, svc_test_<random>, dropped with everything in it when
// t ends: parallel tests and parallel runs never see each other's rows.
func Schema(t testing.TB, dbURL string) string {
	t.Helper()
	ctx := context.Background()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := "svc_test_" + hex.EncodeToString(b[:])
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dbURL)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// SchemaURL is a URL of the test PostgreSQL server whose connections work in a new schema of
// t's own (a search_path parameter, which pgx passes to the server as a setting): what a
// `svc` process under test takes as its SVC_DATABASE_URL.
func SchemaURL(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	schema := Schema(t, base)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
