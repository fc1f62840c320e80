package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"svc/internal/errs"
	"svc/internal/store"
)

// sqlStateError is a database error with a SQLSTATE, as pgconn.PgError.
type sqlStateError string

func (e sqlStateError) Error() string    { return "ERROR: (SQLSTATE " + string(e) + ")" }
func (e sqlStateError) SQLState() string { return string(e) }

// pingStore is a store whose only working method is Ping.
type pingStore struct {
	store.Store
	err error
}

func (p pingStore) Ping(context.Context) error { return p.err }

// An internal error is a 503 with Retry-After only when the store does not answer its ping:
// while it answers, the same error is a server error (500) without Retry-After; a client
// error stays what it was without asking the store.
func TestUnavailableOnlyWhenTheStoreDoesNotAnswer(t *testing.T) {
	for _, c := range []struct {
		name   string
		ping   error
		err    error
		status int
		retry  string
	}{
		{"store answers", nil, errors.New("boom"), 500, ""},
		{"store down", errors.New("dial tcp: connection refused"), errors.New("boom"), 503, "5"},
		{"client error with store down", errors.New("refused"), errs.New(errs.BadRequest, "no"), 400, ""},
		{"the database answered an error", errors.New("pool busy"), fmt.Errorf("lock: %w", sqlStateError("40P01")), 500, ""},
		{"marked unavailable", nil, &errs.Error{Kind: errs.Unavailable, Safe: "later"}, 503, "5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Server{st: pingStore{err: c.ping}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
			rec := httptest.NewRecorder()
			s.writeError(rec, httptest.NewRequest("GET", "/api/v1/chat/start", nil), c.err)
			var env envelope
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Fatal(err)
			}
			if rec.Code != c.status || rec.Header().Get("Retry-After") != c.retry || env.Success || env.Message == "" {
				t.Fatalf("%d Retry-After %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
			}
			if c.status >= 500 && env.Error != "server_error" {
				t.Fatalf("code %q", env.Error)
			}
		})
	}
}
