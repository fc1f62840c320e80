package api

import (
	"context"
	"errors"
	"time"

	"svc/internal/errs"
)

// unavailableRetry is the Retry-After of a 503 for a database that does not answer: long
// enough that a fleet of clients does not hammer a recovering server, short enough that a
// widget visitor's retry lands soon after a restart or a fail-over (typically seconds).
const unavailableRetry = 5 * time.Second

// unavailableMessage is what a client is told when the database does not answer. It names
// no host: the database URL may carry a password.
const unavailableMessage = "The service's database is not reachable right now; nothing was saved or charged. Please retry in a few seconds."

// unavailablePing bounds the store ping that tells an outage from another internal error.
const unavailablePing = time.Second

// unavailable reports whether err, an internal error, comes with a database that does not
// answer, so the request is answered 503 with Retry-After instead of 500: the client did
// nothing wrong and the same request succeeds once the database is back. The store is asked
// (a ping) rather than err's chain read: a store may wrap its driver's error without keeping
// the chain, and a network error in the chain may be a model provider's, not the database's.
// An error while the store answers pings is a real server error (500), logged as one.
// Only internal errors are asked about: one already classified (Unavailable among them) keeps
// its kind. The ping runs only on that error path, never for a request that succeeded.
func (s *Server) unavailable(ctx context.Context, kind errs.Kind, err error) bool {
	if kind != errs.Internal {
		return false
	}
	// A database error with a SQLSTATE (pgconn.PgError, by its method) was the server's
	// answer: it is reachable, and a busy pool must not make its ping look like an outage.
	var answered interface{ SQLState() string }
	if s.st == nil || errors.As(err, &answered) {
		return false
	}
	// Detached from the request: a client that gave up is handled before this, and the
	// ping's own deadline bounds the wait.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unavailablePing)
	defer cancel()
	return s.st.Ping(pctx) != nil
}
