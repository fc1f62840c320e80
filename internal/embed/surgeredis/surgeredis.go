// Package surgeredis keeps the surge detector's state (embed.Surge) in Redis, so that every
// `svc serve` replica counts a token's questions together: a script spread over several
// replicas spikes as it would on one.
package surgeredis

import (
	"context"
	_ "embed" // the Observe script
	"errors"
	"fmt"
	"strconv"
	"time"

	"svc/internal/embed"
	"svc/internal/redisconn"

	"github.com/redis/go-redis/v9"
)

// DefaultPrefix namespaces the keys (redisconn.DefaultPrefix).
const DefaultPrefix = redisconn.DefaultPrefix

//go:embed observe.lua
var observeSource string

var observeScript = redis.NewScript(observeSource)

// Options configure a Store; zero fields take their defaults.
type Options struct {
	Prefix  string        // key prefix; default DefaultPrefix
	Timeout time.Duration // one call's bound; default 75 ms
}

// Store is an embed.SurgeStore in Redis. A token's state is one hash,
// <prefix>surge:{<token>}, and its current bucket's address counts another,
// <prefix>surge:{<token>}:addrs (the braces keep both in one Redis Cluster slot, since the
// script touches both). A question is counted by one Lua script (observe.lua) doing what the
// memory store does, in one atomic step; reads are one HMGET and arithmetic in Go, shared
// with the memory store (embed.SurgeSnapshot). Idle state expires instead of being swept.
type Store struct {
	rdb     redis.UniversalClient
	prefix  string
	timeout time.Duration
}

// New returns a store on client's Redis.
func New(client redis.UniversalClient, o Options) *Store {
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.Timeout <= 0 {
		o.Timeout = redisconn.Timeout
	}
	return &Store{rdb: client, prefix: o.Prefix, timeout: o.Timeout}
}

func (s *Store) keys(tokenID int64) []string {
	state := s.prefix + "surge:{" + strconv.FormatInt(tokenID, 10) + "}"
	return []string{state, state + ":addrs"}
}

// Observe implements embed.SurgeStore.
func (s *Store) Observe(o embed.SurgeOptions, tokenID int64, addr string, now time.Time) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	w, c := int64(o.Window), int64(o.Cooldown)
	k := o.BucketOf(now)
	r := now.UnixNano() - k*w
	idle := max(embed.SurgeIdle, embed.SurgeMaxCatchUp*o.Window)
	v, err := observeScript.Run(ctx, s.rdb, s.keys(tokenID),
		k, r, w, c, (c+w-1)/w, o.Alpha, o.Floor, o.Factor, o.PerAddress, embed.SurgeMaxAddresses, embed.SurgeMaxCatchUp, addr,
		idle.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("redis surge observe: %w", err)
	}
	return v == 1, nil
}

// Active implements embed.SurgeStore.
func (s *Store) Active(o embed.SurgeOptions, tokenID int64, now time.Time) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	ub, err := s.rdb.HGet(ctx, s.keys(tokenID)[0], "ub").Int64()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("redis surge active: %w", err)
	}
	return now.UnixNano() < until(o, ub), nil
}

// Threshold implements embed.SurgeStore.
func (s *Store) Threshold(o embed.SurgeOptions, tokenID int64, now time.Time) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	vals, err := s.rdb.HMGet(ctx, s.keys(tokenID)[0], "bucket", "count", "baseline", "ub").Result()
	if err != nil {
		return 0, fmt.Errorf("redis surge threshold: %w", err)
	}
	if vals[0] == nil {
		return o.Floor, nil
	}
	var sn embed.SurgeSnapshot
	var perr error
	num := func(v any, parse func(string) error) {
		if str, ok := v.(string); ok && perr == nil {
			perr = parse(str)
		}
	}
	num(vals[0], func(s string) (err error) { sn.Bucket, err = strconv.ParseInt(s, 10, 64); return })
	num(vals[1], func(s string) (err error) { sn.Count, err = strconv.Atoi(s); return })
	num(vals[2], func(s string) (err error) { sn.Baseline, err = strconv.ParseFloat(s, 64); return })
	num(vals[3], func(s string) error {
		ub, err := strconv.ParseInt(s, 10, 64)
		sn.Until = until(o, ub)
		return err
	})
	if perr != nil {
		return 0, fmt.Errorf("redis surge threshold: token %d's state: %w", tokenID, perr)
	}
	return sn.Threshold(o, now), nil
}

// until is the end of a surge whose last spiking bucket ended at bucket ub's start.
func until(o embed.SurgeOptions, ub int64) int64 {
	return ub*int64(o.Window) + int64(o.Cooldown)
}
