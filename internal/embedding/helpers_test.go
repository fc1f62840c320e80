package embedding

import (
	"errors"
	"testing"
	"time"

	"svc/internal/circuit/circuittest"
	"svc/internal/embedding/embedtest"
)

const testKey = "sk-embed-test-0123456789"

var embedProviders = []string{ProviderOpenAI, ProviderOllama}

// baseURL is where the embedding client of provider finds the fake.
func baseURL(fake *embedtest.Server, provider string) string {
	switch provider {
	case ProviderOllama:
		return fake.OllamaBaseURL()
	case RerankTEI:
		return fake.TEIBaseURL()
	case RerankCohere:
		return fake.CohereBaseURL()
	}
	return fake.OpenAIBaseURL()
}

// newEmbedder builds the full stack against the fake with the fake clock; tweak adjusts the
// Config before it is built.
func newEmbedder(t *testing.T, fake *embedtest.Server, provider string, clk *circuittest.Clock, tweak func(*Config)) *client {
	t.Helper()
	cfg := Config{Provider: provider, Endpoint: Endpoint{BaseURL: baseURL(fake, provider), APIKey: testKey, Model: "fake-embed",
		Timeout: 5 * time.Second, MaxRetries: 2}}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := build(cfg, clk.Clock())
	if err != nil || c == nil {
		t.Fatalf("build: %v", err)
	}
	return c
}

// newReranker is newEmbedder for rerankers.
func newReranker(t *testing.T, fake *embedtest.Server, provider string, clk *circuittest.Clock, tweak func(*RerankConfig)) *reranker {
	t.Helper()
	cfg := RerankConfig{Provider: provider, Endpoint: Endpoint{BaseURL: baseURL(fake, provider), APIKey: testKey, Model: "fake-rerank",
		Timeout: 5 * time.Second, MaxRetries: 2}}
	if tweak != nil {
		tweak(&cfg)
	}
	r, err := buildReranker(cfg, clk.Clock())
	if err != nil || r == nil {
		t.Fatalf("buildReranker: %v", err)
	}
	return r
}

// asError insists err is an *Error and returns it.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *embedding.Error", err, err)
	}
	return e
}

// texts makes n distinct texts.
func texts(n int, word string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = word + " " + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
	}
	return out
}

// failure is what a test expects of a failed call.
type failure struct {
	provider    string
	status      int
	unavailable bool
	cause       error // errors.Is, when not nil
	calls       int   // that reached the fake
}

// expectFailure checks err and the fake's count against want.
func expectFailure(t *testing.T, err error, fake *embedtest.Server, want failure) {
	t.Helper()
	e := asError(t, err)
	if e.Status != want.status || errors.Is(err, ErrUnavailable) != want.unavailable || e.Provider != want.provider {
		t.Errorf("err %v: status %d, unavailable %v; want %d, %v", err, e.Status, errors.Is(err, ErrUnavailable), want.status, want.unavailable)
	}
	if want.cause != nil && !errors.Is(err, want.cause) {
		t.Errorf("err %v, want %v", err, want.cause)
	}
	if n := fake.CallCount(); n != want.calls {
		t.Errorf("%d calls, want %d", n, want.calls)
	}
}

// eachProvider runs test in parallel for every provider, each with a fake of its own that
// wants testKey.
func eachProvider(t *testing.T, providers []string, test func(t *testing.T, provider string, fake *embedtest.Server)) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			test(t, provider, embedtest.Start(t, embedtest.Options{APIKey: testKey}))
		})
	}
}
