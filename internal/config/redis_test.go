package config

import (
	"strings"
	"testing"
	"time"
)

func TestRedisURL(t *testing.T) {
	c, _ := Load(env(nil))
	if err := c.Validate(); err != nil || c.Redis != nil {
		t.Fatalf("no SVC_REDIS_URL: err %v, Redis %v; want nil, nil", err, c.Redis)
	}
	c, _ = Load(env(map[string]string{"SVC_REDIS_URL": "redis://svc:s3cret@cache.internal:6380/3"}))
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Redis == nil || c.Redis.Addr != "cache.internal:6380" || c.Redis.DB != 3 || c.Redis.Password != "s3cret" {
		t.Fatal("SVC_REDIS_URL not parsed into host, database and password")
	}
	for _, bad := range []string{
		"cache.internal:6379",            // no scheme
		"http://cache.internal:6379/0",   // not Redis
		"redis://:s3cret@cache:6379/x",   // database not a number
		"redis://:s3cret@cache:6379/0/1", // a path after the database
		"redis://:s3cret@%zz:6379/0",     // not a URL at all
		"redis:///0",                     // no host
	} {
		c, _ := Load(env(map[string]string{"SVC_REDIS_URL": bad}))
		err := c.Validate()
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if !strings.HasPrefix(err.Error(), "SVC_REDIS_URL must look like redis://") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: %v; want the expected form and never the password", bad, err)
		}
	}
}

func TestRedisPrefixAndHoldTTL(t *testing.T) {
	c, _ := Load(env(map[string]string{"SVC_REDIS_URL": "redis://cache:6379/0", "SVC_REDIS_PREFIX": "svc:staging:",
		"SVC_HOLD_TTL": "90s"}))
	if err := c.Validate(); err != nil || c.RedisPrefix != "svc:staging:" || c.HoldTTL != 90*time.Second {
		t.Fatalf("err %v, prefix %q, hold TTL %s", err, c.RedisPrefix, c.HoldTTL)
	}
	if c, _ := Load(env(nil)); c.HoldTTL != DefaultHoldTTL || c.RedisPrefix != "" {
		t.Fatalf("defaults: hold TTL %s, prefix %q", c.HoldTTL, c.RedisPrefix)
	}
	for _, bad := range []string{"svc rl:", "svc:{x}:", "svc:é:", strings.Repeat("x", 65)} {
		c, _ := Load(env(map[string]string{"SVC_REDIS_URL": "redis://cache:6379/0", "SVC_REDIS_PREFIX": bad}))
		if err := c.Validate(); err == nil || !strings.HasPrefix(err.Error(), "SVC_REDIS_PREFIX") {
			t.Errorf("prefix %q: %v", bad, err)
		}
	}
	c, _ = Load(env(map[string]string{"SVC_HOLD_TTL": "500ms"}))
	if err := c.Validate(); err == nil || !strings.HasPrefix(err.Error(), "SVC_HOLD_TTL") {
		t.Errorf("a hold TTL under 1s: %v", err)
	}
	if _, err := Load(env(map[string]string{"SVC_HOLD_TTL": "soon"})); err == nil {
		t.Error("an unparsable SVC_HOLD_TTL loaded")
	}
}
