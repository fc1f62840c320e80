package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"math/big"
	"net"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"svc/internal/config"
	"svc/internal/metrics"
	"svc/internal/metrics/metricstest"
	"svc/internal/ratelimit"
	"svc/internal/redisconn/redistest"
	"svc/internal/users"
	"svc/internal/users/throttleredis"

	"github.com/redis/go-redis/v9"
)

// With SVC_REDIS_URL, two apps (two replicas) spend one budget and see one surge detector.
// The keys are the service's own (svc:rl:), so the test's key and token are random.
func TestSharedLimitsInRedisAcrossReplicas(t *testing.T) {
	t.Parallel()
	cfg := config.Config{Redis: redistest.Options(t)}
	log := slog.New(slog.DiscardHandler)
	a, b := newSharedLimits(cfg, nil, log), newSharedLimits(cfg, nil, log)
	defer a.close()
	defer b.close()
	if _, ok := a.limiter.(*ratelimit.Redis); !ok {
		t.Fatalf("limiter is %T with SVC_REDIS_URL set", a.limiter)
	}
	buf := make([]byte, 8)
	rand.Read(buf)
	key := "test:cli:" + hex.EncodeToString(buf)
	c := redistest.Client(t)
	t.Cleanup(func() { c.Del(context.Background(), "rate:"+ratelimit.DefaultRedisPrefix+key+"@3") })
	now := time.Now()
	for i := range 3 {
		l := []ratelimit.Limiter{a.limiter, b.limiter}[i%2]
		if ok, _ := l.Allow(key, 3, now); !ok {
			t.Fatalf("request %d of 3 refused", i+1)
		}
	}
	if ok, _ := b.limiter.Allow(key, 3, now); ok {
		t.Fatal("the 4th of a shared 3 allowed")
	}
	n, _ := rand.Int(rand.Reader, big.NewInt(1<<40))
	token := 1<<50 + n.Int64() // far from any real token id
	t.Cleanup(func() {
		state := "svc:rl:surge:{" + strconv.FormatInt(token, 10) + "}"
		c.Del(context.Background(), state, state+":addrs")
	})
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for i := 1; i <= 21; i++ {
		surge := a.surge
		if i%2 == 0 {
			surge = b.surge
		}
		if got := surge.Observe(token, "script", at.Add(time.Duration(i)*time.Second)); got != (i == 21) {
			t.Fatalf("question %d: surge %v", i, got)
		}
	}
	if !a.surge.Active(token, at.Add(22*time.Second)) {
		t.Fatal("replica a does not see the surge")
	}
	email := "signin-email:" + key + "@example.com"
	t.Cleanup(func() { c.Del(context.Background(), a.throttle.(*throttleredis.Throttle).Key(email)) })
	for i := range 5 {
		[]users.Throttle{a.throttle, b.throttle}[i%2].Fail(email, now)
	}
	if blocked, _ := b.throttle.Blocked(email, now); !blocked {
		t.Fatal("5 failed sign-ins across two replicas did not throttle the e-mail")
	}
}

// With Redis unreachable the app still limits, in memory, and the metrics count it.
func TestSharedLimitsFallBackWhenRedisIsDown(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	m := metrics.New(metrics.Options{Log: slog.New(slog.DiscardHandler)})
	l := newSharedLimits(config.Config{Redis: &redis.Options{Addr: addr}}, m, slog.New(slog.DiscardHandler))
	defer l.close()
	now := time.Now()
	for range 2 {
		if ok, _ := l.limiter.Allow("send:key:1", 2, now); !ok {
			t.Fatal("refused within the limit with Redis down")
		}
	}
	if ok, _ := l.limiter.Allow("send:key:1", 2, now); ok {
		t.Fatal("the memory fallback did not limit")
	}
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	f := metricstest.Scrape(t, srv.Client(), srv.URL, "")
	if v, _ := f.Value("svc_ratelimit_fallback_total", map[string]string{"component": "limiter"}); v != 3 {
		t.Fatalf("svc_ratelimit_fallback_total{component=limiter} = %v, want 3", v)
	}
}
