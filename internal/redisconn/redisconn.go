// Package redisconn holds what the Redis-backed parts of svc share: the client built from
// SVC_REDIS_URL with timeouts short enough that a Redis outage costs a request milliseconds,
// not seconds, a description of the server that is safe to log, and Health, which decides
// when to try Redis again after a failure and logs each change of state once.
package redisconn

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultPrefix starts every key svc keeps in Redis (the limiter's, the surge detector's and
// the sign-in throttle's), so one Redis can serve other things too.
const DefaultPrefix = "svc:rl:"

// Timeout bounds one limiter or surge call to Redis. On loopback or a LAN a call takes well
// under a millisecond (GCRA ~0.1 ms); past this the answer is late enough that the replica's
// own memory decides instead, so a slow Redis never slows every request down.
const Timeout = 75 * time.Millisecond

// NewClient returns a client for opts (as config parsed SVC_REDIS_URL) with the short
// timeouts of a rate limiter: a dead server must fail a call fast, and a failed call is
// decided in memory, not retried. opts is copied, not changed.
func NewClient(opts *redis.Options) *redis.Client {
	o := *opts
	o.DialTimeout = 2 * Timeout
	o.ReadTimeout = Timeout
	o.WriteTimeout = Timeout
	o.PoolTimeout = Timeout
	o.MaxRetries = -1 // no retries: the fallback is the retry
	o.DialerRetries = 1
	o.ContextTimeoutEnabled = true
	return redis.NewClient(&o)
}

// Describe names the server of opts for logs: host:port and database, never the user name
// or password the URL may hold.
func Describe(opts *redis.Options) string {
	if opts == nil {
		return ""
	}
	return fmt.Sprintf("%s/%s", opts.Addr, strconv.Itoa(opts.DB))
}

// RouteLibraryLog sends go-redis's own log lines (each failed dial, for one) to log at debug
// level. Left alone, the library prints them to stderr on every failed call, which is the
// per-request noise Health exists to avoid: the outage is logged once, by Health. go-redis
// has one process-wide logger and no per-client one, so this is the one global setting svc
// makes; serve makes it once, when SVC_REDIS_URL is set.
func RouteLibraryLog(log *slog.Logger) {
	redis.SetLogger(libraryLog{log})
}

type libraryLog struct{ log *slog.Logger }

func (l libraryLog) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, fmt.Sprintf(format, v...), "source", "go-redis")
}
