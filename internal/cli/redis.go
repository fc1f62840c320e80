package cli

import (
	"context"
	"log/slog"
	"time"

	"svc/internal/config"
	"svc/internal/embed"
	"svc/internal/embed/surgeredis"
	"svc/internal/metrics"
	"svc/internal/ratelimit"
	"svc/internal/redisconn"
	"svc/internal/users"
	"svc/internal/users/throttleredis"
)

// sharedLimits are the rate limiter, the surge detector and the dashboard's sign-in throttle
// every service of an app uses: in Redis when SVC_REDIS_URL is set, so that every replica
// spends the same allowances, and in this process's memory otherwise.
type sharedLimits struct {
	limiter  ratelimit.Limiter // not yet wrapped by the metrics' refusal counter
	surge    *embed.Surge
	throttle users.Throttle
	close    func() error // closes the Redis client; a no-op without one
	// ping asks Redis whether it answers (/readyz); nil without Redis.
	ping func(context.Context) error
}

// newSharedLimits builds the limits of cfg. With Redis, a call it does not answer within
// redisconn.Timeout is decided in memory, counted (svc_ratelimit_fallback_total) and logged
// once per outage, so an unreachable Redis at start is a warning, not a failure.
func newSharedLimits(cfg config.Config, m *metrics.Metrics, log *slog.Logger) sharedLimits {
	if cfg.Redis == nil {
		return sharedLimits{limiter: ratelimit.NewMemory(), surge: embed.NewSurge(embed.SurgeOptions{}),
			throttle: users.NewMemoryThrottle(), close: func() error { return nil }}
	}
	redisconn.RouteLibraryLog(log)
	client := redisconn.NewClient(cfg.Redis)
	server := redisconn.Describe(cfg.Redis) // host:port/db: the URL may hold a password
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		log.Warn("redis does not answer: limits are per replica until it does", "redis", server, "err", err)
	} else {
		log.Info("rate limits, surge state and sign-in throttle shared in redis", "redis", server)
	}
	prefix := cfg.RedisPrefix // "" takes each package's default, redisconn.DefaultPrefix
	limiter := ratelimit.NewRedis(client, ratelimit.RedisOptions{Prefix: prefix,
		Health: redisconn.NewHealth("limiter", server, log, m, nil)})
	surge := embed.NewSharedSurge(embed.SurgeOptions{}, surgeredis.New(client, surgeredis.Options{Prefix: prefix}),
		redisconn.NewHealth("surge", server, log, m, nil))
	throttle := throttleredis.New(client, throttleredis.Options{Prefix: prefix,
		Health: redisconn.NewHealth("signin", server, log, m, nil)})
	ping := func(ctx context.Context) error { return client.Ping(ctx).Err() }
	return sharedLimits{limiter: limiter, surge: surge, throttle: throttle, close: client.Close, ping: ping}
}
