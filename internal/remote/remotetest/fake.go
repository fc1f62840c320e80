// Package remotetest is what the tests' fake model providers share (llm/llmtest,
// embedding/embedtest): a loopback HTTP server that a test can close without waiting for the
// answers it delayed, the calls it received, and what it answers next: queued steps first,
// then a script, then a default. C is a fake's record of a call, S its description of an
// answer.
package remotetest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Fake is the shared part of a fake provider. It is safe for concurrent use.
type Fake[C, S any] struct {
	srv  *httptest.Server
	done chan struct{}
	once sync.Once

	mu     sync.Mutex
	calls  []C
	queue  []S
	script func(C) S
	deflt  S
}

// NewFake starts serving h on loopback; deflt answers when neither the queue nor a script
// decides, and script may be nil.
func NewFake[C, S any](h http.Handler, deflt S, script func(C) S) *Fake[C, S] {
	f := &Fake[C, S]{done: make(chan struct{}), deflt: deflt, script: script}
	f.srv = httptest.NewServer(h)
	return f
}

// Close stops the server. Answers still waiting out a delay are abandoned rather than waited
// for, so a test never hangs on its own slow step.
func (f *Fake[C, S]) Close() {
	f.once.Do(func() {
		close(f.done)
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
}

// URL is the server's root, e.g. "http://127.0.0.1:41234".
func (f *Fake[C, S]) URL() string { return f.srv.URL }

// Push queues steps that answer the next calls in order, before any script or default.
func (f *Fake[C, S]) Push(steps ...S) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, steps...)
}

// SetScript replaces the script; nil falls back to the default.
func (f *Fake[C, S]) SetScript(script func(C) S) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = script
}

// SetDefault replaces what answers when neither the queue nor a script decides.
func (f *Fake[C, S]) SetDefault(step S) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deflt = step
}

// Calls returns a copy of every call received so far, in arrival order.
func (f *Fake[C, S]) Calls() []C {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]C(nil), f.calls...)
}

// CallCount is len(Calls()) without the copy.
func (f *Fake[C, S]) CallCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// Record stores a call and returns its sequence number, from 1.
func (f *Fake[C, S]) Record(c C) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	return len(f.calls)
}

// Next picks the step for a call: the queue's first, else the script's, else the default.
// The script runs outside the lock, so that it may itself call Calls or Push.
func (f *Fake[C, S]) Next(c C) S {
	f.mu.Lock()
	if len(f.queue) > 0 {
		st := f.queue[0]
		f.queue = f.queue[1:]
		f.mu.Unlock()
		return st
	}
	script, deflt := f.script, f.deflt
	f.mu.Unlock()
	if script != nil {
		return script(c)
	}
	return deflt
}

// Wait sleeps d unless the client leaves or the server closes first; it reports whether the
// answer should still be written.
func (f *Fake[C, S]) Wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-f.done:
		return false
	}
}

// OpenAIErrorType is the "type" of an OpenAI error body for a status.
func OpenAIErrorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}
