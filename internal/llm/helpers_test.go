package llm

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"svc/internal/llm/llmtest"
)

const testKey = "sk-test-0123456789abcdef"

// fakeClock stands in for time in the retrier and the breaker: sleeping is recorded and
// advances the clock instantly, and jitter always picks the top of its range so waits are
// predictable.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
	limits []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Now()} }

func (f *fakeClock) clock() clock {
	return clock{now: f.now, sleep: f.sleep, jitter: f.jitter}
}

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.t = f.t.Add(d)
	return nil
}

func (f *fakeClock) jitter(limit time.Duration) time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limits = append(f.limits, limit)
	return limit
}

func (f *fakeClock) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func (f *fakeClock) slept() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// baseURL is where each provider's client finds the fake.
func baseURL(fake *llmtest.Server, provider string) string {
	if provider == ProviderAnthropic {
		return fake.AnthropicBaseURL()
	}
	return fake.OpenAIBaseURL()
}

// newTestClient builds the full stack (provider, retries, breaker) against the fake, with the
// fake clock. tweak adjusts the Config before it is built.
func newTestClient(t *testing.T, fake *llmtest.Server, provider string, clk *fakeClock, tweak func(*Config)) Client {
	t.Helper()
	cfg := Config{Provider: provider, BaseURL: baseURL(fake, provider), APIKey: testKey, Timeout: 5 * time.Second, MaxRetries: 2}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := build(cfg, clk.clock())
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
