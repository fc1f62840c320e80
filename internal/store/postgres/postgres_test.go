package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"svc/internal/store"
	"svc/internal/store/postgres"
	"svc/internal/store/storetest"
	"svc/internal/store/teststore"
)

// testURL and newSchema are teststore's rig: the test server (skipping when it is missing,
// unless SVC_REQUIRE_POSTGRES=1) and a schema of the test's own.
func testURL(t *testing.T) string { return teststore.PostgresURL(t) }

func newSchema(t *testing.T, url string) string { return teststore.Schema(t, url) }

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
