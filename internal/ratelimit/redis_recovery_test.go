package ratelimit_test

import (
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/ratelimit"
	"svc/internal/redisconn"
	"svc/internal/redisconn/redistest"
)

// flakyProxy forwards TCP connections to a real Redis until it is cut; while cut it closes
// every connection it holds and accepts, so Redis looks down without touching the server.
type flakyProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
}

func newFlakyProxy(t *testing.T, target string) *flakyProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &flakyProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.setCut(true) })
	return p
}

func (p *flakyProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		go func() { io.Copy(up, c); up.Close() }()
		go func() { io.Copy(c, up); c.Close() }()
	}
}

func (p *flakyProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// A limiter whose Redis goes away decides in memory, and goes back to the shared budget by
// itself once Redis answers again; the outage and the recovery are logged once each.
func TestRedisBackAfterAnOutage(t *testing.T) {
	t.Parallel()
	server := redistest.Options(t)
	prefix := redistest.Prefix(t)
	proxy := newFlakyProxy(t, server.Addr)
	o := *server
	o.Addr = proxy.ln.Addr().String()
	client := redisconn.NewClient(&o)
	defer client.Close()
	var log syncBuffer
	var mu sync.Mutex
	clock := time.Now()
	health := redisconn.NewHealth("limiter", redisconn.Describe(&o), slog.New(slog.NewTextHandler(&log, nil)), nil,
		func() time.Time { mu.Lock(); defer mu.Unlock(); return clock })
	l := ratelimit.NewRedis(client, ratelimit.RedisOptions{Prefix: prefix, Health: health, Timeout: 2 * time.Second})
	other := ratelimit.NewRedis(redistest.Client(t), ratelimit.RedisOptions{Prefix: prefix}) // a second replica, always up
	now := time.Now()

	for range 3 { // shared: 3 of 5 spent
		if ok, _ := l.Allow("k", 5, now); !ok {
			t.Fatal("refused with Redis up")
		}
	}
	proxy.setCut(true)
	for range 5 { // in memory: a fresh budget of 5
		if ok, _ := l.Allow("k", 5, now); !ok {
			t.Fatal("refused within the memory budget while Redis is down")
		}
	}
	if !health.Down() {
		t.Fatal("the outage was not noticed")
	}
	proxy.setCut(false)
	mu.Lock()
	clock = clock.Add(redisconn.RetryEvery)
	mu.Unlock()
	// Back on Redis: the shared bucket still has 2 left of the 5, whichever replica asks.
	if ok, _ := l.Allow("k", 5, now); !ok {
		t.Fatal("the 4th of the shared 5 refused after Redis came back")
	}
	if health.Down() {
		t.Fatal("still down after Redis answered")
	}
	if ok, _ := other.Allow("k", 5, now); !ok {
		t.Fatal("the 5th of the shared 5 refused")
	}
	if ok, _ := l.Allow("k", 5, now); ok {
		t.Fatal("the 6th of the shared 5 allowed: not back on the shared budget")
	}
	out := log.String()
	if strings.Count(out, "redis unreachable") != 1 || strings.Count(out, "redis reachable again") != 1 {
		t.Fatalf("want one outage and one recovery logged:\n%s", out)
	}
}
