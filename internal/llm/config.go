package llm

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"svc/internal/circuit"
	"svc/internal/remote"
)

// Providers, by wire protocol. "openai" covers every server that speaks Chat Completions.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
)

// Default models: small, fast and cheap, and ones that still accept max_tokens and a
// temperature, which every Request sends. OpenAI's newer reasoning models reject both on Chat
// Completions, and Anthropic's models after Claude Opus 4.6 reject any temperature but 1.
const (
	DefaultOpenAIModel    = "gpt-4o-mini"
	DefaultAnthropicModel = "claude-haiku-4-5"
)

// Default base URLs, in the form each client expects: OpenAI's includes the /v1 that its paths
// leave out; Anthropic's does not, since its paths start with v1/.
const (
	DefaultOpenAIBaseURL    = "https://api.openai.com/v1"
	DefaultAnthropicBaseURL = "https://api.anthropic.com"
)

// Defaults of the zero Config fields.
const (
	DefaultTimeout         = 30 * time.Second
	DefaultBreakerFailures = 5
	DefaultBreakerCooldown = 30 * time.Second
)

// Config selects a provider and how hard to try it. The zero value of each field but
// MaxRetries means its default.
type Config struct {
	Provider string // ProviderOpenAI or ProviderAnthropic
	BaseURL  string
	// APIKey may be empty for OpenAI-compatible local servers (Ollama, llama.cpp); Anthropic
	// always needs one.
	APIKey string
	Model  string
	// Timeout bounds each attempt, not the whole call: the caller's context does that.
	Timeout time.Duration
	// MaxRetries is the number of attempts after the first, as given: 0 (or less) is no
	// retry. Unlike the other fields it has no default here, because "retry zero times" must
	// be sayable; the service's default lives in config.DefaultLLMMaxRetries.
	MaxRetries int
	// BreakerFailures is how many Complete calls in a row must fail (after their retries)
	// before the breaker opens.
	BreakerFailures int
	// BreakerCooldown is how long the breaker stays open before one probe is let through.
	BreakerCooldown time.Duration
	// HTTPClient is optional; the default has no overall timeout, since Timeout and the
	// caller's context govern every attempt.
	HTTPClient *http.Client
}

// New builds the client for cfg: the provider's client, wrapped in retries, wrapped in
// the circuit breaker, so that one Complete call counts once for the breaker however many
// attempts it took.
func New(cfg Config) (Client, error) {
	return build(cfg, circuit.RealClock())
}

func build(cfg Config, clk circuit.Clock) (Client, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return nil, err
	}
	var provider Client
	switch cfg.Provider {
	case ProviderOpenAI:
		provider = newOpenAI(cfg, clk.Now)
	case ProviderAnthropic:
		provider = newAnthropic(cfg, clk.Now)
	}
	retries := newRetrier(provider, cfg.Provider, cfg.MaxRetries, clk)
	return newBreaker(retries, cfg.Provider, cfg.BreakerFailures, cfg.BreakerCooldown, clk.Now), nil
}

// normalized validates cfg and fills in the defaults. Errors never quote the API key.
func (c Config) normalized() (Config, error) {
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	// Keys pasted into environment files often carry a trailing newline; no key has spaces.
	c.APIKey = strings.TrimSpace(c.APIKey)
	c.BaseURL = strings.TrimSpace(c.BaseURL)
	c.Model = strings.TrimSpace(c.Model)
	switch c.Provider {
	case ProviderOpenAI:
		c.BaseURL = cmp.Or(c.BaseURL, DefaultOpenAIBaseURL)
		c.Model = cmp.Or(c.Model, DefaultOpenAIModel)
	case ProviderAnthropic:
		if c.APIKey == "" {
			return c, errors.New("llm: anthropic needs an API key")
		}
		c.BaseURL = cmp.Or(c.BaseURL, DefaultAnthropicBaseURL)
		c.Model = cmp.Or(c.Model, DefaultAnthropicModel)
	case "":
		return c, errors.New("llm: no provider configured")
	default:
		return c, fmt.Errorf("llm: unknown provider %q (want %q or %q)", c.Provider, ProviderOpenAI, ProviderAnthropic)
	}
	if err := remote.CheckBaseURL(c.BaseURL); err != nil {
		return c, fmt.Errorf("llm: %w", err)
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	c.MaxRetries = max(c.MaxRetries, 0)
	if c.BreakerFailures <= 0 {
		c.BreakerFailures = DefaultBreakerFailures
	}
	if c.BreakerCooldown <= 0 {
		c.BreakerCooldown = DefaultBreakerCooldown
	}
	if c.HTTPClient == nil {
		c.HTTPClient = remote.DefaultHTTPClient()
	}
	return c, nil
}

// endpoint is the provider's one URL, as both clients post to it.
func endpoint(cfg Config, provider, path string, header http.Header, message func([]byte) string, now func() time.Time) *remote.Endpoint {
	return remote.NewEndpoint(remote.Options{
		API: api, Provider: provider, Client: cfg.HTTPClient, BaseURL: cfg.BaseURL, Path: path,
		Header: header, Secret: cfg.APIKey, Timeout: cfg.Timeout, Now: now, Message: message,
	})
}
