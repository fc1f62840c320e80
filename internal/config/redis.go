package config

import (
	"fmt"
	"net/url"

	"github.com/redis/go-redis/v9"
)

// redisURLForm is how SVC_REDIS_URL is written, for error messages.
const redisURLForm = "redis://[user:password@]host:6379/N (or rediss:// for TLS)"

// validateRedis parses SVC_REDIS_URL into c.Redis; an empty one leaves c.Redis nil (each
// replica limits in its own memory). No message quotes the URL: it may hold a password.
func (c *Config) validateRedis() error {
	c.Redis = nil
	if c.RedisURL == "" {
		return nil
	}
	u, err := url.Parse(c.RedisURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return fmt.Errorf("SVC_REDIS_URL must look like %s", redisURLForm)
	}
	opts, err := redis.ParseURL(c.RedisURL)
	if err != nil {
		// go-redis names what is wrong (the database number, an option) without the password.
		return fmt.Errorf("SVC_REDIS_URL must look like %s: %v", redisURLForm, err)
	}
	c.Redis = opts
	return validateRedisPrefix(c.RedisPrefix)
}

// maxRedisPrefix bounds SVC_REDIS_PREFIX: it is repeated in every key.
const maxRedisPrefix = 64

// validateRedisPrefix accepts printable ASCII without spaces or braces: the surge
// detector's keys put the token id in braces so a Redis Cluster keeps a token's two keys in
// one slot, and a brace in the prefix would pick the slot instead.
func validateRedisPrefix(p string) error {
	if len(p) > maxRedisPrefix {
		return fmt.Errorf("SVC_REDIS_PREFIX is longer than %d characters", maxRedisPrefix)
	}
	for _, r := range p {
		if r <= ' ' || r > '~' || r == '{' || r == '}' {
			return fmt.Errorf("SVC_REDIS_PREFIX must be printable ASCII without spaces or braces, such as svc:staging:")
		}
	}
	return nil
}
