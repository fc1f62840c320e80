package errs

import (
	"context"
	"errors"
)

// ClientGone reports whether err is only the end of ctx, the request's own context, which
// ended before the work was done: the client closed the connection (or half-closed it, which
// Go's server cannot tell apart) or gave up waiting. Nothing failed on our side and no answer
// can help, so it is neither a server error nor worth an ERROR log. An error of a client
// kind keeps its kind, and a cancellation of some inner context while the request's is still
// live (a provider timeout, say) stays a server error.
func ClientGone(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() == nil || KindOf(err) != Internal {
		return false
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
