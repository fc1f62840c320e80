package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The memory is returned once after each burst of requests, and only once the burst is over;
// the engine's memos are forgotten just before.
func TestIdleMemoryAfterEachBurst(t *testing.T) {
	t.Parallel()
	freed := make(chan int64, 4)
	var m idleMemory
	forgotten := 0
	m.forget = func() { forgotten++ } // called on run's goroutine, before free
	m.free = func() { freed <- int64(forgotten)*1000 + m.requests.Load() }
	h := m.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	serve := func(n int) {
		for range n {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve(3)
	go m.run(ctx, time.Millisecond)
	if n := <-freed; n != 1003 {
		t.Fatalf("freed at %d (forgets*1000 + requests), want after the burst of 3 and one forget", n)
	}
	serve(2)
	if n := <-freed; n != 2005 {
		t.Fatalf("freed at %d (forgets*1000 + requests), want after the second burst (5 in all), forgotten again", n)
	}
	select {
	case n := <-freed:
		t.Fatalf("freed again (%d requests) with no new request", n)
	default:
	}
}
