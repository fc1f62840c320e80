package account

import (
	"context"
	"errors"
	"sync"

	"svc/internal/store"
)

// keyCacheSize bounds the remembered keys: one entry is a key and its account (a few hundred
// bytes), and a server sees far fewer distinct secret keys than this between restarts.
const keyCacheSize = 4096

// keyCache remembers the key and account behind each presented secret key (by the key's
// SHA-256, never the key itself), so that authentication on every request reads five
// columns by primary key (store.Keys.KeyFreshness) instead of all of both rows. It stays
// exact: a revoked or deleted key, or an account whose settings changed since it was
// remembered, is read in full again; the money columns are always taken fresh. Nothing is
// trusted for longer than that one read, so another process or replica that revokes a key
// is seen at once, as without the cache.
type keyCache struct {
	mu sync.Mutex
	m  map[[32]byte]store.KeyAccount
}

func newKeyCache() *keyCache { return &keyCache{m: map[[32]byte]store.KeyAccount{}} }

func (c *keyCache) get(h [32]byte) (store.KeyAccount, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ka, ok := c.m[h]
	return ka, ok
}

func (c *keyCache) put(h [32]byte, ka store.KeyAccount) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[h]; !ok && len(c.m) >= keyCacheSize {
		for k := range c.m { // any entry: a full cache only means many keys, none preferred
			delete(c.m, k)
			break
		}
	}
	c.m[h] = ka
}

func (c *keyCache) drop(h [32]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, h)
}

// remembered returns the cached key and account of h brought up to date, or ok false when
// there is none or it no longer holds (then the caller reads them in full).
func (c *keyCache) remembered(ctx context.Context, st store.Keys, h [32]byte) (store.KeyAccount, bool, error) {
	ka, ok := c.get(h)
	if !ok {
		return ka, false, nil
	}
	f, err := st.KeyFreshness(ctx, ka.Key.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.drop(h)
		return ka, false, nil
	case err != nil:
		return ka, false, err
	}
	if f.Status != store.KeyActive || !f.AccountUpdatedAt.Equal(ka.Account.UpdatedAt) {
		c.drop(h)
		return ka, false, nil
	}
	ka.Key.Status, ka.Key.LastUsedAt = f.Status, f.LastUsedAt
	ka.Account.BalanceMicro, ka.Account.ReservedMicro = f.BalanceMicro, f.ReservedMicro
	return ka, true, nil
}
