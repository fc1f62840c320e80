package crawl

import (
	"context"
	"sync"
	"time"
)

// hostGates keep the crawl polite per host: at most perHost requests in flight, and a pause
// between the start of two requests when robots.txt asks for a crawl-delay (then one at a
// time) or the operator sets a minimum delay.
type hostGates struct {
	mu       sync.Mutex
	perHost  int
	minDelay time.Duration
	gates    map[string]*hostGate
}

type hostGate struct {
	slots chan struct{}
	mu    sync.Mutex
	next  time.Time
	delay time.Duration
}

func newHostGates(perHost int, minDelay time.Duration) *hostGates {
	return &hostGates{perHost: perHost, minDelay: minDelay, gates: map[string]*hostGate{}}
}

// gate returns host's gate, creating it with the crawl-delay robots.txt gave for it.
func (g *hostGates) gate(host string, crawlDelay time.Duration) *hostGate {
	g.mu.Lock()
	defer g.mu.Unlock()
	if h, ok := g.gates[host]; ok {
		return h
	}
	n, delay := g.perHost, max(g.minDelay, crawlDelay)
	if crawlDelay > 0 {
		n = 1
	}
	h := &hostGate{slots: make(chan struct{}, n), delay: delay}
	g.gates[host] = h
	return h
}

// acquire waits for a free slot and the host's next allowed start time.
func (h *hostGate) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	h.mu.Lock()
	now := time.Now()
	start := now
	if h.next.After(now) {
		start = h.next
	}
	h.next = start.Add(h.delay)
	h.mu.Unlock()
	if wait := start.Sub(now); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			<-h.slots
			return ctx.Err()
		}
	}
	return nil
}

func (h *hostGate) release() { <-h.slots }
