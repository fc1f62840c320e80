package config

import (
	"strings"
	"testing"
	"time"

	"svc/internal/embedding"
)

func TestSemanticDefaultsAreOff(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.EmbeddingEnabled() || c.EmbedProvider != "none" || c.RerankProvider != "none" || c.EmbedPricePerMTok != 0 ||
		c.EmbedQueryTimeout != DefaultEmbedQueryTimeout {
		t.Fatalf("defaults: %+v", c.Semantic)
	}
	e, err := embedding.New(c.EmbeddingConfig())
	if err != nil || e != nil {
		t.Errorf("embedding.New with the defaults = %v, %v; want nil, nil", e, err)
	}
	r, err := embedding.NewReranker(c.RerankConfig())
	if err != nil || r != nil {
		t.Errorf("embedding.NewReranker with the defaults = %v, %v; want nil, nil", r, err)
	}
}

func TestSemanticSettings(t *testing.T) {
	t.Parallel()
	c, err := Load(env(map[string]string{
		"SVC_EMBED_PROVIDER": " Ollama ", "SVC_EMBED_BASE_URL": "http://127.0.0.1:11434", "SVC_EMBED_MODEL": "bge-m3",
		"SVC_EMBED_API_KEY": "k\n", "SVC_EMBED_QUERY_PREFIX": "query: ", "SVC_EMBED_DOCUMENT_PREFIX": "passage: ",
		"SVC_EMBED_TIMEOUT": "45s", "SVC_EMBED_BATCH_SIZE": "16", "SVC_EMBED_PRICE_PER_MTOK": " 0.02 ",
		"SVC_EMBED_QUERY_TIMEOUT": "750ms",
		"SVC_RERANK_PROVIDER":     "cohere", "SVC_RERANK_BASE_URL": "https://api.jina.ai/v1", "SVC_RERANK_MODEL": "jina-reranker-v2-base-multilingual",
		"SVC_RERANK_API_KEY": "rk", "SVC_RERANK_TIMEOUT": "5s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	ec := c.EmbeddingConfig()
	want := embedding.Config{Provider: "ollama",
		Endpoint: embedding.Endpoint{BaseURL: "http://127.0.0.1:11434", APIKey: "k", Model: "bge-m3",
			Timeout: 45 * time.Second, MaxRetries: embedding.DefaultMaxRetries},
		QueryPrefix: "query: ", DocumentPrefix: "passage: ", BatchSize: 16}
	if ec != want || !c.EmbeddingEnabled() || c.EmbedPricePerMTok != 20000 || c.EmbedQueryTimeout != 750*time.Millisecond {
		t.Errorf("embedding config %+v\nwant %+v (price %d micro-USD, query timeout %v)", ec, want, c.EmbedPricePerMTok,
			c.EmbedQueryTimeout)
	}
	rc := c.RerankConfig()
	if rc.Provider != "cohere" || rc.BaseURL != "https://api.jina.ai/v1" || rc.Model != "jina-reranker-v2-base-multilingual" ||
		rc.APIKey != "rk" || rc.Timeout != 5*time.Second || rc.MaxRetries != embedding.DefaultMaxRetries {
		t.Errorf("rerank config %+v", rc)
	}
	if e, err := embedding.New(ec); err != nil || e == nil {
		t.Errorf("embedding.New: %v, %v", e, err)
	}
}

func TestSemanticInvalid(t *testing.T) {
	t.Parallel()
	const key = "sk-embed-secret"
	tests := []struct {
		env  map[string]string
		want string // the variable the message must name
	}{
		{map[string]string{"SVC_EMBED_PROVIDER": "cohere"}, "SVC_EMBED_PROVIDER"},
		{map[string]string{"SVC_EMBED_PROVIDER": "openai", "SVC_EMBED_MODEL": "m"}, "SVC_EMBED_BASE_URL"},
		{map[string]string{"SVC_EMBED_PROVIDER": "ollama", "SVC_EMBED_BASE_URL": "http://h:11434"}, "SVC_EMBED_MODEL"},
		{map[string]string{"SVC_EMBED_PROVIDER": "openai", "SVC_EMBED_BASE_URL": "api.openai.com/v1", "SVC_EMBED_MODEL": "m", "SVC_EMBED_API_KEY": key}, "SVC_EMBED_BASE_URL"},
		{map[string]string{"SVC_EMBED_TIMEOUT": "100ms"}, "SVC_EMBED_TIMEOUT"},
		{map[string]string{"SVC_EMBED_TIMEOUT": "soon"}, "SVC_EMBED_TIMEOUT"},
		{map[string]string{"SVC_EMBED_BATCH_SIZE": "0"}, "SVC_EMBED_BATCH_SIZE"},
		{map[string]string{"SVC_EMBED_BATCH_SIZE": "1000"}, "SVC_EMBED_BATCH_SIZE"},
		{map[string]string{"SVC_EMBED_PRICE_PER_MTOK": "0,02"}, "SVC_EMBED_PRICE_PER_MTOK"},
		{map[string]string{"SVC_EMBED_PRICE_PER_MTOK": "-1"}, "SVC_EMBED_PRICE_PER_MTOK"},
		{map[string]string{"SVC_EMBED_PRICE_PER_MTOK": "0.0000001"}, "SVC_EMBED_PRICE_PER_MTOK"},
		{map[string]string{"SVC_EMBED_PRICE_PER_MTOK": "1000.01"}, "SVC_EMBED_PRICE_PER_MTOK"},
		{map[string]string{"SVC_EMBED_PRICE_PER_MTOK": "2e-2"}, "SVC_EMBED_PRICE_PER_MTOK"},
		{map[string]string{"SVC_EMBED_QUERY_TIMEOUT": "10ms"}, "SVC_EMBED_QUERY_TIMEOUT"},
		{map[string]string{"SVC_EMBED_QUERY_TIMEOUT": "1m"}, "SVC_EMBED_QUERY_TIMEOUT"},
		{map[string]string{"SVC_RERANK_PROVIDER": "voyage"}, "SVC_RERANK_PROVIDER"},
		{map[string]string{"SVC_RERANK_PROVIDER": "tei"}, "SVC_RERANK_BASE_URL"},
		{map[string]string{"SVC_RERANK_PROVIDER": "cohere", "SVC_RERANK_BASE_URL": "https://api.cohere.com/v2"}, "SVC_RERANK_MODEL"},
		{map[string]string{"SVC_RERANK_TIMEOUT": "1h"}, "SVC_RERANK_TIMEOUT"},
	}
	for _, tc := range tests {
		c, err := Load(env(tc.env))
		if err == nil {
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want it to name %s", tc.env, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), key) {
			t.Errorf("%v: the error shows the key: %v", tc.env, err)
		}
	}
}

func TestSemanticTEIWithoutModel(t *testing.T) {
	t.Parallel()
	c, err := Load(env(map[string]string{"SVC_RERANK_PROVIDER": "tei", "SVC_RERANK_BASE_URL": "http://tei:8080"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("TEI serves one model and needs no SVC_RERANK_MODEL: %v", err)
	}
}

// The price is what an operator reads on a provider's price list, USD per million tokens,
// held exactly in micro-USD.
func TestSemanticPriceInUSD(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"0": 0, "0.02": 20_000, "0.13": 130_000, "1": 1_000_000, ".5": 500_000,
		"0.000001": 1, "1000": MaxEmbedPricePerMTok} {
		c, err := Load(env(map[string]string{"SVC_EMBED_PRICE_PER_MTOK": in}))
		if err != nil || c.EmbedPricePerMTok != want {
			t.Errorf("SVC_EMBED_PRICE_PER_MTOK=%q: %d micro-USD, %v; want %d", in, c.EmbedPricePerMTok, err, want)
		}
	}
}

func TestEmbedMinSimilarity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    string
		want float64
		bad  bool
	}{{"", 0, false}, {"0.6", 0.6, false}, {"0", 0, true}, {"1", 0, true}, {"high", 0, true}} {
		s, err := loadSemantic(func(k string) string {
			if k == "SVC_EMBED_MIN_SIMILARITY" {
				return tc.v
			}
			return ""
		})
		if (err != nil) != tc.bad || !tc.bad && s.EmbedMinSimilarity != tc.want {
			t.Errorf("%q: %v %v", tc.v, s.EmbedMinSimilarity, err)
		}
	}
}
