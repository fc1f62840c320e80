package embedding

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/sync/singleflight"
	"golang.org/x/text/unicode/norm"
)

// Defaults of the zero CacheOptions fields.
const (
	DefaultCacheEntries = 10_000
	DefaultCacheBytes   = 64 << 20
)

// entryOverhead approximates what an entry costs beside its vector: the key, the list
// element and the map's share.
const entryOverhead = 128

// CacheOptions bound a Cache.
type CacheOptions struct {
	MaxEntries int   // default DefaultCacheEntries
	MaxBytes   int64 // vectors and overhead; default DefaultCacheBytes
}

// Cache remembers query vectors, so that a question asked again (a suggestion chip, a
// repeated FAQ, a retry) costs neither a provider call nor tokens. Entries are keyed by
// account, model and normalised text: a vector is never shared between accounts, so the
// speed of an answer cannot tell one business what another's visitors ask. Concurrent misses
// of one key make one provider call. It is bounded by entries and bytes, least recently used
// first out, and safe for concurrent use.
type Cache struct {
	emb      Embedder
	model    string
	maxBytes int64

	mu    sync.Mutex
	lru   *simplelru.LRU[[sha256.Size]byte, []float32]
	bytes int64

	flight singleflight.Group
	hits   atomic.Uint64
	misses atomic.Uint64 // provider calls made
	shared atomic.Uint64 // misses served by another caller's call
}

// NewCache caches the query vectors of e, which embeds with model (Config.Model). e must not
// be nil.
func NewCache(e Embedder, model string, opts CacheOptions) *Cache {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultCacheEntries
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultCacheBytes
	}
	c := &Cache{emb: e, model: model, maxBytes: opts.MaxBytes}
	// NewLRU fails only for a size below 1, ruled out above.
	c.lru, _ = simplelru.NewLRU(opts.MaxEntries, func(_ [sha256.Size]byte, v []float32) { c.bytes -= size(v) })
	return c
}

// QueryVector is a query's vector and what getting it cost.
type QueryVector struct {
	Vector []float32 // the caller's own copy
	Model  string
	// Tokens is what the provider call made for this caller used; 0 when the vector came from
	// the cache or from a call another caller made (Cached).
	Tokens          int
	TokensEstimated bool
	Cached          bool
}

// CacheStats are a Cache's counters since it was made.
type CacheStats struct {
	Entries int
	Bytes   int64
	Hits    uint64 // served from memory
	Misses  uint64 // provider calls made
	Shared  uint64 // served by a concurrent caller's provider call
}

// Query returns the vector of text as a Query for account. Texts that differ only in white
// space or Unicode normalisation share an entry; what is embedded is the normalised text,
// so the entry is exactly its vector. The provider call, when one is needed, is not cut
// short when this caller gives up (others may wait on it, and its vector is kept), but it
// ends by this caller's deadline.
func (c *Cache) Query(ctx context.Context, account int64, text string) (QueryVector, error) {
	text = normalize(text)
	if text == "" {
		return QueryVector{}, fmt.Errorf("embedding: query: %w", ErrEmptyText)
	}
	key := c.key(account, text)
	if v, ok := c.get(key); ok {
		c.hits.Add(1)
		return QueryVector{Vector: v, Model: c.model, Cached: true}, nil
	}
	// The call re-reads the cache first: a caller that missed just before another's call
	// filled it then costs nothing either.
	ran, leader := false, false // this caller's function ran; it called the provider
	ch := c.flight.DoChan(string(key[:]), func() (any, error) {
		ran = true
		if v, ok := c.get(key); ok {
			c.hits.Add(1)
			return Result{Vectors: [][]float32{v}, Model: c.model}, nil
		}
		leader = true
		call, cancel := detached(ctx)
		defer cancel()
		c.misses.Add(1)
		res, err := c.emb.Embed(call, []string{text}, Query)
		if err != nil {
			return nil, err
		}
		if len(res.Vectors) != 1 {
			return nil, fmt.Errorf("embedding: %w: %d vectors for one query", ErrBadResponse, len(res.Vectors))
		}
		c.put(key, res.Vectors[0])
		return res, nil
	})
	select {
	case <-ctx.Done():
		return QueryVector{}, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return QueryVector{}, r.Err
		}
		res := r.Val.(Result)
		qv := QueryVector{Vector: slices.Clone(res.Vectors[0]), Model: res.Model, Cached: !leader}
		switch {
		case leader:
			qv.Tokens, qv.TokensEstimated = res.Tokens, res.TokensEstimated
		case !ran:
			c.shared.Add(1)
		}
		return qv, nil
	}
}

// Stats reads the counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	entries, bytes := c.lru.Len(), c.bytes
	c.mu.Unlock()
	return CacheStats{Entries: entries, Bytes: bytes, Hits: c.hits.Load(), Misses: c.misses.Load(), Shared: c.shared.Load()}
}

func (c *Cache) get(key [sha256.Size]byte) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.lru.Get(key)
	if !ok {
		return nil, false
	}
	return slices.Clone(v), true
}

func (c *Cache) put(key [sha256.Size]byte, v []float32) {
	v = slices.Clone(v)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru.Contains(key) {
		return
	}
	c.lru.Add(key, v) // may evict the oldest, which subtracts its size
	c.bytes += size(v)
	for c.bytes > c.maxBytes && c.lru.Len() > 1 {
		c.lru.RemoveOldest()
	}
}

// key hashes what tells entries apart; the text is not kept.
func (c *Cache) key(account int64, text string) [sha256.Size]byte {
	h := sha256.New()
	var id [8]byte
	binary.BigEndian.PutUint64(id[:], uint64(account))
	h.Write(id[:])
	h.Write([]byte(c.model))
	h.Write([]byte{0})
	h.Write([]byte(text))
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

func size(v []float32) int64 { return int64(4*len(v)) + entryOverhead }

// normalize is the text as keyed and embedded: NFC, white space collapsed, trimmed. Case is
// kept: it changes a vector, if little, and the entry must be the text's own.
func normalize(text string) string {
	return strings.Join(strings.Fields(norm.NFC.String(text)), " ")
}

// detached is ctx without its cancellation but with its deadline.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	d := context.WithoutCancel(ctx)
	if deadline, ok := ctx.Deadline(); ok {
		return context.WithDeadline(d, deadline)
	}
	return context.WithCancel(d)
}
