package config

import (
	"flag"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadDefaultsAndEnv(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Addr != DefaultAddr || c.DataDir != DefaultDataDir || c.LLMProvider != "builtin" || c.PublicURL != "http://127.0.0.1:8080" {
		t.Fatalf("defaults: %+v", c)
	}
	c, err = Load(env(map[string]string{"SVC_ADDR": ":9000", "SVC_DATA": "/tmp/x", "SVC_PUBLIC_URL": "https://svc.example/",
		"SVC_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1", "SVC_CRAWL_ALLOW_PRIVATE": "1", "SVC_SHUTDOWN_TIMEOUT": "3s", "SVC_LOG_LEVEL": "debug"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9000" || c.DataDir != "/tmp/x" || c.PublicURL != "https://svc.example" || len(c.TrustedProxies) != 2 ||
		!c.CrawlAllowPrivate || c.ShutdownTimeout != 3*time.Second || c.LogLevel.String() != "DEBUG" {
		t.Fatalf("env: %+v", c)
	}
}

func TestFlagsOverrideEnv(t *testing.T) {
	c, _ := Load(env(map[string]string{"SVC_DATA": "/env"}))
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.StoreFlags(fs)
	c.ServeFlags(fs)
	if err := fs.Parse([]string{"--data", "/flag", "--addr", "127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/flag" || c.Addr != "127.0.0.1:1" {
		t.Fatalf("flags: %+v", c)
	}
}

func TestInvalid(t *testing.T) {
	tests := []map[string]string{
		{"SVC_LLM_PROVIDER": "gpt"},
		{"SVC_LLM_PROVIDER": "anthropic"},
		{"SVC_LLM_PROVIDER": "openai", "SVC_LLM_BASE_URL": "localhost:11434"},
		{"SVC_LLM_TIMEOUT": "1ms"},
		{"SVC_LLM_MAX_RETRIES": "-1"},
		{"SVC_PUBLIC_URL": "ftp://x"},
		{"SVC_LOG_FORMAT": "xml"},
		{"SVC_SMTP_URL": "http://x"},
		{"SVC_DATABASE_URL": "mysql://x"},
		{"SVC_CRAWL_INTERVAL": "soon"},
		{"SVC_CRAWL_INTERVAL": "1m"},
		{"SVC_CRAWL_MAX_PAGES": "0"},
		{"SVC_CRAWL_MAX_PAGES": "many"},
		{"SVC_CRAWL_MAX_PAGES": "1000001"},
	}
	for _, m := range tests {
		c, err := Load(env(m))
		if err == nil {
			err = c.Validate()
		}
		if err == nil {
			t.Errorf("%v accepted", m)
		}
	}
	for _, m := range []map[string]string{{"SVC_TRUSTED_PROXIES": "nope"}, {"SVC_SHUTDOWN_TIMEOUT": "soon"}, {"SVC_LOG_LEVEL": "loud"}} {
		if _, err := Load(env(m)); err == nil {
			t.Errorf("%v accepted", m)
		}
	}
}

func TestLLMSettings(t *testing.T) {
	c, err := Load(env(map[string]string{"SVC_LLM_PROVIDER": "openai", "SVC_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
		"SVC_LLM_MODEL": "llama3.1", "SVC_LLM_TIMEOUT": "45s", "SVC_LLM_MAX_RETRIES": "0"}))
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c.ServeFlags(fs)
	if err := fs.Parse([]string{"--llm-small-model", "llama3.2:3b"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.LLMModel != "llama3.1" || c.LLMSmallModel != "llama3.2:3b" || c.LLMTimeout != 45*time.Second || c.LLMMaxRetries != 0 {
		t.Fatalf("llm settings: %+v", c)
	}
	d, _ := Load(env(nil))
	if d.LLMTimeout != DefaultLLMTimeout || d.LLMMaxRetries != DefaultLLMMaxRetries {
		t.Fatalf("defaults: %+v", d)
	}
}

func TestCrawlSettings(t *testing.T) {
	tests := []struct {
		env      map[string]string
		interval time.Duration
		pages    int
	}{
		{nil, DefaultCrawlInterval, DefaultCrawlMaxPages},
		{map[string]string{"SVC_CRAWL_INTERVAL": "6h", "SVC_CRAWL_MAX_PAGES": "2000"}, 6 * time.Hour, 2000},
		{map[string]string{"SVC_CRAWL_INTERVAL": "off"}, 0, DefaultCrawlMaxPages},
		{map[string]string{"SVC_CRAWL_INTERVAL": "0"}, 0, DefaultCrawlMaxPages},
	}
	for _, tt := range tests {
		c, err := Load(env(tt.env))
		if err != nil {
			t.Fatalf("%v: %v", tt.env, err)
		}
		if c.CrawlInterval != tt.interval || c.CrawlMaxPages != tt.pages {
			t.Errorf("%v: interval %s pages %d", tt.env, c.CrawlInterval, c.CrawlMaxPages)
		}
	}
}
