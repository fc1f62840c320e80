package llm

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestConfigValidation(t *testing.T) {
	const key = "sk-config-secret"
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"no provider", Config{}, "no provider"},
		{"unknown provider", Config{Provider: "gemini", APIKey: key}, "unknown provider"},
		{"anthropic without key", Config{Provider: "anthropic"}, "API key"},
		{"relative base URL", Config{Provider: "openai", BaseURL: "localhost:11434/v1"}, "http"},
		{"ftp base URL", Config{Provider: "openai", BaseURL: "ftp://example.com"}, "http"},
		{"no host", Config{Provider: "openai", BaseURL: "http:///v1"}, "no host"},
		{"query", Config{Provider: "anthropic", APIKey: key, BaseURL: "https://x.example/?key=" + key}, "query"},
		{"unparsable", Config{Provider: "openai", BaseURL: "http://[::1"}, "parse"},
		{"openai without key is fine", Config{Provider: "openai", BaseURL: "http://localhost:11434/v1"}, ""},
		{"provider is case-insensitive", Config{Provider: " Anthropic ", APIKey: key}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.cfg)
			if tc.wantErr == "" {
				if err != nil || c == nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err %v, want it to mention %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("error shows the key: %v", err)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	tests := []struct {
		in   Config
		want Config
	}{
		{Config{Provider: "openai"}, Config{Provider: "openai", BaseURL: DefaultOpenAIBaseURL, Model: DefaultOpenAIModel,
			Timeout: 30 * time.Second, MaxRetries: 0, BreakerFailures: 5, BreakerCooldown: 30 * time.Second}},
		{Config{Provider: "anthropic", APIKey: " k\n", MaxRetries: -3, Timeout: time.Second, Model: "claude-x"},
			Config{Provider: "anthropic", APIKey: "k", BaseURL: DefaultAnthropicBaseURL, Model: "claude-x",
				Timeout: time.Second, MaxRetries: 0, BreakerFailures: 5, BreakerCooldown: 30 * time.Second}},
	}
	for _, tc := range tests {
		got, err := tc.in.normalized()
		if err != nil {
			t.Fatal(err)
		}
		if got.HTTPClient == nil || got.HTTPClient == http.DefaultClient {
			t.Errorf("%s: want an HTTP client of our own", tc.in.Provider)
		}
		got.HTTPClient = nil
		if got != tc.want {
			t.Errorf("got %+v\nwant %+v", got, tc.want)
		}
	}
}
