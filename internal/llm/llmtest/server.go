// Package llmtest is a fake language-model provider on loopback. It speaks the OpenAI Chat
// Completions and the Anthropic Messages wire protocols closely enough for the clients of
// internal/llm, so tests exercise the real clients, their headers, bodies and error decoding, without a
// network or a key. What each reply is comes from a queue of Steps or a Script.
package llmtest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Protocols a Call can arrive in.
const (
	ProtocolOpenAI    = "openai"
	ProtocolAnthropic = "anthropic"
)

// Step is how the fake answers one call.
type Step struct {
	Text string
	// InputTokens and OutputTokens are reported as usage; 0 counts the prompt or the text
	// (a token per 4 bytes, rounded up), so usage is never missing.
	InputTokens, OutputTokens int
	// Status 0 means 200. Any status of 400 or more is answered with the protocol's error
	// body, Text as its message.
	Status int
	// RetryAfter is sent as the Retry-After header when not empty.
	RetryAfter string
	// Delay is waited before answering; the wait ends early, without an answer, when the
	// client goes away or the server closes.
	Delay time.Duration
	// StopReason defaults to "stop" (OpenAI) or "end_turn" (Anthropic).
	StopReason string
	// NoContent answers with no choices (OpenAI) or no content blocks (Anthropic).
	NoContent bool
}

// Message is one prompt message as it arrived.
type Message struct {
	Role    string
	Content string
}

// Call is what arrived at the fake, recorded even when the fake rejected it.
type Call struct {
	Protocol    string
	Model       string
	System      string
	Messages    []Message
	MaxTokens   int
	Temperature *float64
	// JSON is true when the request asked for JSON by the protocol's own means (OpenAI's
	// response_format). Anthropic has none on the Messages API, so there the instruction
	// shows up in System instead.
	JSON   bool
	Header http.Header
	// Body is the raw request body, for assertions on fields the Call does not model.
	Body []byte
}

// Options configure a Server.
type Options struct {
	// APIKey, when not empty, is required: as a Bearer token (OpenAI) or x-api-key
	// (Anthropic).
	APIKey string
	// Script decides the answer when the queue is empty.
	Script func(Call) Step
	// Default answers when the queue is empty and there is no Script; its zero value
	// answers "ok".
	Default Step
}

// Server is a running fake provider. It is safe for concurrent use.
type Server struct {
	srv    *httptest.Server
	apiKey string
	done   chan struct{}
	once   sync.Once

	mu      sync.Mutex
	calls   []Call
	queue   []Step
	script  func(Call) Step
	deflt   Step
	counter int
}

// New starts a fake provider; Close stops it.
func New(opts Options) *Server {
	s := &Server{apiKey: opts.APIKey, script: opts.Script, deflt: opts.Default, done: make(chan struct{})}
	if s.deflt == (Step{}) {
		s.deflt = Step{Text: "ok"}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.openAI)
	mux.HandleFunc("/v1/messages", s.anthropic)
	s.srv = httptest.NewServer(mux)
	return s
}

// Start is New for a test: the server closes when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	t.Cleanup(s.Close)
	return s
}

// Close stops the server. Answers still waiting out a Delay are abandoned rather than waited
// for, so a test never hangs on its own slow step.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// URL is the server's root, e.g. "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.srv.URL }

// OpenAIBaseURL is the base URL the OpenAI client wants: the root plus "/v1".
func (s *Server) OpenAIBaseURL() string { return s.srv.URL + "/v1" }

// AnthropicBaseURL is the base URL the Anthropic client wants: the root, since it adds "/v1".
func (s *Server) AnthropicBaseURL() string { return s.srv.URL }

// Push queues steps that answer the next calls in order, before any Script or Default.
func (s *Server) Push(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, steps...)
}

// SetScript replaces the Script; nil falls back to the Default step.
func (s *Server) SetScript(script func(Call) Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = script
}

// Calls returns a copy of every call received so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// CallCount is len(Calls()) without the copy.
func (s *Server) CallCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// record stores the call and returns its sequence number.
func (s *Server) record(c Call) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	s.counter++
	return s.counter
}

// next picks the step for an accepted call. The script runs outside the lock so that it may
// itself call Calls or Push.
func (s *Server) next(c Call) Step {
	s.mu.Lock()
	if len(s.queue) > 0 {
		st := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return st
	}
	script, deflt := s.script, s.deflt
	s.mu.Unlock()
	if script != nil {
		return script(c)
	}
	return deflt
}

// wait sleeps d unless the client leaves or the server closes first; it reports whether the
// answer should still be written.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
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
	case <-s.done:
		return false
	}
}

// tokens approximates a token count deterministically: a token per 4 bytes, rounded up.
func tokens(texts ...string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return (n + 3) / 4
}
