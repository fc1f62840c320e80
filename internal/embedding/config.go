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

// Config selects an embedding provider and how hard to try it. Fields left zero take their
// defaults, except MaxRetries.
type Config struct {
	Provider string // ProviderNone (or ""), ProviderOpenAI or ProviderOllama
	// BaseURL is required with a provider: "https://api.openai.com/v1",
	// "http://localhost:11434" (Ollama), "http://vllm:8000/v1".
	BaseURL string
	// APIKey is sent as a Bearer token when not empty.
	APIKey string
	// Model is required with a provider; it also labels every vector made.
	Model string
	// QueryPrefix and DocumentPrefix are put before every text of their Kind, for models
	// trained with them ("query: " and "passage: " for e5, "search_query: " and
	// "search_document: " for nomic-embed). Empty for most models.
	QueryPrefix, DocumentPrefix string
	// Timeout bounds each attempt, not the whole call: the caller's context does that.
	Timeout time.Duration
	// MaxRetries is the number of attempts after the first, as given: 0 (or less) is none.
	MaxRetries int
	// BatchSize bounds the texts of one request (1 to MaxBatchSize), BatchChars their
	// characters; a single longer text is sent alone.
	BatchSize, BatchChars int
	// ExpectDim, when not 0, is the dimension every answer must have (the stored vectors'),
	// checked from the first answer on; 0 takes the first answer's.
	ExpectDim int
	// BreakerFailures is how many calls (each with its retries) must fail in a row before the
	// breaker opens; BreakerCooldown how long it stays open before one probe goes through.
	BreakerFailures int
	BreakerCooldown time.Duration
	// HTTPClient is optional; the default has no overall timeout, since Timeout and the
	// caller's context govern every attempt.
	HTTPClient *http.Client
}

// RerankConfig selects a rerank provider and how hard to try it. Fields left zero take their
// defaults, except MaxRetries.
type RerankConfig struct {
	Provider string // RerankNone (or ""), RerankTEI or RerankCohere
	// BaseURL is required with a provider: "http://tei:8080", "https://api.cohere.com/v2",
	// "https://api.jina.ai/v1".
	BaseURL string
	APIKey  string // sent as a Bearer token when not empty
	// Model is required by RerankCohere; TEI serves one model and is not told it (it only
	// names the reranker in logs).
	Model      string
	Timeout    time.Duration
	MaxRetries int
	// BatchSize bounds the documents of one request (1 to MaxRerankBatchSize).
	BatchSize       int
	BreakerFailures int
	BreakerCooldown time.Duration
	HTTPClient      *http.Client
}

// ConfigError is a setting that is wrong. Field names the Config or RerankConfig field
// ("Provider", "BaseURL", "Model", "BatchSize", "BatchChars", "ExpectDim"), so that the
// configuration layer can name its own setting; the message never quotes a URL or a key.
type ConfigError struct {
	Field   string
	Problem string
}

func (e *ConfigError) Error() string { return "embedding: " + e.Field + " " + e.Problem }

// conn is what embedding and rerank providers share: where, who, and how hard to try.
type conn struct {
	api, provider, baseURL, apiKey, model string
	timeout                               time.Duration
	maxRetries                            int
	breakerFailures                       int
	breakerCooldown                       time.Duration
	client                                *http.Client
}

// check validates c and fills in its defaults.
func (c *conn) check(defaultTimeout time.Duration, needModel bool) error {
	if c.baseURL == "" {
		return &ConfigError{"BaseURL", "is required with provider " + c.provider}
	}
	if err := remote.CheckBaseURL(c.baseURL); err != nil {
		return &ConfigError{"BaseURL", "is wrong: " + err.Error()}
	}
	if needModel && c.model == "" {
		return &ConfigError{"Model", "is required with provider " + c.provider}
	}
	if c.timeout <= 0 {
		c.timeout = defaultTimeout
	}
	c.maxRetries = max(c.maxRetries, 0)
	if c.breakerFailures <= 0 {
		c.breakerFailures = DefaultBreakerFailures
	}
	if c.breakerCooldown <= 0 {
		c.breakerCooldown = DefaultBreakerCooldown
	}
	if c.client == nil {
		c.client = remote.DefaultHTTPClient()
	}
	return nil
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

func (c *conn) guard(path string, clk circuit.Clock) *guard {
	header := http.Header{}
	// Local servers (Ollama, TEI) want no key, and get no Authorization header.
	if c.apiKey != "" {
		header.Set("Authorization", "Bearer "+c.apiKey)
	}
	return &guard{
		post: remote.NewEndpoint(remote.Options{API: c.api, Provider: c.provider, Client: c.client, BaseURL: c.baseURL,
			Path: path, Header: header, Secret: c.apiKey, Timeout: c.timeout, Now: clk.Now, Message: remote.JSONErrorMessage}),
		api:     c.api,
		name:    c.provider,
		breaker: circuit.NewBreaker(c.breakerFailures, c.breakerCooldown, clk.Now),
		retry: circuit.Retry{MaxRetries: c.maxRetries, Clock: clk, Stopped: func(ctx context.Context) error {
			return remote.Canceled(c.api, c.provider, ctx)
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

// trimmed is the provider name as compared: case and spaces do not matter.
func trimmed(provider string) string { return strings.ToLower(strings.TrimSpace(provider)) }

// Validate reports the first wrong setting of c as a *ConfigError.
func (c Config) Validate() error {
	_, _, err := c.normalized()
	return err
}

// normalized validates c and fills in the defaults; none reports ProviderNone.
func (c Config) normalized() (Config, conn, error) {
	c.Provider = trimmed(c.Provider)
	cn := conn{api: "embedding", provider: c.Provider, baseURL: strings.TrimSpace(c.BaseURL),
		apiKey: strings.TrimSpace(c.APIKey), model: strings.TrimSpace(c.Model), timeout: c.Timeout,
		maxRetries: c.MaxRetries, breakerFailures: c.BreakerFailures, breakerCooldown: c.BreakerCooldown, client: c.HTTPClient}
	switch c.Provider {
	case "", ProviderNone:
		c.Provider = ProviderNone
		return c, cn, nil
	case ProviderOpenAI, ProviderOllama:
	default:
		return c, cn, &ConfigError{"Provider", fmt.Sprintf("must be %s, %s or %s, not %q", ProviderNone, ProviderOpenAI, ProviderOllama, c.Provider)}
	}
	if err := cn.check(DefaultTimeout, true); err != nil {
		return c, cn, err
	}
	switch {
	case c.BatchSize == 0:
		c.BatchSize = DefaultBatchSize
	case c.BatchSize < 0 || c.BatchSize > MaxBatchSize:
		return c, cn, &ConfigError{"BatchSize", fmt.Sprintf("must be from 1 to %d", MaxBatchSize)}
	}
	switch {
	case c.BatchChars == 0:
		c.BatchChars = DefaultBatchChars
	case c.BatchChars < 0:
		return c, cn, &ConfigError{"BatchChars", "must be positive"}
	}
	if c.ExpectDim < 0 {
		return c, cn, &ConfigError{"ExpectDim", "must not be negative"}
	}
	c.BaseURL, c.APIKey, c.Model, c.Timeout, c.MaxRetries = cn.baseURL, cn.apiKey, cn.model, cn.timeout, cn.maxRetries
	c.BreakerFailures, c.BreakerCooldown, c.HTTPClient = cn.breakerFailures, cn.breakerCooldown, cn.client
	return c, cn, nil
}

// Validate reports the first wrong setting of c as a *ConfigError.
func (c RerankConfig) Validate() error {
	_, _, err := c.normalized()
	return err
}

func (c RerankConfig) normalized() (RerankConfig, conn, error) {
	c.Provider = trimmed(c.Provider)
	cn := conn{api: "rerank", provider: c.Provider, baseURL: strings.TrimSpace(c.BaseURL),
		apiKey: strings.TrimSpace(c.APIKey), model: strings.TrimSpace(c.Model), timeout: c.Timeout,
		maxRetries: c.MaxRetries, breakerFailures: c.BreakerFailures, breakerCooldown: c.BreakerCooldown, client: c.HTTPClient}
	switch c.Provider {
	case "", RerankNone:
		c.Provider = RerankNone
		return c, cn, nil
	case RerankTEI, RerankCohere:
	default:
		return c, cn, &ConfigError{"Provider", fmt.Sprintf("must be %s, %s or %s, not %q", RerankNone, RerankTEI, RerankCohere, c.Provider)}
	}
	if err := cn.check(DefaultRerankTimeout, c.Provider == RerankCohere); err != nil {
		return c, cn, err
	}
	switch {
	case c.BatchSize == 0:
		c.BatchSize = DefaultRerankBatchSize
	case c.BatchSize < 0 || c.BatchSize > MaxRerankBatchSize:
		return c, cn, &ConfigError{"BatchSize", fmt.Sprintf("must be from 1 to %d", MaxRerankBatchSize)}
	}
	c.BaseURL, c.APIKey, c.Model, c.Timeout, c.MaxRetries = cn.baseURL, cn.apiKey, cn.model, cn.timeout, cn.maxRetries
	c.BreakerFailures, c.BreakerCooldown, c.HTTPClient = cn.breakerFailures, cn.breakerCooldown, cn.client
	return c, cn, nil
}
