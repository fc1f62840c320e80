package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"svc/internal/chat"
)

// stuckWriter is a client that reads nothing: every write waits for its deadline and fails.
type stuckWriter struct {
	header http.Header
	mu     sync.Mutex
	until  time.Time
	writes int
}

func (w *stuckWriter) Header() http.Header { return w.header }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) FlushError() error   { return nil }

func (w *stuckWriter) SetWriteDeadline(t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.until = t
	return nil
}

func (w *stuckWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	until := w.until
	w.mu.Unlock()
	<-time.After(time.Until(until)) // the connection's send buffer stays full until the deadline
	return 0, os.ErrDeadlineExceeded
}

// A client that reads nothing never holds the send back nor holds more than the buffer: the
// send's events are queued without waiting, the client is dropped when the buffer is full
// or a write passes its deadline, and the stream ends within one write deadline.
func TestSlowClientIsDropped(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	w := &stuckWriter{header: http.Header{}}
	es := s.newEventStream(w, httptest.NewRequest(http.MethodPost, "/api/v1/chat/send", nil))
	es.writeTimeout = 50 * time.Millisecond
	start := time.Now()
	es.event(chat.Event{Kind: chat.EventUser, Text: "Hello?"})
	for range 10 * streamBuffer {
		es.event(chat.Event{Kind: chat.EventDelta, Text: "A sentence of the reply. "})
	}
	if d := time.Since(start); d > 40*time.Millisecond {
		t.Fatalf("the send waited %v for its client", d)
	}
	if !es.gone.Load() || len(es.ch) > streamBuffer {
		t.Fatalf("gone %v with %d events buffered", es.gone.Load(), len(es.ch))
	}
	es.finish("done", map[string]int{"conversationId": 1})
	if d := time.Since(start); d > time.Second {
		t.Fatalf("the stream took %v to end", d)
	}
	if w.writes > 1 {
		t.Fatalf("%d writes to a client that reads nothing, want at most 1", w.writes)
	}
	if w.header.Get("Content-Type") != "text/event-stream; charset=utf-8" || w.header.Get("X-Accel-Buffering") != "no" {
		t.Errorf("headers %v", w.header)
	}
}

func TestWantsStream(t *testing.T) {
	t.Parallel()
	for accept, want := range map[string]bool{
		"text/event-stream":                   true,
		"application/json, text/event-stream": true,
		"text/event-stream;q=0.5, */*;q=0.1":  true,
		"text/event-stream;q=0":               false,
		"application/json":                    false,
		"":                                    false,
		"text/event-streams":                  false,
		"TEXT/EVENT-STREAM; charset=utf-8":    true,
	} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		if got := wantsStream(r); got != want {
			t.Errorf("Accept %q: %v, want %v", accept, got, want)
		}
	}
}
