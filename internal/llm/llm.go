// Package llm talks to language-model providers: the OpenAI Chat Completions wire protocol
// (OpenAI itself and every server that speaks it: Ollama, vLLM, llama.cpp, LM Studio,
// OpenRouter, Azure-style gateways) and the Anthropic Messages API. It knows nothing of
// knowledge bases or billing: it sends one prompt and reports the text and the tokens the
// provider says it used, which is what the account is charged for.
package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

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

// ErrCircuitOpen is returned without calling the provider while the circuit breaker is open.
var ErrCircuitOpen = errors.New("llm: provider circuit open")

// Error is a failed provider call.
type Error struct {
	Provider   string
	Status     int           // HTTP status; 0 for transport errors and timeouts
	RetryAfter time.Duration // from the Retry-After header, when the provider sent one
	Retryable  bool          // 408, 409, 429, 5xx, transport errors and per-attempt timeouts
	Err        error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("llm %s: status %d: %v", e.Provider, e.Status, e.Err)
	}
	return fmt.Sprintf("llm %s: %v", e.Provider, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }
