package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"svc/internal/store"
	"svc/internal/store/postgres"
	"svc/internal/store/storetest"
)

const defaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// testURL is the server the tests run on: SVC_TEST_DATABASE_URL, else the local one every
// machine runs. Unreachable, the tests skip, unless SVC_REQUIRE_POSTGRES=1 (CI) fails them.
func testURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("SVC_TEST_DATABASE_URL")
	if url == "" {
		url = defaultURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		if os.Getenv("SVC_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("PostgreSQL at %s is required (SVC_REQUIRE_POSTGRES=1): %v", url, err)
		}
		t.Skipf("PostgreSQL at %s unreachable (set SVC_TEST_DATABASE_URL, or SVC_REQUIRE_POSTGRES=1 to fail): %v", url, err)
	}
	conn.Close(ctx)
	return url
}

// newSchema creates a schema of its own for a test, svc_test_<random>, dropped with
// everything in it when the test ends: parallel tests and parallel runs never see each
// other's rows.
func newSchema(t *testing.T, url string) string {
	t.Helper()
	ctx := context.Background()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := "svc_test_" + hex.EncodeToString(b[:])
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), url)
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

// openIn opens a store whose connections work in schema.
func openIn(ctx context.Context, url, schema string, now func() time.Time) (*postgres.Store, error) {
	return postgres.Open(ctx, url, postgres.Options{Now: now, MaxConns: 8, Configure: func(c *pgxpool.Config) {
		c.ConnConfig.RuntimeParams["search_path"] = schema
	}})
}

// openFresh opens a store in a new schema of its own.
func openFresh(t *testing.T, url string, now func() time.Time) *postgres.Store {
	t.Helper()
	s, err := openIn(context.Background(), url, newSchema(t, url), now)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	url := testURL(t)
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store { return openFresh(t, url, now) })
}

// Servers starting at once on a new database take turns at the migrations: every one opens.
func TestConcurrentOpenMigratesOnce(t *testing.T) {
	t.Parallel()
	url := testURL(t)
	schema := newSchema(t, url)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := openIn(context.Background(), url, schema, time.Now)
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
