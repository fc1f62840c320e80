// Package llmtest is a fake language-model provider on loopback. It speaks the OpenAI Chat
// Completions and the Anthropic Messages wire protocols closely enough for the clients of
// internal/llm, so tests exercise the real clients, their headers, bodies and error decoding, without a
// network or a key. What each reply is comes from a queue of Steps or a Script.
package llmtest

import (
	"net/http"
	"testing"
	"time"

	"svc/internal/remote/remotetest"
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

	// What a streamed call (stream: true) does besides. Text is written in pieces of about a
	// token each (up to 4 bytes of a word, with the white space after it), Delay before the
	// first, TokenInterval between the next: 25 ms is a model writing 40 tokens a second.
	TokenInterval time.Duration
	// CutAfter, when positive, ends the stream after that many pieces: with StreamError
	// as the protocol's error event (its message), else by dropping the connection.
	CutAfter    int
	StreamError string
	// NoUsage leaves the usage out of the stream, as servers that ignore
	// stream_options.include_usage do.
	NoUsage bool
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
	// Stream is true when the request asked for a streamed answer; IncludeUsage when it
	// also asked for the usage in it (OpenAI's stream_options).
	Stream, IncludeUsage bool
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
	// OnPiece, when set, is told of each streamed piece right after it was written and
	// flushed to the client: the call's sequence number (from 1), the piece, and when.
	OnPiece func(call int, piece string, at time.Time)
}

// Server is a running fake provider. It is safe for concurrent use. Close, URL, Push,
// SetScript, SetDefault, Calls and CallCount are remotetest.Fake's.
type Server struct {
	*remotetest.Fake[Call, Step]
	apiKey  string
	onPiece func(call int, piece string, at time.Time)
}

// New starts a fake provider; Close stops it.
func New(opts Options) *Server {
	s := &Server{apiKey: opts.APIKey, onPiece: opts.OnPiece}
	deflt := opts.Default
	if deflt == (Step{}) {
		deflt = Step{Text: "ok"}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.openAI)
	mux.HandleFunc("/v1/messages", s.anthropic)
	s.Fake = remotetest.NewFake(mux, deflt, opts.Script)
	return s
}

// Start is New for a test: the server closes when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	t.Cleanup(s.Close)
	return s
}

// OpenAIBaseURL is the base URL the OpenAI client wants: the root plus "/v1".
func (s *Server) OpenAIBaseURL() string { return s.URL() + "/v1" }

// AnthropicBaseURL is the base URL the Anthropic client wants: the root, since it adds "/v1".
func (s *Server) AnthropicBaseURL() string { return s.URL() }

// tokens approximates a token count deterministically: a token per 4 bytes, rounded up.
func tokens(texts ...string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return (n + 3) / 4
}
