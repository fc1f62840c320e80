package embedding

import (
	"errors"
	"strings"
	"testing"
)

func TestConfigValidation(t *testing.T) {
	t.Parallel()
	const key = "sk-config-secret"
	tests := []struct {
		name  string
		cfg   Config
		field string // of the *ConfigError; "" for a valid Config
	}{
		{"none", Config{}, ""},
		{"none spelled out", Config{Provider: " None "}, ""},
		{"openai", Config{Provider: "openai", Endpoint: Endpoint{BaseURL: "https://api.openai.com/v1", Model: "text-embedding-3-small", APIKey: key}}, ""},
		{"ollama", Config{Provider: "OLLAMA", Endpoint: Endpoint{BaseURL: "http://localhost:11434", Model: "bge-m3"}}, ""},
		{"unknown provider", Config{Provider: "gemini", Endpoint: Endpoint{BaseURL: "http://x", Model: "m"}}, "Provider"},
		{"no base URL", Config{Provider: "openai", Endpoint: Endpoint{Model: "m"}}, "BaseURL"},
		{"relative base URL", Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: "localhost:11434", Model: "m"}}, "BaseURL"},
		{"base URL with a key in the query", Config{Provider: "openai", Endpoint: Endpoint{BaseURL: "https://x.example/v1?key=" + key, Model: "m"}}, "BaseURL"},
		{"no model", Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: "http://localhost:11434"}}, "Model"},
		{"batch too large", Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: "http://h", Model: "m"}, BatchSize: MaxBatchSize + 1}, "BatchSize"},
		{"negative batch", Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: "http://h", Model: "m"}, BatchSize: -1}, "BatchSize"},
		{"negative chars", Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: "http://h", Model: "m"}, BatchChars: -1}, "BatchChars"},
		{"negative dimension", Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: "http://h", Model: "m"}, ExpectDim: -1}, "ExpectDim"},
	}
	for _, tc := range tests {
		err := tc.cfg.Validate()
		checkConfigError(t, tc.name, err, tc.field, key)
		e, nerr := New(tc.cfg)
		none := strings.Contains(tc.name, "none")
		if tc.field == "" && (nerr != nil || (e == nil) != none) {
			t.Errorf("%s: New = %v, %v; want a nil Embedder only for none", tc.name, e, nerr)
		}
		if tc.field != "" && (e != nil || nerr == nil) {
			t.Errorf("%s: New = %v, %v; want an error", tc.name, e, nerr)
		}
	}
}

func TestRerankConfigValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		cfg   RerankConfig
		field string
	}{
		{"none", RerankConfig{}, ""},
		{"tei needs no model", RerankConfig{Provider: "tei", Endpoint: Endpoint{BaseURL: "http://tei:8080"}}, ""},
		{"cohere", RerankConfig{Provider: "cohere", Endpoint: Endpoint{BaseURL: "https://api.cohere.com/v2", Model: "rerank-v3.5"}}, ""},
		{"cohere without model", RerankConfig{Provider: "cohere", Endpoint: Endpoint{BaseURL: "https://api.jina.ai/v1"}}, "Model"},
		{"tei without base URL", RerankConfig{Provider: "tei"}, "BaseURL"},
		{"unknown", RerankConfig{Provider: "voyage", Endpoint: Endpoint{BaseURL: "http://x", Model: "m"}}, "Provider"},
		{"batch too large", RerankConfig{Provider: "tei", Endpoint: Endpoint{BaseURL: "http://x"}, BatchSize: MaxRerankBatchSize + 1}, "BatchSize"},
	}
	for _, tc := range tests {
		checkConfigError(t, tc.name, tc.cfg.Validate(), tc.field, "")
		r, err := NewReranker(tc.cfg)
		if tc.field == "" && (err != nil || (r == nil) != (tc.cfg.Provider == "")) {
			t.Errorf("%s: NewReranker = %v, %v", tc.name, r, err)
		}
	}
}

func checkConfigError(t *testing.T, name string, err error, field, secret string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return
	}
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != field {
		t.Errorf("%s: err %v, want a ConfigError on %s", name, err, field)
	}
	if secret != "" && err != nil && strings.Contains(err.Error(), secret) {
		t.Errorf("%s: the error shows the key: %v", name, err)
	}
}

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	got, err := Config{Provider: "ollama", Endpoint: Endpoint{BaseURL: " http://h:11434 ", Model: " bge-m3 ", APIKey: " k\n", MaxRetries: -2}}.normalized()
	if err != nil {
		t.Fatal(err)
	}
	if got.BaseURL != "http://h:11434" || got.Model != "bge-m3" || got.APIKey != "k" || got.Timeout != DefaultTimeout ||
		got.MaxRetries != 0 || got.BatchSize != DefaultBatchSize || got.BatchChars != DefaultBatchChars ||
		got.BreakerFailures != DefaultBreakerFailures || got.BreakerCooldown != DefaultBreakerCooldown || got.HTTPClient == nil {
		t.Errorf("defaults %+v", got)
	}
	r, err := RerankConfig{Provider: "tei", Endpoint: Endpoint{BaseURL: "http://t"}}.normalized()
	if err != nil || r.Timeout != DefaultRerankTimeout || r.BatchSize != DefaultRerankBatchSize {
		t.Errorf("rerank defaults %+v, %v", r, err)
	}
}
