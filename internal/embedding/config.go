package embedding

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"svc/internal/circuit"
	"svc/internal/remote"
)

// Embedding providers, by wire protocol.
const (
	ProviderNone   = "none"   // no semantic retrieval: New returns a nil Embedder
	ProviderOpenAI = "openai" // POST {base}/embeddings
	ProviderOllama = "ollama" // POST {base}/api/embed
)

// Rerank providers, by wire protocol.
const (
	RerankNone   = "none"   // no reranking: NewReranker returns a nil Reranker
	RerankTEI    = "tei"    // Hugging Face text-embeddings-inference, POST {base}/rerank
	RerankCohere = "cohere" // Cohere and Jina, POST {base}/rerank with a model
)

// Defaults of the zero Config and RerankConfig fields.
const (
	DefaultTimeout = 30 * time.Second
	// DefaultRerankTimeout is shorter: a rerank happens inside a visitor's request.
	DefaultRerankTimeout = 10 * time.Second
	// DefaultMaxRetries is the service's number of retries (config passes it); a zero
	// MaxRetries here means none, so that "no retry" can be said.
	DefaultMaxRetries = 2
	DefaultBatchSize  = 64
	// MaxBatchSize keeps a batch's answer within remote.MaxResponseBytes even for models of
	// 4,096 dimensions.
	MaxBatchSize = 256
	// DefaultBatchChars bounds the characters of one batch's texts: about 30k tokens, far
	// below OpenAI's 300k tokens a request, and a request body under half a megabyte.
	DefaultBatchChars = 120_000
	// DefaultRerankBatchSize is TEI's default --max-client-batch-size: more documents are
	// sent in several calls.
	DefaultRerankBatchSize = 32
	MaxRerankBatchSize     = 1000
	DefaultBreakerFailures = 5
	DefaultBreakerCooldown = 30 * time.Second
)

// Endpoint is what embedding and rerank settings share: where the provider is, the
// credential, the model, and how hard to try it.
type Endpoint struct {
	// BaseURL is required with a provider: "https://api.openai.com/v1",
	// "http://localhost:11434" (Ollama), "http://vllm:8000/v1"; "http://tei:8080",
	// "https://api.cohere.com/v2", "https://api.jina.ai/v1" for rerankers.
	BaseURL string
	// APIKey is sent as a Bearer token when not empty; local servers want none.
	APIKey string
	// Model is required for embeddings, where it also labels every vector made, and by
	// RerankCohere; TEI serves one model and is not told it (it only names it in logs).
	Model string
	// Timeout bounds one attempt (the caller's context bounds the call); MaxRetries counts
	// the attempts after the first, as given (0 or less: none); BreakerFailures calls failed
	// in a row, retries and all, open the breaker for BreakerCooldown, then one probe goes.
	// HTTPClient is optional: the default has no overall timeout of its own.
	Timeout         time.Duration
	MaxRetries      int
	BreakerFailures int
	BreakerCooldown time.Duration
	HTTPClient      *http.Client
}

// Config selects an embedding provider and how hard to try it. Fields left zero take their
// defaults, except MaxRetries.
type Config struct {
	Provider string // ProviderNone (or ""), ProviderOpenAI or ProviderOllama
	Endpoint
	// QueryPrefix and DocumentPrefix are put before every text of their Kind, for models
	// trained with them ("query: " and "passage: " for e5, "search_query: " and
	// "search_document: " for nomic-embed). Empty for most models.
	QueryPrefix, DocumentPrefix string
	// BatchSize bounds the texts of one request (1 to MaxBatchSize), BatchChars their
	// characters; a single longer text is sent alone.
	BatchSize, BatchChars int
	// ExpectDim, when not 0, is the dimension every answer must have (the stored vectors'),
	// checked from the first answer on; 0 takes the first answer's.
	ExpectDim int
}

// RerankConfig selects a rerank provider and how hard to try it. Fields left zero take their
// defaults, except MaxRetries.
type RerankConfig struct {
	Provider string // RerankNone (or ""), RerankTEI or RerankCohere
	Endpoint
	// BatchSize bounds the documents of one request (1 to MaxRerankBatchSize).
	BatchSize int
}

// ConfigError is a setting that is wrong. Field names the Config or RerankConfig field
// ("Provider", "BaseURL", "Model", "BatchSize", "BatchChars", "ExpectDim"), so that the
// configuration layer can name its own setting; the message never quotes a URL or a key.
type ConfigError struct {
	Field   string
	Problem string
}

func (e *ConfigError) Error() string { return "embedding: " + e.Field + " " + e.Problem }

// normalize validates e for provider and fills in its defaults.
func (e *Endpoint) normalize(provider string, defaultTimeout time.Duration, needModel bool) error {
	// Keys pasted into environment files often carry a trailing newline; no key has spaces.
	e.BaseURL, e.APIKey, e.Model = strings.TrimSpace(e.BaseURL), strings.TrimSpace(e.APIKey), strings.TrimSpace(e.Model)
	if e.BaseURL == "" {
		return &ConfigError{"BaseURL", "is required with provider " + provider}
	}
	if err := remote.CheckBaseURL(e.BaseURL); err != nil {
		return &ConfigError{"BaseURL", "is wrong: " + err.Error()}
	}
	if needModel && e.Model == "" {
		return &ConfigError{"Model", "is required with provider " + provider}
	}
	e.Timeout = positiveOr(e.Timeout, defaultTimeout)
	e.MaxRetries = max(e.MaxRetries, 0)
	e.BreakerFailures = positiveOr(e.BreakerFailures, DefaultBreakerFailures)
	e.BreakerCooldown = positiveOr(e.BreakerCooldown, DefaultBreakerCooldown)
	if e.HTTPClient == nil {
		e.HTTPClient = remote.DefaultHTTPClient()
	}
	return nil
}

func positiveOr[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// guard is one endpoint of a provider behind retries and a breaker: one call counts once for
// the breaker however many attempts it took.
type guard struct {
	post    *remote.Endpoint
	api     string
	name    string
	breaker *circuit.Breaker
	retry   circuit.Retry
}

func (e *Endpoint) guard(api, provider, path string, clk circuit.Clock) *guard {
	header := http.Header{}
	if e.APIKey != "" {
		header.Set("Authorization", "Bearer "+e.APIKey)
	}
	return &guard{
		post: remote.NewEndpoint(remote.Options{API: api, Provider: provider, Client: e.HTTPClient, BaseURL: e.BaseURL,
			Path: path, Header: header, Secret: e.APIKey, Timeout: e.Timeout, Now: clk.Now, Message: remote.JSONErrorMessage}),
		api:     api,
		name:    provider,
		breaker: circuit.NewBreaker(e.BreakerFailures, e.BreakerCooldown, clk.Now),
		retry: circuit.Retry{MaxRetries: e.MaxRetries, Clock: clk, Stopped: func(ctx context.Context) error {
			return remote.Canceled(api, provider, ctx)
		}},
	}
}

// call runs attempt behind g's breaker and retries.
func call[T any](ctx context.Context, g *guard, attempt func(context.Context) (T, error)) (T, error) {
	return circuit.Call(ctx, g.breaker, func(ctx context.Context) (T, error) {
		return circuit.Do(ctx, g.retry, attempt)
	}, func(wait time.Duration) error {
		return remote.Refused(g.api, g.name, wait)
	})
}

// failed is a check of ours that failed: never retried, never ErrUnavailable.
func (g *guard) failed(format string, args ...any) error {
	return g.post.Failed(fmt.Errorf(format, args...))
}

// Validate reports the first wrong setting of c as a *ConfigError.
func (c Config) Validate() error {
	_, err := c.normalized()
	return err
}

// normalized validates c and fills in the defaults; a Provider of none is ProviderNone.
func (c Config) normalized() (Config, error) {
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	switch c.Provider {
	case "", ProviderNone:
		c.Provider = ProviderNone
		return c, nil
	case ProviderOpenAI, ProviderOllama:
	default:
		return c, &ConfigError{"Provider", fmt.Sprintf("must be %s, %s or %s, not %q", ProviderNone, ProviderOpenAI, ProviderOllama, c.Provider)}
	}
	if err := c.normalize(c.Provider, DefaultTimeout, true); err != nil {
		return c, err
	}
	if c.BatchSize < 0 || c.BatchSize > MaxBatchSize {
		return c, &ConfigError{"BatchSize", fmt.Sprintf("must be from 1 to %d", MaxBatchSize)}
	}
	if c.BatchChars < 0 {
		return c, &ConfigError{"BatchChars", "must be positive"}
	}
	if c.ExpectDim < 0 {
		return c, &ConfigError{"ExpectDim", "must not be negative"}
	}
	c.BatchSize = positiveOr(c.BatchSize, DefaultBatchSize)
	c.BatchChars = positiveOr(c.BatchChars, DefaultBatchChars)
	return c, nil
}

// Validate reports the first wrong setting of c as a *ConfigError.
func (c RerankConfig) Validate() error {
	_, err := c.normalized()
	return err
}

// normalized validates c and fills in the defaults; a Provider of none is RerankNone.
func (c RerankConfig) normalized() (RerankConfig, error) {
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	switch c.Provider {
	case "", RerankNone:
		c.Provider = RerankNone
		return c, nil
	case RerankTEI, RerankCohere:
	default:
		return c, &ConfigError{"Provider", fmt.Sprintf("must be %s, %s or %s, not %q", RerankNone, RerankTEI, RerankCohere, c.Provider)}
	}
	if err := c.normalize(c.Provider, DefaultRerankTimeout, c.Provider == RerankCohere); err != nil {
		return c, err
	}
	if c.BatchSize < 0 || c.BatchSize > MaxRerankBatchSize {
		return c, &ConfigError{"BatchSize", fmt.Sprintf("must be from 1 to %d", MaxRerankBatchSize)}
	}
	c.BatchSize = positiveOr(c.BatchSize, DefaultRerankBatchSize)
	return c, nil
}
