package embedding

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/circuit/circuittest"
	"svc/internal/embedding/embedtest"
)

func TestEmbedReturnsVectorsInInputOrder(t *testing.T) {
	t.Parallel()
	input := []string{"How do I get a refund?", "Versandkosten nach Österreich", "Kargo ne zaman gelir?", "opening hours"}
	for _, provider := range embedProviders {
		for _, reverse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/reverse=%v", provider, reverse), func(t *testing.T) {
				t.Parallel()
				fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
				fake.Push(embedtest.Fault{Reverse: reverse})
				c := newEmbedder(t, fake, provider, circuittest.NewClock(), nil)
				res, err := c.Embed(context.Background(), input, Document)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Vectors) != len(input) || res.Dim != embedtest.Dim || res.Model != "fake-embed" {
					t.Fatalf("%d vectors of %d dimensions, model %q", len(res.Vectors), res.Dim, res.Model)
				}
				for i, text := range input {
					if cos := embedtest.Cosine(res.Vectors[i], fake.Vector(text)); cos < 0.9999 {
						t.Errorf("vector %d is not %q's (cosine %.3f)", i, text, cos)
					}
				}
				if res.Tokens <= 0 || res.TokensEstimated {
					t.Errorf("tokens %d (estimated %v), want the provider's count", res.Tokens, res.TokensEstimated)
				}
			})
		}
	}
}

func TestEmbedSendsTheWireProtocol(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider string
		body     string // a fragment the request body must hold
	}{
		{ProviderOpenAI, `"encoding_format":"float"`},
		{ProviderOllama, `"input":["query: refund"]`},
	}
	for _, tc := range tests {
		t.Run(tc.provider, func(t *testing.T) {
			t.Parallel()
			fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
			c := newEmbedder(t, fake, tc.provider, circuittest.NewClock(), func(cfg *Config) {
				cfg.QueryPrefix, cfg.DocumentPrefix = "query: ", "passage: "
			})
			if _, err := c.Embed(context.Background(), []string{"refund"}, Query); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Embed(context.Background(), []string{"refund"}, Document); err != nil {
				t.Fatal(err)
			}
			calls := fake.Calls()
			if len(calls) != 2 || calls[0].Protocol != tc.provider || calls[0].Model != "fake-embed" {
				t.Fatalf("calls %+v", calls)
			}
			if !slices.Equal(calls[0].Input, []string{"query: refund"}) || !slices.Equal(calls[1].Input, []string{"passage: refund"}) {
				t.Errorf("inputs %q and %q, want the kinds' prefixes", calls[0].Input, calls[1].Input)
			}
			if got := calls[0].Header.Get("Authorization"); got != "Bearer "+testKey {
				t.Errorf("Authorization %q", got)
			}
			if !strings.Contains(string(calls[0].Body), tc.body) {
				t.Errorf("body %s lacks %s", calls[0].Body, tc.body)
			}
		})
	}
}

func TestEmbedWithoutKeySendsNoAuthorization(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{})
	c := newEmbedder(t, fake, ProviderOllama, circuittest.NewClock(), func(cfg *Config) { cfg.APIKey = "" })
	if _, err := c.Embed(context.Background(), []string{"hi there"}, Query); err != nil {
		t.Fatal(err)
	}
	if h := fake.Calls()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("Authorization %q sent without a key", h.Get("Authorization"))
	}
}

func TestEmbedBatches(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 500)
	tests := []struct {
		name       string
		texts      []string
		batchSize  int
		batchChars int
		want       []int // texts per call
	}{
		{"by count", texts(150, "refund"), 64, 0, []int{64, 64, 22}},
		{"exactly one batch", texts(64, "refund"), 64, 0, []int{64}},
		{"by characters", []string{long, long, long, long, long}, 64, 1200, []int{2, 2, 1}},
		{"a text longer than the bound goes alone", []string{"a b", long, "c d"}, 64, 100, []int{1, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
			c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), func(cfg *Config) {
				cfg.BatchSize, cfg.BatchChars = tc.batchSize, tc.batchChars
			})
			res, err := c.Embed(context.Background(), tc.texts, Document)
			if err != nil {
				t.Fatal(err)
			}
			var sizes []int
			var sent []string
			for _, call := range fake.Calls() {
				sizes = append(sizes, len(call.Input))
				sent = append(sent, call.Input...)
			}
			if !slices.Equal(sizes, tc.want) || !slices.Equal(sent, tc.texts) {
				t.Errorf("batches %v, want %v (texts in order: %v)", sizes, tc.want, slices.Equal(sent, tc.texts))
			}
			if len(res.Vectors) != len(tc.texts) {
				t.Errorf("%d vectors for %d texts", len(res.Vectors), len(tc.texts))
			}
			for i, text := range tc.texts {
				if embedtest.Cosine(res.Vectors[i], fake.Vector(text)) < 0.9999 {
					t.Fatalf("vector %d is not its text's", i)
				}
			}
		})
	}
}

func TestEmbedRetriesHonouringRetryAfter(t *testing.T) {
	t.Parallel()
	eachProvider(t, embedProviders, func(t *testing.T, provider string, fake *embedtest.Server) {
		fake.Push(embedtest.Fault{Status: 429, RetryAfter: "2"}, embedtest.Fault{Status: 503})
		clk := circuittest.NewClock()
		c := newEmbedder(t, fake, provider, clk, nil)
		res, err := c.Embed(context.Background(), []string{"refund"}, Query)
		if err != nil || len(res.Vectors) != 1 {
			t.Fatalf("Embed: %v", err)
		}
		// The header's 2 s, then the first backoff step (the fake jitter takes the top).
		if got := clk.Slept(); !slices.Equal(got, []time.Duration{2 * time.Second, time.Second}) {
			t.Errorf("slept %v", got)
		}
		if n := fake.CallCount(); n != 3 {
			t.Errorf("%d calls, want 3", n)
		}
	})
}

func TestEmbedErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		faults      []embedtest.Fault
		texts       []string
		kind        Kind
		retries     int
		wantCalls   int
		wantStatus  int
		unavailable bool
		cause       error // errors.Is, when not nil
	}{
		{"retries run out", []embedtest.Fault{{Status: 503}, {Status: 502}, {Status: 500}}, []string{"a"}, Query, 2, 3, 500, true, nil},
		{"400 is not retried", []embedtest.Fault{{Status: 400, Message: "input too long"}}, []string{"a"}, Query, 2, 1, 400, false, nil},
		{"404 unknown model", []embedtest.Fault{{Status: 404, Message: `model "x" not found`}}, []string{"a"}, Query, 2, 1, 404, false, nil},
		{"malformed JSON is not retried", []embedtest.Fault{{Body: `{"data":[`}}, []string{"a"}, Query, 2, 1, 0, false, nil},
		{"a vector missing", []embedtest.Fault{{Missing: true}}, []string{"a", "b"}, Query, 2, 1, 0, false, ErrBadResponse},
		{"a zero vector", []embedtest.Fault{{ZeroVector: true}}, []string{"a"}, Query, 2, 1, 0, false, ErrBadVector},
		{"an empty vector", []embedtest.Fault{{Body: `{"data":[{"index":0,"embedding":[]}]}`}}, []string{"a"}, Query, 2, 1, 0, false, ErrBadVector},
		{"an index repeated", []embedtest.Fault{{Body: `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`}}, []string{"a", "b"}, Query, 2, 1, 0, false, ErrBadResponse},
		{"an index out of range", []embedtest.Fault{{Body: `{"data":[{"index":3,"embedding":[1]}]}`}}, []string{"a"}, Query, 2, 1, 0, false, ErrBadResponse},
		{"vectors of two dimensions in one answer", []embedtest.Fault{{Body: `{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[1]}]}`}}, []string{"a", "b"}, Query, 2, 1, 0, false, ErrDimensionMismatch},
		{"an empty text never reaches the provider", nil, []string{"a", " \n"}, Query, 2, 0, 0, false, ErrEmptyText},
		{"an unknown kind", nil, []string{"a"}, Kind(7), 2, 0, 0, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
			fake.Push(tc.faults...)
			c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), func(cfg *Config) { cfg.MaxRetries = tc.retries })
			_, err := c.Embed(context.Background(), tc.texts, tc.kind)
			expectFailure(t, err, fake, failure{ProviderOpenAI, tc.wantStatus, tc.unavailable, tc.cause, tc.wantCalls})
		})
	}
}

func TestEmbedOpenAIWithoutIndexesReadsInOrder(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{})
	fake.Push(embedtest.Fault{Body: `{"data":[{"embedding":[1,0]},{"embedding":[0,1]}]}`})
	c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), nil)
	res, err := c.Embed(context.Background(), []string{"a", "b"}, Document)
	if err != nil || !slices.Equal(res.Vectors[0], []float32{1, 0}) || !slices.Equal(res.Vectors[1], []float32{0, 1}) {
		t.Fatalf("vectors %v, err %v", res.Vectors, err)
	}
}

func TestEmbedDimensionIsLockedByTheFirstAnswer(t *testing.T) {
	t.Parallel()
	eachProvider(t, embedProviders, func(t *testing.T, provider string, fake *embedtest.Server) {
		c := newEmbedder(t, fake, provider, circuittest.NewClock(), nil)
		ctx := context.Background()
		if res, err := c.Embed(ctx, []string{"refund"}, Document); err != nil || res.Dim != embedtest.Dim {
			t.Fatalf("first: dim %d, %v", res.Dim, err)
		}
		fake.Push(embedtest.Fault{Dim: 128}) // the model behind the endpoint changed
		res, err := c.Embed(ctx, []string{"shipping"}, Document)
		if !errors.Is(err, ErrDimensionMismatch) || errors.Is(err, ErrUnavailable) || len(res.Vectors) != 0 {
			t.Fatalf("err %v with %d vectors, want ErrDimensionMismatch and nothing to store", err, len(res.Vectors))
		}
		if res.Dim != embedtest.Dim {
			t.Errorf("Dim %d, want the locked %d", res.Dim, embedtest.Dim)
		}
		if _, err := c.Embed(ctx, []string{"shipping"}, Document); err != nil {
			t.Errorf("the right dimension again: %v", err)
		}
	})
	t.Run("ExpectDim", func(t *testing.T) {
		t.Parallel()
		fake := embedtest.Start(t, embedtest.Options{})
		c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), func(cfg *Config) { cfg.ExpectDim = 1024 })
		if _, err := c.Embed(context.Background(), []string{"refund"}, Query); !errors.Is(err, ErrDimensionMismatch) {
			t.Errorf("err %v, want ErrDimensionMismatch against ExpectDim", err)
		}
	})
}

func TestEmbedKeepsWhatWasEmbeddedBeforeAFailure(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
	fake.Push(embedtest.Fault{}, embedtest.Fault{Status: 400})
	c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), func(cfg *Config) { cfg.BatchSize = 2 })
	in := texts(5, "delivery")
	res, err := c.Embed(context.Background(), in, Document)
	if asError(t, err).Status != 400 {
		t.Fatalf("err %v", err)
	}
	if len(res.Vectors) != 2 || res.Tokens <= 0 || embedtest.Cosine(res.Vectors[1], fake.Vector(in[1])) < 0.9999 {
		t.Errorf("kept %d vectors and %d tokens, want the first batch's", len(res.Vectors), res.Tokens)
	}
}

func TestEmbedEstimatesTokensTheProviderDidNotReport(t *testing.T) {
	t.Parallel()
	eachProvider(t, embedProviders, func(t *testing.T, provider string, fake *embedtest.Server) {
		fake.Push(embedtest.Fault{NoUsage: true})
		c := newEmbedder(t, fake, provider, circuittest.NewClock(), nil)
		res, err := c.Embed(context.Background(), []string{"Where is my parcel?"}, Query)
		if err != nil {
			t.Fatal(err)
		}
		// o200k_base: "Where", " is", " my", " parcel", "?".
		if res.Tokens != 5 || !res.TokensEstimated {
			t.Errorf("tokens %d (estimated %v), want the o200k count 5", res.Tokens, res.TokensEstimated)
		}
	})
}

func TestBreakerOpensAndHalfOpens(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
	fake.SetDefault(embedtest.Fault{Status: 503})
	clk := circuittest.NewClock()
	c := newEmbedder(t, fake, ProviderOllama, clk, func(cfg *Config) {
		cfg.MaxRetries, cfg.BreakerFailures, cfg.BreakerCooldown = 1, 3, time.Minute
	})
	ctx := context.Background()
	for i := range 3 {
		if _, err := c.Embed(ctx, []string{"refund"}, Query); asError(t, err).Status != 503 {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if n := fake.CallCount(); n != 6 {
		t.Fatalf("%d attempts, want 6: the breaker counts calls, not attempts", n)
	}
	_, err := c.Embed(ctx, []string{"refund"}, Query)
	if !errors.Is(err, ErrCircuitOpen) || !errors.Is(err, ErrUnavailable) || asError(t, err).RetryAfter != time.Minute {
		t.Fatalf("err %v, want the open breaker's refusal", err)
	}
	if n := fake.CallCount(); n != 6 {
		t.Fatalf("the open breaker let a call through: %d attempts", n)
	}
	// After the cooldown one probe goes through; the provider is back, so it closes.
	clk.Advance(time.Minute)
	fake.SetDefault(embedtest.Fault{})
	if _, err := c.Embed(ctx, []string{"refund"}, Query); err != nil {
		t.Fatalf("probe: %v", err)
	}
	for range 3 {
		if _, err := c.Embed(ctx, []string{"refund"}, Query); err != nil {
			t.Fatalf("closed breaker: %v", err)
		}
	}
	if n := fake.CallCount(); n != 10 {
		t.Errorf("%d attempts, want 10", n)
	}
}

func TestBreakerIgnoresBadRequests(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
	fake.SetDefault(embedtest.Fault{Status: 400})
	c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), func(cfg *Config) { cfg.BreakerFailures = 2 })
	for range 5 {
		if _, err := c.Embed(context.Background(), []string{"a"}, Query); errors.Is(err, ErrCircuitOpen) {
			t.Fatal("bad requests opened the breaker")
		}
	}
}

func TestTimeoutIsUnavailableWithinBoundedTime(t *testing.T) {
	t.Parallel()
	eachProvider(t, embedProviders, func(t *testing.T, provider string, fake *embedtest.Server) {
		fake.SetDefault(embedtest.Fault{Delay: time.Minute}) // hangs
		c := newEmbedder(t, fake, provider, circuittest.NewClock(), func(cfg *Config) {
			cfg.Timeout, cfg.MaxRetries = 100*time.Millisecond, 2
		})
		start := time.Now()
		_, err := c.Embed(context.Background(), []string{"refund"}, Query)
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err %v, want a timeout that is ErrUnavailable and not the caller's deadline", err)
		}
		// Three attempts of 100 ms; the backoff waits are the fake clock's.
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v", d)
		}
		if n := fake.CallCount(); n != 3 {
			t.Errorf("%d attempts, want 3", n)
		}
	})
}

func TestCallerDeadlineEndsTheRetries(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{})
	fake.SetDefault(embedtest.Fault{Status: 429, RetryAfter: "20"})
	clk := circuittest.NewClock()
	c := newEmbedder(t, fake, ProviderOpenAI, clk, func(cfg *Config) { cfg.MaxRetries = 5 })
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(5*time.Second))
	defer cancel()
	_, err := c.Embed(ctx, []string{"refund"}, Query)
	if e := asError(t, err); e.Status != 429 || !errors.Is(err, ErrUnavailable) || fake.CallCount() != 1 || len(clk.Slept()) != 0 {
		t.Errorf("err %v after %d calls and sleeps %v, want the 429 at once", err, fake.CallCount(), clk.Slept())
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{APIKey: "another-key"})
	c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), nil)
	_, err := c.Embed(context.Background(), []string{"a"}, Query)
	if e := asError(t, err); e.Status != 401 || strings.Contains(err.Error(), testKey) || errors.Is(err, ErrUnavailable) {
		t.Errorf("err %v", err)
	}
}

func TestEmbedNoTextsCallsNothing(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{})
	c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), nil)
	if res, err := c.Embed(context.Background(), nil, Document); err != nil || len(res.Vectors) != 0 || fake.CallCount() != 0 {
		t.Errorf("%+v, %v, %d calls", res, err, fake.CallCount())
	}
}
