package llm

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/llm/llmtest"
)

func TestBreakerOpensFailsFastAndRecovers(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey, Default: llmtest.Step{Status: 503}})
			clk := newFakeClock()
			c := newTestClient(t, fake, provider, clk, func(cfg *Config) {
				cfg.MaxRetries = 1
				cfg.BreakerFailures = 3
				cfg.BreakerCooldown = time.Minute
			})
			ctx := context.Background()
			// Three calls, each two attempts: the breaker counts calls, not attempts.
			for i := range 3 {
				_, err := c.Complete(ctx, ask("hi"))
				if e := asError(t, err); e.Status != 503 {
					t.Fatalf("call %d: %v", i, err)
				}
			}
			if n := fake.CallCount(); n != 6 {
				t.Fatalf("%d attempts reached the fake, want 6", n)
			}

			_, err := c.Complete(ctx, ask("hi"))
			if !errors.Is(err, ErrCircuitOpen) {
				t.Fatalf("err %v, want ErrCircuitOpen", err)
			}
			if e := asError(t, err); e.Provider != provider || e.RetryAfter != time.Minute || e.Retryable {
				t.Errorf("open error %+v", e)
			}
			if n := fake.CallCount(); n != 6 {
				t.Errorf("open breaker let a call through: %d attempts", n)
			}

			// After the cooldown one probe goes through; it succeeds and closes the breaker.
			clk.Advance(time.Minute)
			fake.SetScript(func(llmtest.Call) llmtest.Step { return llmtest.Step{Text: "back"} })
			resp, err := c.Complete(ctx, ask("hi"))
			if err != nil || resp.Text != "back" {
				t.Fatalf("probe: %q, %v", resp.Text, err)
			}
			for range 3 {
				if _, err := c.Complete(ctx, ask("hi")); err != nil {
					t.Fatalf("closed breaker: %v", err)
				}
			}
			if n := fake.CallCount(); n != 10 {
				t.Errorf("%d attempts, want 10", n)
			}
		})
	}
}

func TestBreakerFailedProbeReopens(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey, Default: llmtest.Step{Status: 500}})
	clk := newFakeClock()
	c := newTestClient(t, fake, ProviderAnthropic, clk, func(cfg *Config) {
		cfg.MaxRetries = -1
		cfg.BreakerFailures = 2
		cfg.BreakerCooldown = 10 * time.Second
	})
	ctx := context.Background()
	for range 2 {
		_, _ = c.Complete(ctx, ask("hi"))
	}
	clk.Advance(10 * time.Second)
	if _, err := c.Complete(ctx, ask("hi")); errors.Is(err, ErrCircuitOpen) || asError(t, err).Status != 500 {
		t.Fatalf("probe: %v", err)
	}
	if _, err := c.Complete(ctx, ask("hi")); !errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("after a failed probe: %v, want the breaker open again", err)
	}
	if n := fake.CallCount(); n != 3 {
		t.Errorf("%d calls, want 3", n)
	}
}

func TestBreakerIgnoresClientErrorsAndCancellation(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey, Default: llmtest.Step{Status: 400}})
	c := newTestClient(t, fake, ProviderOpenAI, newFakeClock(), func(cfg *Config) { cfg.BreakerFailures = 2 })
	for range 5 {
		if _, err := c.Complete(context.Background(), ask("hi")); asError(t, err).Status != 400 {
			t.Fatalf("err %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 3 {
		if _, err := c.Complete(ctx, ask("hi")); !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
	}
	if _, err := c.Complete(context.Background(), ask("hi")); errors.Is(err, ErrCircuitOpen) {
		t.Error("client errors or cancellations opened the breaker")
	}
}

func TestBreakerSuccessResetsTheCount(t *testing.T) {
	var fail atomic.Bool
	next := clientFunc(func(context.Context, Request) (Response, error) {
		if fail.Load() {
			return Response{}, &Error{Provider: "p", Status: 503, Retryable: true}
		}
		return Response{Text: "ok"}, nil
	})
	b := newBreaker(next, "p", 3, time.Minute, newFakeClock().Now)
	ctx := context.Background()
	for _, f := range []bool{true, true, false, true, true, false} {
		fail.Store(f)
		if _, err := b.Complete(ctx, ask("hi")); errors.Is(err, ErrCircuitOpen) {
			t.Fatal("opened without three failures in a row")
		}
	}
}

func TestBreakerLetsOneProbeAtATime(t *testing.T) {
	clk := newFakeClock()
	var calls atomic.Int32
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	next := clientFunc(func(context.Context, Request) (Response, error) {
		if calls.Add(1) == 1 {
			return Response{}, &Error{Provider: "p", Status: 500, Retryable: true}
		}
		entered <- struct{}{}
		<-release
		return Response{Text: "ok"}, nil
	})
	b := newBreaker(next, "p", 1, time.Second, clk.Now)
	ctx := context.Background()
	if _, err := b.Complete(ctx, ask("hi")); err == nil {
		t.Fatal("first call should fail")
	}
	clk.Advance(time.Second)

	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := b.Complete(ctx, ask("probe")); err != nil {
			t.Errorf("probe: %v", err)
		}
	})
	<-entered // the probe is in flight
	const others = 8
	var refused atomic.Int32
	for range others {
		wg.Go(func() {
			if _, err := b.Complete(ctx, ask("hi")); errors.Is(err, ErrCircuitOpen) {
				refused.Add(1)
			}
		})
	}
	// Every other call must be refused while the probe is out; they do not block.
	deadline := time.Now().Add(5 * time.Second)
	for refused.Load() < others && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if refused.Load() != others || calls.Load() != 2 {
		t.Errorf("refused %d of %d, provider calls %d (want 2)", refused.Load(), others, calls.Load())
	}
	if _, err := b.Complete(ctx, ask("hi")); err != nil {
		t.Errorf("after a good probe: %v", err)
	}
}
