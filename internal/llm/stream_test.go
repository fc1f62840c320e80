package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"svc/internal/llm/llmtest"
	"svc/internal/remote"
)

// streamAsk is ask with a Stream that collects the pieces.
func streamAsk(text string, pieces *[]string) Request {
	r := ask(text)
	r.Stream = func(s string) { *pieces = append(*pieces, s) }
	return r
}

// A streamed completion hands out the text as the provider writes it and returns what
// Complete returns for the same answer: text, usage, model, stop reason.
func TestStreamDeliversPiecesAndTheSameResponse(t *testing.T) {
	const text = "The Uludağ 2 costs 4.95 EUR. It weighs 2.1 kg!"
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			step := llmtest.Step{Text: text, InputTokens: 31, OutputTokens: 14, TokenInterval: time.Millisecond}
			fake.Push(step, step)
			c := newTestClient(t, fake, provider, newFakeClock(), nil)
			plain, err := c.Complete(context.Background(), ask("price?"))
			if err != nil {
				t.Fatal(err)
			}
			var pieces []string
			got, err := c.Complete(context.Background(), streamAsk("price?", &pieces))
			if err != nil {
				t.Fatal(err)
			}
			if got != plain || got.Text != text || got.InputTokens != 31 || got.OutputTokens != 14 {
				t.Errorf("streamed %+v, unstreamed %+v", got, plain)
			}
			if strings.Join(pieces, "") != text || len(pieces) != len(llmtest.Pieces(text)) || len(pieces) < 10 {
				t.Errorf("pieces %q", pieces)
			}
			calls := fake.Calls()
			if calls[0].Stream || !calls[1].Stream || (provider == ProviderOpenAI && !calls[1].IncludeUsage) {
				t.Errorf("stream flags: %+v / %+v", calls[0], calls[1])
			}
		})
	}
}

// A stream is retried while nothing of it was handed out, never after: the caller may have
// shown the text. The broken stream's error stays Retryable, an outage for the breaker.
func TestStreamRetriesOnlyBeforeTheFirstPiece(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			c := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) {
				cfg.MaxRetries = 2
				cfg.BreakerFailures = 1
				cfg.BreakerCooldown = time.Minute
			})
			fake.Push(llmtest.Step{Status: 503}, llmtest.Step{Text: "Second try works."})
			var pieces []string
			got, err := c.Complete(context.Background(), streamAsk("hi", &pieces))
			if err != nil || got.Text != "Second try works." || fake.CallCount() != 2 || strings.Join(pieces, "") != got.Text {
				t.Fatalf("before the first piece: %+v, %v, %d calls, pieces %q", got, err, fake.CallCount(), pieces)
			}

			fake.Push(llmtest.Step{Text: "Half of a reply that breaks.", CutAfter: 3}, llmtest.Step{Text: "never asked"})
			pieces = nil
			_, err = c.Complete(context.Background(), streamAsk("hi", &pieces))
			e := asError(t, err)
			if !e.Retryable || !errors.Is(err, remote.ErrUnavailable) || fake.CallCount() != 3 || len(pieces) != 3 {
				t.Fatalf("after the first piece: %v (%+v), %d calls, pieces %q", err, e, fake.CallCount(), pieces)
			}
			// One failed call opens this breaker: the broken stream counted.
			if _, err := c.Complete(context.Background(), streamAsk("hi", &pieces)); !errors.Is(err, ErrCircuitOpen) {
				t.Fatalf("breaker: %v", err)
			}
		})
	}
}

// An error the provider sends inside the stream fails the call with its message and a
// status judged like an error answer's.
func TestStreamErrorEvent(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			c := newTestClient(t, fake, provider, newFakeClock(), nil)
			fake.Push(llmtest.Step{Text: "Some words then trouble.", CutAfter: 2, StreamError: "Overloaded"})
			var pieces []string
			_, err := c.Complete(context.Background(), streamAsk("hi", &pieces))
			e := asError(t, err)
			if !e.Retryable || e.Status < 500 || !strings.Contains(err.Error(), "Overloaded") || len(pieces) != 2 || fake.CallCount() != 1 {
				t.Fatalf("err %v (%+v), pieces %q, %d calls", err, e, pieces, fake.CallCount())
			}
		})
	}
}

// A server that streams no usage still gets the answer charged: the tokens are counted.
func TestStreamWithoutUsageIsCounted(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(llmtest.Step{Text: "Our tents ship within two days.", NoUsage: true})
			c := newTestClient(t, fake, provider, newFakeClock(), nil)
			var pieces []string
			got, err := c.Complete(context.Background(), streamAsk("When do tents ship?", &pieces))
			if err != nil || got.InputTokens < 4 || got.OutputTokens != 7 {
				t.Fatalf("%+v, %v", got, err)
			}
		})
	}
}

// The attempt's timeout bounds a stream as it bounds an answer; after the first piece it is
// not retried.
func TestStreamAttemptTimeout(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(llmtest.Step{Text: "slow words keep coming", TokenInterval: 5 * time.Second})
			c := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) {
				cfg.Timeout = 100 * time.Millisecond
				cfg.MaxRetries = 2
			})
			var pieces []string
			_, err := c.Complete(context.Background(), streamAsk("hi", &pieces))
			if e := asError(t, err); !errors.Is(err, ErrTimeout) || !e.Retryable || len(pieces) != 1 || fake.CallCount() != 1 {
				t.Fatalf("err %v, pieces %q, %d calls", err, pieces, fake.CallCount())
			}
		})
	}
}
