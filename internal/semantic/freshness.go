package semantic

import (
	"sync"
	"time"
)

// freshness tells when an account's in-memory index may no longer match the store. Every
// index is built from ChunkVectors at a VectorVersion (read just before the walk, so a write
// racing the walk leaves the recorded version behind the data and costs one reload, never a
// stale index kept). A search re-reads the version at most every checkEvery per account (an
// indexed read), or at once after Changed (a KB write of this process), and drops the index
// when it moved: another process or replica (`svc kb import`, a second server) changed the
// KB or the vectors. This process's own vector writes do not cost a reload: the worker reads
// the version before and after its put and, when the put alone moved it, the index (which
// the worker also Adds to) is advanced to the new version.
type freshness struct {
	mu sync.Mutex
	m  map[int64]*indexState
}

// indexState is what is known of one account's held index.
type indexState struct {
	built    int64     // the VectorVersion the held index matches
	checked  time.Time // when the version was last read
	checking bool      // a search is reading it now; the others do not wait
	force    bool      // a KB write in this process: read it at the next search
}

func newFreshness() *freshness { return &freshness{m: map[int64]*indexState{}} }

// loaded records an index built at version v. Versions only grow, and the live index is the
// one whose load started last, so the larger of two records is kept.
func (f *freshness) loaded(account, v int64, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.m[account]
	if st == nil {
		f.m[account] = &indexState{built: v, checked: now}
		return
	}
	if v > st.built {
		st.built, st.checked = v, now
	}
}

// due says whether the search at now should read the account's version, and claims the
// read (the others go on without waiting for it).
func (f *freshness) due(account int64, now time.Time, every time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.m[account]
	if st == nil || st.checking || (!st.force && now.Sub(st.checked) < every) {
		return false
	}
	st.checking, st.force = true, false
	return true
}

// checkedAt ends a read claimed by due: v is the version read (ok false: the read failed,
// and the next search tries again). It reports whether the index is stale; the state is
// then forgotten, and the next load records its own.
func (f *freshness) checkedAt(account, v int64, ok bool, now time.Time) (stale bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.m[account]
	if st == nil {
		return false
	}
	st.checking = false
	if !ok {
		return false
	}
	st.checked = now
	if v == st.built {
		return false
	}
	delete(f.m, account)
	return true
}

// changed asks for a version read at the account's next search.
func (f *freshness) changed(account int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st := f.m[account]; st != nil {
		st.force = true
	}
}

// stored accounts for a put of this process that moved the version from before to after:
// when the index matched before and the put alone moved it (by one, or not at all when it
// stored nothing), the index, which was given the same vectors, matches after. Otherwise
// someone else wrote too, and it reports stale (the state is forgotten).
func (f *freshness) stored(account, before, after int64) (stale bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.m[account]
	switch {
	case st == nil:
		return false // nothing held, or a load in flight, which records its own version
	case st.built == before && after-before <= 1:
		st.built = after
		return false
	case st.built == after:
		return false // loaded after the put
	}
	delete(f.m, account)
	return true
}

// forget drops the account's state (the index was invalidated).
func (f *freshness) forget(account int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.m, account)
}
