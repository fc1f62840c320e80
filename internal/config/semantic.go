package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"svc/internal/billing"
	"svc/internal/embedding"
)

// Semantic retrieval (issue 25, DECISIONS.md "Semantic retrieval"): an embedding provider
// and a reranker, both off by default. Load reads the SVC_EMBED_* and SVC_RERANK_* variables
// into these fields; Validate checks them through embedding's own rules.
type Semantic struct {
	EmbedProvider       string        // SVC_EMBED_PROVIDER: none (default), openai or ollama
	EmbedBaseURL        string        // SVC_EMBED_BASE_URL: required with a provider
	EmbedAPIKey         string        // SVC_EMBED_API_KEY: sent as a Bearer token; never logged
	EmbedModel          string        // SVC_EMBED_MODEL: required with a provider
	EmbedQueryPrefix    string        // SVC_EMBED_QUERY_PREFIX: before every query, e.g. "query: " (e5)
	EmbedDocumentPrefix string        // SVC_EMBED_DOCUMENT_PREFIX: before every chunk, e.g. "passage: "
	EmbedTimeout        time.Duration // SVC_EMBED_TIMEOUT: one provider attempt
	EmbedBatchSize      int           // SVC_EMBED_BATCH_SIZE: texts a request
	// EmbedQueryTimeout is SVC_EMBED_QUERY_TIMEOUT: how long a visitor's question waits for
	// its embedding (retries included) before the answer is searched by keywords alone.
	EmbedQueryTimeout time.Duration
	// EmbedPricePerMTok is SVC_EMBED_PRICE_PER_MTOK, given in USD per million embedding
	// tokens ("0.02") and held in micro-USD (20000): what an embedding usage event is charged
	// at (0, the default, meters without charging).
	EmbedPricePerMTok int64
	// EmbedMinSimilarity is SVC_EMBED_MIN_SIMILARITY: the least cosine similarity of a
	// question and a chunk found by meaning for the built-in engine to answer from it when no
	// keyword evidence does (each model has its own scale); 0 takes the engine's default.
	EmbedMinSimilarity float64
	RerankProvider     string        // SVC_RERANK_PROVIDER: none (default), tei or cohere
	RerankBaseURL      string        // SVC_RERANK_BASE_URL: required with a provider
	RerankAPIKey       string        // SVC_RERANK_API_KEY
	RerankModel        string        // SVC_RERANK_MODEL: required by cohere
	RerankTimeout      time.Duration // SVC_RERANK_TIMEOUT: one provider attempt
}

// MaxEmbedPricePerMTok bounds SVC_EMBED_PRICE_PER_MTOK at 1,000 USD per million tokens
// (in micro-USD): a larger number is far more likely a unit mistake than a price.
const MaxEmbedPricePerMTok = 1_000 * billing.MicroPerUSD

// DefaultEmbedQueryTimeout bounds a question's embedding: well inside the 5 s an answer
// must take during a provider outage, and above a local model's usual 10–100 ms.
const DefaultEmbedQueryTimeout = 2 * time.Second

// loadSemantic reads the semantic-retrieval variables with their defaults.
func loadSemantic(getenv func(string) string) (Semantic, error) {
	s := Semantic{
		EmbedProvider: or(strings.ToLower(strings.TrimSpace(getenv("SVC_EMBED_PROVIDER"))), embedding.ProviderNone),
		EmbedBaseURL:  strings.TrimSpace(getenv("SVC_EMBED_BASE_URL")),
		// Secrets pasted into environment files often carry a trailing newline.
		EmbedAPIKey: strings.TrimSpace(getenv("SVC_EMBED_API_KEY")),
		EmbedModel:  strings.TrimSpace(getenv("SVC_EMBED_MODEL")),
		// Prefixes are taken as written: their trailing space is part of them.
		EmbedQueryPrefix:    getenv("SVC_EMBED_QUERY_PREFIX"),
		EmbedDocumentPrefix: getenv("SVC_EMBED_DOCUMENT_PREFIX"),
		EmbedTimeout:        embedding.DefaultTimeout,
		EmbedQueryTimeout:   DefaultEmbedQueryTimeout,
		EmbedBatchSize:      embedding.DefaultBatchSize,
		RerankProvider:      or(strings.ToLower(strings.TrimSpace(getenv("SVC_RERANK_PROVIDER"))), embedding.RerankNone),
		RerankBaseURL:       strings.TrimSpace(getenv("SVC_RERANK_BASE_URL")),
		RerankAPIKey:        strings.TrimSpace(getenv("SVC_RERANK_API_KEY")),
		RerankModel:         strings.TrimSpace(getenv("SVC_RERANK_MODEL")),
		RerankTimeout:       embedding.DefaultRerankTimeout,
	}
	for _, d := range []struct {
		name string
		into *time.Duration
	}{{"SVC_EMBED_TIMEOUT", &s.EmbedTimeout}, {"SVC_RERANK_TIMEOUT", &s.RerankTimeout}} {
		if v := getenv(d.name); v != "" {
			t, err := time.ParseDuration(v)
			if err != nil || t < time.Second || t > 10*time.Minute {
				return s, fmt.Errorf("%s: want a duration from 1s to 10m, not %q", d.name, v)
			}
			*d.into = t
		}
	}
	if v := getenv("SVC_EMBED_QUERY_TIMEOUT"); v != "" {
		t, err := time.ParseDuration(v)
		if err != nil || t < 100*time.Millisecond || t > 30*time.Second {
			return s, fmt.Errorf("SVC_EMBED_QUERY_TIMEOUT: want a duration from 100ms to 30s, not %q", v)
		}
		s.EmbedQueryTimeout = t
	}
	if v := getenv("SVC_EMBED_BATCH_SIZE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > embedding.MaxBatchSize {
			return s, fmt.Errorf("SVC_EMBED_BATCH_SIZE: want a whole number from 1 to %d, not %q", embedding.MaxBatchSize, v)
		}
		s.EmbedBatchSize = n
	}
	if v := getenv("SVC_EMBED_MIN_SIMILARITY"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || f >= 1 {
			return s, fmt.Errorf("SVC_EMBED_MIN_SIMILARITY: want a cosine similarity between 0 and 1 (0.47), not %q", v)
		}
		s.EmbedMinSimilarity = f
	}
	if v := getenv("SVC_EMBED_PRICE_PER_MTOK"); v != "" {
		n, err := billing.ParseUSD(v)
		if err != nil || n < 0 || n > MaxEmbedPricePerMTok {
			return s, fmt.Errorf("SVC_EMBED_PRICE_PER_MTOK: want USD per million tokens from 0 to %s with at most 6 decimals (0.02 for OpenAI's text-embedding-3-small), not %q",
				billing.FormatUSD(MaxEmbedPricePerMTok), v)
		}
		s.EmbedPricePerMTok = n
	}
	return s, nil
}

// EmbeddingConfig is what embedding.New takes; its Provider is "none" when semantic
// retrieval is off, and New then returns a nil Embedder.
func (s *Semantic) EmbeddingConfig() embedding.Config {
	return embedding.Config{
		Provider: s.EmbedProvider,
		Endpoint: embedding.Endpoint{BaseURL: s.EmbedBaseURL, APIKey: s.EmbedAPIKey, Model: s.EmbedModel,
			Timeout: s.EmbedTimeout, MaxRetries: embedding.DefaultMaxRetries},
		QueryPrefix: s.EmbedQueryPrefix, DocumentPrefix: s.EmbedDocumentPrefix, BatchSize: s.EmbedBatchSize,
	}
}

// RerankConfig is what embedding.NewReranker takes; nil Reranker when off.
func (s *Semantic) RerankConfig() embedding.RerankConfig {
	return embedding.RerankConfig{
		Provider: s.RerankProvider,
		Endpoint: embedding.Endpoint{BaseURL: s.RerankBaseURL, APIKey: s.RerankAPIKey, Model: s.RerankModel,
			Timeout: s.RerankTimeout, MaxRetries: embedding.DefaultMaxRetries},
	}
}

// EmbeddingEnabled reports whether an embedding provider is configured.
func (s *Semantic) EmbeddingEnabled() bool {
	return s.EmbedProvider != "" && s.EmbedProvider != embedding.ProviderNone
}

// validateSemantic checks both providers' settings by embedding's rules, naming our
// variables; no message quotes a URL or a key.
func (s *Semantic) validateSemantic() error {
	if err := s.EmbeddingConfig().Validate(); err != nil {
		return settingError("SVC_EMBED_", err)
	}
	if err := s.RerankConfig().Validate(); err != nil {
		return settingError("SVC_RERANK_", err)
	}
	return nil
}

// settingError names the variable of an embedding.ConfigError.
func settingError(prefix string, err error) error {
	var ce *embedding.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	var name string
	switch ce.Field {
	case "Provider":
		name = "PROVIDER"
	case "BaseURL":
		name = "BASE_URL"
	case "Model":
		name = "MODEL"
	case "BatchSize":
		name = "BATCH_SIZE"
	default:
		return err // a field no variable sets
	}
	return fmt.Errorf("%s%s %s", prefix, name, ce.Problem)
}
