package llm

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"svc/internal/circuit"
	"svc/internal/llm/llmtest"
)

func TestRetryHonoursRetryAfter(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(llmtest.Step{Status: 429, RetryAfter: "1"}, llmtest.Step{Text: "after the wait"})
			clk := newFakeClock()
			c := newTestClient(t, fake, provider, clk, nil)
			resp, err := c.Complete(context.Background(), ask("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "after the wait" {
				t.Errorf("text %q", resp.Text)
			}
			if got := clk.Slept(); !slices.Equal(got, []time.Duration{time.Second}) {
				t.Errorf("slept %v, want [1s] as the header said", got)
			}
			if n := fake.CallCount(); n != 2 {
				t.Errorf("%d calls, want 2", n)
			}
		})
	}
}

func TestRetryServerErrorsWithBackoff(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(llmtest.Step{Status: 500}, llmtest.Step{Status: 503}, llmtest.Step{Text: "third time"})
			clk := newFakeClock()
			c := newTestClient(t, fake, provider, clk, nil) // default: 2 retries
			resp, err := c.Complete(context.Background(), ask("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "third time" || fake.CallCount() != 3 {
				t.Errorf("text %q after %d calls", resp.Text, fake.CallCount())
			}
			// The fake jitter picks the top of the range: 500ms, then 1s.
			if got := clk.Slept(); !slices.Equal(got, []time.Duration{500 * time.Millisecond, time.Second}) {
				t.Errorf("slept %v", got)
			}
		})
	}
}

func TestRetryGivesUp(t *testing.T) {
	tests := []struct {
		name       string
		maxRetries int
		steps      []llmtest.Step
		wantCalls  int
		wantStatus int
		retryable  bool
	}{
		{"400 is not retried", 2, []llmtest.Step{{Status: 400}, {Text: "never"}}, 1, 400, false},
		{"401 is not retried", 2, []llmtest.Step{{Status: 401}, {Text: "never"}}, 1, 401, false},
		{"404 is not retried", 2, []llmtest.Step{{Status: 404}, {Text: "never"}}, 1, 404, false},
		{"retries run out", 2, []llmtest.Step{{Status: 503}, {Status: 503}, {Status: 529}, {Text: "never"}}, 3, 529, true},
		{"negative MaxRetries means one attempt", -1, []llmtest.Step{{Status: 500}, {Text: "never"}}, 1, 500, true},
	}
	for _, provider := range providers {
		for _, tc := range tests {
			t.Run(provider+"/"+tc.name, func(t *testing.T) {
				fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
				fake.Push(tc.steps...)
				c := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) { cfg.MaxRetries = tc.maxRetries })
				_, err := c.Complete(context.Background(), ask("hi"))
				e := asError(t, err)
				if e.Status != tc.wantStatus || e.Retryable != tc.retryable || e.Provider != provider {
					t.Errorf("err %+v", e)
				}
				if n := fake.CallCount(); n != tc.wantCalls {
					t.Errorf("%d calls, want %d", n, tc.wantCalls)
				}
			})
		}
	}
}

func TestAttemptTimeoutIsRetryable(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(llmtest.Step{Delay: 5 * time.Second, Text: "too late"})
			c := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) {
				cfg.Timeout = 100 * time.Millisecond
				cfg.MaxRetries = -1
			})
			_, err := c.Complete(context.Background(), ask("hi"))
			e := asError(t, err)
			if !e.Retryable || e.Status != 0 || !errors.Is(err, ErrTimeout) {
				t.Errorf("err %v (%+v), want a retryable ErrTimeout", err, e)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Error("a per-attempt timeout must not look like the caller's deadline")
			}
			// With a retry allowed, the next attempt gets the quick answer.
			fake.Push(llmtest.Step{Delay: 5 * time.Second}, llmtest.Step{Text: "quick"})
			retrying := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) {
				cfg.Timeout = 100 * time.Millisecond
				cfg.MaxRetries = 1
			})
			resp, err := retrying.Complete(context.Background(), ask("hi"))
			if err != nil || resp.Text != "quick" || fake.CallCount() != 3 {
				t.Errorf("after retry: %q, %v, %d calls in all (want 3)", resp.Text, err, fake.CallCount())
			}
		})
	}
}

func TestCallerCancellationIsNotRetried(t *testing.T) {
	tests := []struct {
		name string
		ctx  func(arrived <-chan struct{}) (context.Context, context.CancelFunc)
		want error
	}{
		{"cancel", func(arrived <-chan struct{}) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-arrived; cancel() }()
			return ctx, cancel
		}, context.Canceled},
		{"deadline", func(<-chan struct{}) (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 150*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, provider := range providers {
		for _, tc := range tests {
			t.Run(provider+"/"+tc.name, func(t *testing.T) {
				arrived := make(chan struct{}, 10)
				fake := llmtest.Start(t, llmtest.Options{APIKey: testKey, Script: func(llmtest.Call) llmtest.Step {
					arrived <- struct{}{}
					return llmtest.Step{Delay: 10 * time.Second}
				}})
				clk := newFakeClock()
				c := newTestClient(t, fake, provider, clk, nil)
				ctx, cancel := tc.ctx(arrived)
				defer cancel()
				_, err := c.Complete(ctx, ask("hi"))
				if !errors.Is(err, tc.want) {
					t.Fatalf("err %v, want %v", err, tc.want)
				}
				if e := asError(t, err); e.Retryable {
					t.Error("caller cancellation marked retryable")
				}
				if n := fake.CallCount(); n != 1 || len(clk.Slept()) != 0 {
					t.Errorf("%d calls and sleeps %v, want one call and no retry", n, clk.Slept())
				}
			})
		}
	}
}

func TestRetryStopsWhenTheWaitPassesTheDeadline(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
	fake.Push(llmtest.Step{Status: 429, RetryAfter: "20"}, llmtest.Step{Text: "never"})
	clk := newFakeClock()
	c := newTestClient(t, fake, ProviderOpenAI, clk, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.Complete(ctx, ask("hi"))
	e := asError(t, err)
	if e.Status != 429 || e.RetryAfter != 20*time.Second {
		t.Errorf("err %+v, want the provider's 429 at once", e)
	}
	if len(clk.Slept()) != 0 || fake.CallCount() != 1 || time.Since(start) > 2*time.Second {
		t.Errorf("slept %v, %d calls", clk.Slept(), fake.CallCount())
	}
}

func TestRetryWaitIsCancelledWithTheCaller(t *testing.T) {
	// A real sleep this time: the caller gives up during the backoff.
	fail := clientFunc(func(context.Context, Request) (Response, error) {
		return Response{}, &Error{Provider: "p", Status: 503, Retryable: true, RetryAfter: 10 * time.Second}
	})
	r := newRetrier(fail, "p", 3, circuit.RealClock())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := r.Complete(ctx, ask("hi"))
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %v", err, time.Since(start))
	}
}

// clientFunc adapts a function to Client.
type clientFunc func(context.Context, Request) (Response, error)

func (f clientFunc) Complete(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }
