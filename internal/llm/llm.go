// Package llm talks to language-model providers: the OpenAI Chat Completions wire protocol
// (OpenAI itself and every server that speaks it: Ollama, vLLM, llama.cpp, LM Studio,
// OpenRouter, Azure-style gateways) and the Anthropic Messages API. It knows nothing of
// knowledge bases or billing: it sends one prompt and reports the text and the tokens the
// provider says it used, which is what the account is charged for.
package llm

import (
	"context"

	"svc/internal/remote"
)

// api names these clients in errors and in the User-Agent.
const api = "llm"

// Roles of the messages of a Request.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of the prompt after the system text.
type Message struct {
	Role    string // RoleUser or RoleAssistant
	Content string
}

// Request is one completion.
type Request struct {
	// Model overrides the client's default model when not empty.
	Model    string
	System   string
	Messages []Message
	// MaxTokens caps the output. It is always set by callers, because it bounds the charge
	// that was reserved before the call.
	MaxTokens int
	// Temperature is passed as is; 0 asks for the most deterministic output.
	Temperature float64
	// JSON asks for a single JSON object as the reply (OpenAI's response_format json_object;
	// for Anthropic the system text says so).
	JSON bool
	// Stream, when set, asks the provider to stream the reply (OpenAI's stream with
	// include_usage, Anthropic's message events) and is handed each piece of text as it
	// arrives, in order, on the caller's goroutine. Complete still returns the whole
	// Response, usage included. Retries happen only before the first piece: text already
	// handed out cannot be taken back, so a stream that breaks after it fails the call.
	Stream func(text string)
}

// Response is a completion with the provider-reported usage.
type Response struct {
	Text         string
	InputTokens  int
	OutputTokens int
	Model        string // the model that answered, as the provider names it
	StopReason   string // "stop"/"end_turn", "length"/"max_tokens", ...
}

// Client completes prompts. Implementations are safe for concurrent use.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// ErrCircuitOpen is the cause of a call refused without calling the provider while the
// circuit breaker is open.
var ErrCircuitOpen = remote.ErrCircuitOpen

// ErrTimeout is the cause of an attempt that ran out of Config.Timeout while the caller's
// context was still live. It is its own sentinel, not context.DeadlineExceeded, so that a
// caller testing for its own deadline is never misled by ours; such errors are Retryable.
var ErrTimeout = remote.ErrTimeout

// Error is a failed provider call: its Status, RetryAfter and whether it is Retryable (408,
// 409, 429, 5xx, transport errors and per-attempt timeouts); its message never holds the key.
type Error = remote.Error
