// Package config parses the service's configuration once, from the environment and then the
// command line, into a typed and validated struct that is passed down to constructors.
package config

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"svc/internal/billing"
)

// Config is everything `svc` reads from its environment.
type Config struct {
	Addr              string         // SVC_ADDR, --addr
	DataDir           string         // SVC_DATA, --data
	DatabaseURL       string         // SVC_DATABASE_URL, --database-url
	PublicURL         string         // SVC_PUBLIC_URL, --public-url
	LLMProvider       string         // SVC_LLM_PROVIDER
	LLMBaseURL        string         // SVC_LLM_BASE_URL
	LLMAPIKey         string         // SVC_LLM_API_KEY
	LLMModel          string         // SVC_LLM_MODEL: the model that writes replies
	LLMSmallModel     string         // SVC_LLM_SMALL_MODEL: plans, checks and summaries; default LLMModel
	LLMTimeout        time.Duration  // SVC_LLM_TIMEOUT: one provider attempt
	LLMMaxRetries     int            // SVC_LLM_MAX_RETRIES: retries of a 429, 5xx or timeout
	SMTPURL           string         // SVC_SMTP_URL
	SMTPFrom          string         // SVC_SMTP_FROM: sender of owner notices
	TrustedProxies    []netip.Prefix // SVC_TRUSTED_PROXIES
	CrawlAllowPrivate bool           // SVC_CRAWL_ALLOW_PRIVATE
	CrawlInterval     time.Duration  // SVC_CRAWL_INTERVAL: re-crawl age inside serve; 0 turns it off
	CrawlMaxPages     int            // SVC_CRAWL_MAX_PAGES: page budget of one crawl
	RetentionDays     int            // SVC_RETENTION_DAYS: widget conversations idle longer are deleted; 0 = off
	LogLevel          slog.Level     // SVC_LOG_LEVEL
	LogFormat         string         // SVC_LOG_FORMAT: text or json
	ShutdownTimeout   time.Duration  // SVC_SHUTDOWN_TIMEOUT
	// MetricsAddr is the listen address of a separate /metrics server (SVC_METRICS_ADDR,
	// --metrics-addr); MetricsToken the bearer token /metrics requires (SVC_METRICS_TOKEN).
	// With neither, /metrics is not served; with only the token, the main listener serves it.
	MetricsAddr  string
	MetricsToken string
	// RedisURL is SVC_REDIS_URL: Redis shared by every replica for rate limits and the surge
	// detector; Validate parses it into Redis (nil without it: each process limits alone).
	RedisURL string
	Redis    *redis.Options
	// RedisPrefix is SVC_REDIS_PREFIX: what starts every key svc keeps in Redis ("" is
	// redisconn.DefaultPrefix, svc:rl:). Replicas of one service share it; two services on
	// one Redis (a staging and a production, or the test suite's) each take their own.
	RedisPrefix string
	// HoldTTL is SVC_HOLD_TTL: how long an answer's reservation lasts unless it is settled,
	// so how long the money of a replica killed mid-answer stays held (DefaultHoldTTL).
	HoldTTL time.Duration
	// PublicURLFromAddr is set by Validate when PublicURL was not given and is
	// "http://" + Addr: a guess, right only where the server listens on that address.
	PublicURLFromAddr bool
	// Semantic holds the embedding and rerank settings (semantic.go).
	Semantic
}

// DefaultHoldTTL is SVC_HOLD_TTL's default, billing's rule.
const DefaultHoldTTL = billing.DefaultHoldTTL

// MinMetricsToken is the shortest SVC_METRICS_TOKEN accepted: the token guards a page that
// shows traffic and spend, and a short one could be guessed.
const MinMetricsToken = 16

// MetricsEnabled reports whether /metrics is served at all.
func (c *Config) MetricsEnabled() bool { return c.MetricsAddr != "" || c.MetricsToken != "" }

// Defaults.
const (
	DefaultAddr          = "127.0.0.1:8080"
	DefaultDataDir       = "./data"
	DefaultCrawlInterval = 24 * time.Hour
	DefaultCrawlMaxPages = 500
	// MaxCrawlPages caps the page budget: one crawl of a larger site would hold the writer
	// for long stretches and is better split into sites.
	MaxCrawlPages = 100_000
	// MinCrawlInterval keeps a misconfigured schedule from re-crawling customer sites back to back.
	MinCrawlInterval     = 10 * time.Minute
	DefaultLLMTimeout    = 30 * time.Second
	DefaultLLMMaxRetries = 2
	DefaultSMTPFrom      = "svc@localhost"
)

// parseInterval reads a Go duration; "0" and "off" turn re-crawling off.
func parseInterval(v string) (time.Duration, error) {
	if v == "0" || strings.EqualFold(v, "off") {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 24h, or off: %w", err)
	}
	if d < MinCrawlInterval {
		return 0, fmt.Errorf("at least %s, or off", MinCrawlInterval)
	}
	return d, nil
}

// Load reads the environment through getenv into a Config with defaults applied. It does not
// validate: call Validate after command-line flags have been applied.
func Load(getenv func(string) string) (Config, error) {
	c := Config{
		Addr:            or(getenv("SVC_ADDR"), DefaultAddr),
		DataDir:         or(getenv("SVC_DATA"), DefaultDataDir),
		DatabaseURL:     getenv("SVC_DATABASE_URL"),
		PublicURL:       getenv("SVC_PUBLIC_URL"),
		LLMProvider:     or(getenv("SVC_LLM_PROVIDER"), "builtin"),
		LLMBaseURL:      getenv("SVC_LLM_BASE_URL"),
		LLMAPIKey:       getenv("SVC_LLM_API_KEY"),
		LLMModel:        getenv("SVC_LLM_MODEL"),
		LLMSmallModel:   getenv("SVC_LLM_SMALL_MODEL"),
		LLMTimeout:      DefaultLLMTimeout,
		LLMMaxRetries:   DefaultLLMMaxRetries,
		SMTPURL:         getenv("SVC_SMTP_URL"),
		SMTPFrom:        or(getenv("SVC_SMTP_FROM"), DefaultSMTPFrom),
		LogFormat:       or(getenv("SVC_LOG_FORMAT"), "text"),
		ShutdownTimeout: 10 * time.Second,
		CrawlInterval:   DefaultCrawlInterval,
		CrawlMaxPages:   DefaultCrawlMaxPages,
		MetricsAddr:     strings.TrimSpace(getenv("SVC_METRICS_ADDR")),
		// Secrets pasted into environment files often carry a trailing newline.
		MetricsToken: strings.TrimSpace(getenv("SVC_METRICS_TOKEN")),
		RedisURL:     strings.TrimSpace(getenv("SVC_REDIS_URL")),
		RedisPrefix:  strings.TrimSpace(getenv("SVC_REDIS_PREFIX")),
		HoldTTL:      DefaultHoldTTL,
	}
	sem, err := loadSemantic(getenv)
	if err != nil {
		return c, err
	}
	c.Semantic = sem
	if v := getenv("SVC_CRAWL_INTERVAL"); v != "" {
		d, err := parseInterval(v)
		if err != nil {
			return c, fmt.Errorf("SVC_CRAWL_INTERVAL: %w", err)
		}
		c.CrawlInterval = d
	}
	if v := getenv("SVC_LLM_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 10*time.Minute {
			return c, fmt.Errorf("SVC_LLM_TIMEOUT: want a duration from 1s to 10m, not %q", v)
		}
		c.LLMTimeout = d
	}
	if v := getenv("SVC_LLM_MAX_RETRIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 10 {
			return c, fmt.Errorf("SVC_LLM_MAX_RETRIES: want a whole number from 0 to 10, not %q", v)
		}
		c.LLMMaxRetries = n
	}
	if v := getenv("SVC_CRAWL_MAX_PAGES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxCrawlPages {
			return c, fmt.Errorf("SVC_CRAWL_MAX_PAGES: want a whole number from 1 to %d, not %q", MaxCrawlPages, v)
		}
		c.CrawlMaxPages = n
	}
	if v := getenv("SVC_RETENTION_DAYS"); v != "" {
		n, err := ParseRetentionDays(v)
		if err != nil {
			return c, fmt.Errorf("SVC_RETENTION_DAYS: %w", err)
		}
		c.RetentionDays = n
	}
	if v := getenv("SVC_CRAWL_ALLOW_PRIVATE"); v != "" {
		c.CrawlAllowPrivate = v == "1" || strings.EqualFold(v, "true")
	}
	if v := getenv("SVC_LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return c, fmt.Errorf("SVC_LOG_LEVEL: %w", err)
		}
	}
	if v := getenv("SVC_HOLD_TTL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("SVC_HOLD_TTL: %w", err)
		}
		c.HoldTTL = d
	}
	if v := getenv("SVC_SHUTDOWN_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("SVC_SHUTDOWN_TIMEOUT: %w", err)
		}
		c.ShutdownTimeout = d
	}
	if v := getenv("SVC_TRUSTED_PROXIES"); v != "" {
		ps, err := ParsePrefixes(v)
		if err != nil {
			return c, fmt.Errorf("SVC_TRUSTED_PROXIES: %w", err)
		}
		c.TrustedProxies = ps
	}
	return c, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// ParsePrefixes parses comma-separated CIDRs or single addresses.
func ParsePrefixes(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			a, err := netip.ParseAddr(part)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or CIDR", part)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR", part)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// StoreFlags registers the flags every command takes.
func (c *Config) StoreFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.DataDir, "data", c.DataDir, "data directory of the embedded store (env SVC_DATA)")
	fs.StringVar(&c.DatabaseURL, "database-url", c.DatabaseURL, "PostgreSQL URL instead of the embedded store (env SVC_DATABASE_URL)")
}

// ServeFlags registers the flags of the commands that serve HTTP.
func (c *Config) ServeFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Addr, "addr", c.Addr, "listen address (env SVC_ADDR)")
	fs.StringVar(&c.PublicURL, "public-url", c.PublicURL, "public base URL of the service (env SVC_PUBLIC_URL)")
	fs.StringVar(&c.LLMProvider, "llm-provider", c.LLMProvider, "answer engine: builtin, openai or anthropic (env SVC_LLM_PROVIDER)")
	fs.StringVar(&c.LLMBaseURL, "llm-base-url", c.LLMBaseURL, "the provider's API base URL (env SVC_LLM_BASE_URL)")
	fs.StringVar(&c.LLMModel, "llm-model", c.LLMModel, "model that writes replies (env SVC_LLM_MODEL)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", c.MetricsAddr, "listen address of a separate /metrics server (env SVC_METRICS_ADDR)")
	fs.StringVar(&c.LLMSmallModel, "llm-small-model", c.LLMSmallModel, "model that plans, checks and summarises (env SVC_LLM_SMALL_MODEL)")
}

// Validate checks the whole configuration and fills derived defaults.
func (c *Config) Validate() error {
	if c.DatabaseURL != "" {
		// Only the scheme is checked here; the server answers for the rest when the store opens.
		u, err := url.Parse(c.DatabaseURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return fmt.Errorf("SVC_DATABASE_URL: want a postgres:// URL, or leave it empty to use the embedded store")
		}
	}
	if strings.TrimSpace(c.DataDir) == "" {
		return fmt.Errorf("data directory must not be empty")
	}
	if c.Addr == "" {
		return fmt.Errorf("listen address must not be empty")
	}
	switch c.LLMProvider {
	case "builtin":
	case "openai", "anthropic":
		if c.LLMProvider == "anthropic" && c.LLMAPIKey == "" {
			return fmt.Errorf("SVC_LLM_API_KEY is required with SVC_LLM_PROVIDER=anthropic")
		}
		if c.LLMBaseURL != "" {
			if u, err := url.Parse(c.LLMBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("SVC_LLM_BASE_URL must be an http(s) URL")
			}
		}
	default:
		return fmt.Errorf("SVC_LLM_PROVIDER must be builtin, openai or anthropic, not %q", c.LLMProvider)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("SVC_LOG_FORMAT must be text or json")
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
		c.PublicURLFromAddr = true
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("SVC_PUBLIC_URL must be an http(s) URL, not %q", c.PublicURL)
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") {
			return fmt.Errorf("SVC_SMTP_URL must look like smtp://user:pass@host:port")
		}
	}
	if _, err := mail.ParseAddress(c.SMTPFrom); err != nil {
		return fmt.Errorf("SVC_SMTP_FROM must be an e-mail address such as svc@example.com")
	}
	if c.ShutdownTimeout <= 0 {
		return fmt.Errorf("SVC_SHUTDOWN_TIMEOUT must be positive")
	}
	// A zero HoldTTL is a Config built in code: the services take their default.
	if c.HoldTTL != 0 && c.HoldTTL < time.Second {
		return fmt.Errorf("SVC_HOLD_TTL must be at least 1s (default %s); keep it above the slowest answer", DefaultHoldTTL)
	}
	if err := c.validateMetrics(); err != nil {
		return err
	}
	if err := c.validateSemantic(); err != nil {
		return err
	}
	return c.validateRedis()
}

// validateMetrics checks SVC_METRICS_ADDR and SVC_METRICS_TOKEN.
func (c *Config) validateMetrics() error {
	if c.MetricsToken != "" && len(c.MetricsToken) < MinMetricsToken {
		return fmt.Errorf("SVC_METRICS_TOKEN must be at least %d characters (try: openssl rand -hex 32)", MinMetricsToken)
	}
	if c.MetricsAddr == "" {
		return nil
	}
	if _, port, err := net.SplitHostPort(c.MetricsAddr); err != nil || port == "" {
		return fmt.Errorf("SVC_METRICS_ADDR must be host:port, such as 127.0.0.1:9090, not %q", c.MetricsAddr)
	}
	if c.MetricsAddr == c.Addr {
		return fmt.Errorf("SVC_METRICS_ADDR must differ from the listen address %s; leave it empty to serve /metrics there behind SVC_METRICS_TOKEN", c.Addr)
	}
	return nil
}
