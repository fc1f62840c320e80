package llm

import (
	"errors"
	"testing"
	"time"

	"svc/internal/circuit/circuittest"
	"svc/internal/llm/llmtest"
)

const testKey = "sk-test-0123456789abcdef"

// newFakeClock is a clock that never sleeps (circuittest.Clock).
func newFakeClock() *circuittest.Clock { return circuittest.NewClock() }

// baseURL is where each provider's client finds the fake.
func baseURL(fake *llmtest.Server, provider string) string {
	if provider == ProviderAnthropic {
		return fake.AnthropicBaseURL()
	}
	return fake.OpenAIBaseURL()
}

// newTestClient builds the full stack (provider, retries, breaker) against the fake, with the
// fake clock. tweak adjusts the Config before it is built.
func newTestClient(t *testing.T, fake *llmtest.Server, provider string, clk *circuittest.Clock, tweak func(*Config)) Client {
	t.Helper()
	cfg := Config{Provider: provider, BaseURL: baseURL(fake, provider), APIKey: testKey, Timeout: 5 * time.Second, MaxRetries: 2}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := build(cfg, clk.Clock())
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return c
}

// ask is a small valid request.
func ask(text string) Request {
	return Request{Messages: []Message{{Role: RoleUser, Content: text}}, MaxTokens: 64}
}

// asError insists err is an *Error and returns it.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *llm.Error", err, err)
	}
	return e
}

var providers = []string{ProviderOpenAI, ProviderAnthropic}
