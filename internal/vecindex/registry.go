package vecindex

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"sync"
	"time"
)

// Entry is one stored vector as a Loader yields it.
type Entry struct {
	ID     int64
	Doc    int64 // the chunk's document
	Lang   string
	Vector []byte // as Encode wrote it; the Registry does not keep the slice
}

// Loader yields the stored vectors of one account made by one model. The
// Registry calls it in a goroutine of its own, with a context that ends when
// the Registry closes; an error ends the load.
type Loader func(ctx context.Context, account int64, model string) iter.Seq2[Entry, error]

// Config sets up a Registry.
type Config struct {
	// Load reads an account's vectors; required.
	Load Loader
	// MaxBytes bounds the estimated memory of all indexes held (Index.Bytes
	// summed); the least recently searched go first. Zero means
	// DefaultMaxBytes.
	MaxBytes int64
	// Encoding is how indexes hold vectors in memory; zero means
	// DefaultEncoding.
	Encoding Encoding
	// ExactMaxComponents is the size (vectors × dimension) above which an
	// account gets an HNSW graph instead of an Exact index; zero means
	// ExactMaxComponents.
	ExactMaxComponents int64
	// HNSW are the graph's settings; zero fields take DefaultHNSWParams.
	HNSW HNSWParams
	// Logger receives a line when a build fails or an index does not fit;
	// nil discards them.
	Logger *slog.Logger
}

// DefaultMaxBytes is the memory bound when Config.MaxBytes is zero: ten
// 50,000-chunk accounts at 1024 dimensions in int8 exact, or five as graphs.
const DefaultMaxBytes = 512 << 20

// ErrTooLarge is returned by Search when an account's index alone would
// exceed the Registry's memory bound; the caller answers without vectors.
var ErrTooLarge = errors.New("vecindex: the account's index exceeds the memory bound")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("vecindex: registry closed")

// Registry keeps one index per account and model, built on the first search
// from the Loader, bounded in memory by evicting whole indexes, least recently
// searched first, and kept current by Add and Remove. Concurrent searches for
// an account that is not loaded wait for one shared load. An account whose
// size calls for a graph is served by an Exact index while the graph is built
// in the background. Safe for concurrent use.
type Registry struct {
	cfg      Config
	maxBytes int64
	exactMax int64
	log      *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	m     map[regKey]*regEntry
	lru   *list.List // of *regEntry, most recently searched at the front
	total int64      // bytes of the indexes held
}

type regKey struct {
	account int64
	model   string
}

type regEntry struct {
	key   regKey
	elem  *list.Element
	ready chan struct{} // closed when the first load has ended

	// write serialises Add and Remove of this entry with the swap of a
	// rebuilt index, so the pending log and the live index see writes in one
	// order.
	write sync.Mutex

	// Guarded by Registry.mu:
	idx      Index // nil until loaded, and for an account with no vectors yet
	err      error // a load's failure kept for later searches (ErrTooLarge)
	bytes    int64
	building bool // a load or rebuild is in flight: writes are also logged
	pending  []op
}

// op is a write recorded while a build was in flight, replayed on its result.
type op struct {
	remove bool
	id     int64
	doc    int64
	lang   string
	vec    []float32
}

// NewRegistry returns a Registry; Close stops its background builds.
func NewRegistry(cfg Config) (*Registry, error) {
	if cfg.Load == nil {
		return nil, fmt.Errorf("vecindex: registry needs a loader")
	}
	if cfg.Encoding == 0 {
		cfg.Encoding = DefaultEncoding
	}
	if !cfg.Encoding.valid() {
		return nil, fmt.Errorf("vecindex: unknown encoding %d", uint8(cfg.Encoding))
	}
	r := &Registry{
		cfg:      cfg,
		maxBytes: cfg.MaxBytes,
		exactMax: cfg.ExactMaxComponents,
		log:      cfg.Logger,
		m:        map[regKey]*regEntry{},
		lru:      list.New(),
	}
	if r.maxBytes <= 0 {
		r.maxBytes = DefaultMaxBytes
	}
	if r.exactMax <= 0 {
		r.exactMax = ExactMaxComponents
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	return r, nil
}

// Close stops background loads and builds and waits for them; searches
// after it fail with ErrClosed.
func (r *Registry) Close() {
	r.cancel()
	r.wg.Wait()
}

// Search finds the k chunks of the account nearest q among the vectors of
// model. The first search of an account starts its load and waits for it (or
// for ctx); searches arriving meanwhile wait for the same load.
func (r *Registry) Search(ctx context.Context, account int64, model string, q []float32, k int, f Filter) ([]Hit, error) {
	if r.ctx.Err() != nil {
		return nil, ErrClosed
	}
	k0 := regKey{account, model}
	r.mu.Lock()
	e := r.m[k0]
	if e == nil {
		e = &regEntry{key: k0, ready: make(chan struct{}), building: true}
		e.elem = r.lru.PushFront(e)
		r.m[k0] = e
		r.wg.Add(1)
		go r.load(e)
	} else {
		r.lru.MoveToFront(e.elem)
	}
	r.mu.Unlock()

	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.mu.Lock()
	idx, err := e.idx, e.err
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if idx == nil {
		return nil, nil
	}
	return idx.Search(q, k, f)
}

// Add puts chunk id's vector into the account's index when it is loaded (or
// loading); otherwise it does nothing, since the next load reads the store.
// Call it after the vector is committed to the store.
func (r *Registry) Add(account int64, model string, id, doc int64, lang string, vec []float32) error {
	if _, err := normalized(vec); err != nil {
		return err
	}
	return r.write(regKey{account, model}, op{id: id, doc: doc, lang: lang, vec: vec})
}

// Remove takes chunk id out of the account's index when it is loaded (or
// loading). Call it after the chunk's deletion is committed.
func (r *Registry) Remove(account int64, model string, id int64) {
	// A remove cannot fail: it only records or forgets.
	_ = r.write(regKey{account, model}, op{remove: true, id: id})
}

// Invalidate drops every index of the account (all models): after a model
// change, a reindex or the account's deletion. The next search loads again.
func (r *Registry) Invalidate(account int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, e := range r.m {
		if k.account == account {
			r.dropLocked(e)
		}
	}
}

func (r *Registry) write(k regKey, o op) error {
	r.mu.Lock()
	e := r.m[k]
	r.mu.Unlock()
	if e == nil {
		return nil
	}
	e.write.Lock()
	defer e.write.Unlock()
	r.mu.Lock()
	if r.m[k] != e {
		r.mu.Unlock()
		return nil
	}
	if e.err != nil {
		// A failed load holds nothing; a removal may make the account fit.
		if o.remove {
			r.dropLocked(e)
		}
		r.mu.Unlock()
		return nil
	}
	if e.building {
		e.pending = append(e.pending, o)
	}
	idx := e.idx
	if idx == nil && !e.building && !o.remove {
		// A loaded account that had no vectors: its first one sets the dimension.
		x, err := NewExact(len(o.vec), r.cfg.Encoding)
		if err != nil {
			r.mu.Unlock()
			return err
		}
		e.idx, idx = x, x
	}
	r.mu.Unlock()
	if idx == nil {
		return nil
	}
	var err error
	if o.remove {
		idx.Remove(o.id)
	} else {
		err = idx.Add(o.id, o.doc, o.lang, o.vec)
	}
	r.mu.Lock()
	if r.m[k] == e && e.idx == idx {
		r.resizeLocked(e, idx.Bytes())
		r.maybeRebuildLocked(e)
	}
	r.mu.Unlock()
	return err
}

// load reads the account's vectors into an Exact index, replays the writes
// that came meanwhile, and publishes it.
func (r *Registry) load(e *regEntry) {
	defer r.wg.Done()
	x, err := r.readAll(e.key)
	if err == nil && x != nil {
		err = r.replay(e, x)
	}
	e.write.Lock()
	r.mu.Lock()
	if err == nil && x != nil {
		err = applyOps(x, e.pending)
	}
	e.pending, e.building = nil, false
	if err != nil && r.ctx.Err() != nil {
		err = ErrClosed
	}
	switch {
	case r.m[e.key] != e:
		// Dropped while loading: waiters still get the index for this search.
		e.idx, e.err = indexOrNil(x), err
	case errors.Is(err, ErrTooLarge):
		e.err = err
		r.log.Warn("vector index exceeds the memory bound", "account", e.key.account, "model", e.key.model, "max_bytes", r.maxBytes)
	case err != nil:
		e.err = err
		r.dropLocked(e)
		if r.ctx.Err() == nil {
			r.log.Error("vector index load failed", "account", e.key.account, "model", e.key.model, "err", err)
		}
	default:
		e.idx = indexOrNil(x)
		if x != nil {
			r.resizeLocked(e, x.Bytes())
			r.maybeRebuildLocked(e)
		}
	}
	close(e.ready)
	r.mu.Unlock()
	e.write.Unlock()
}

func indexOrNil(x *Exact) Index {
	if x == nil {
		return nil
	}
	return x
}

// readAll runs the loader into a new Exact index; nil when the account has
// no vectors.
func (r *Registry) readAll(k regKey) (*Exact, error) {
	var x *Exact
	n := 0
	for ent, err := range r.cfg.Load(r.ctx, k.account, k.model) {
		if err != nil {
			return nil, err
		}
		vec, _, err := Decode(ent.Vector)
		if err != nil {
			return nil, fmt.Errorf("chunk %d: %w", ent.ID, err)
		}
		if x == nil {
			if x, err = NewExact(len(vec), r.cfg.Encoding); err != nil {
				return nil, err
			}
		}
		if err := x.Add(ent.ID, ent.Doc, ent.Lang, vec); err != nil {
			return nil, fmt.Errorf("chunk %d: %w", ent.ID, err)
		}
		if n++; n%1024 == 0 {
			if x.Bytes() > r.maxBytes {
				return nil, ErrTooLarge
			}
			if err := r.ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	if x != nil && x.Bytes() > r.maxBytes {
		return nil, ErrTooLarge
	}
	return x, nil
}

// replay applies the writes logged during a build to its result, batch by
// batch without the entry's write lock, until a batch is empty; the caller
// then applies the last ones with the lock held and publishes.
func (r *Registry) replay(e *regEntry, idx Index) error {
	for done := 0; ; {
		r.mu.Lock()
		batch := e.pending[done:]
		r.mu.Unlock()
		if len(batch) == 0 {
			r.mu.Lock()
			e.pending = e.pending[done:]
			r.mu.Unlock()
			return nil
		}
		if err := applyOps(idx, batch); err != nil {
			return err
		}
		done += len(batch)
	}
}

func applyOps(idx Index, ops []op) error {
	for _, o := range ops {
		if o.remove {
			idx.Remove(o.id)
			continue
		}
		if err := idx.Add(o.id, o.doc, o.lang, o.vec); err != nil && !errors.Is(err, ErrDim) {
			return err
		}
	}
	return nil
}

// wantGraph says whether n vectors of dim components call for a graph.
func (r *Registry) wantGraph(n, dim int) bool { return int64(n)*int64(dim) > r.exactMax }

// maybeRebuildLocked starts a background rebuild when the entry's index is
// the wrong kind for its size (an Exact that grew past the threshold, a graph
// that shrank well below it) or a graph carries dead nodes for a quarter of
// its live ones.
func (r *Registry) maybeRebuildLocked(e *regEntry) {
	if e.building || e.idx == nil || r.ctx.Err() != nil {
		return
	}
	n, dim := e.idx.Len(), e.idx.Dim()
	switch idx := e.idx.(type) {
	case *Exact:
		if !r.wantGraph(n, dim) || r.graphBytes(n, dim) > r.maxBytes {
			return
		}
	case *HNSW:
		small := int64(n)*int64(dim)*2 < r.exactMax
		if !small && idx.Garbage() <= n/4 {
			return
		}
	}
	e.building = true
	e.pending = []op{}
	r.wg.Add(1)
	go r.rebuild(e)
}

// graphBytes estimates a graph of n vectors: the slab as Exact holds it plus
// the links (2M+1 words a node on layer 0, a little more above).
func (r *Registry) graphBytes(n, dim int) int64 {
	p := r.cfg.HNSW.withDefaults()
	per := int64(r.cfg.Encoding.EncodedLen(dim)) + 8 + 8 + 1 + mapEntryBytes + int64(2*p.M+1)*4 + 4 + 2 + 24
	return int64(n) * per
}

// rebuild builds a fresh index from a copy of the live one's vectors while
// the old one serves, replays the writes made meanwhile and swaps.
func (r *Registry) rebuild(e *regEntry) {
	defer r.wg.Done()
	r.mu.Lock()
	old := e.idx
	r.mu.Unlock()
	start := time.Now()
	next, err := r.rebuilt(old)
	if err == nil {
		err = r.replay(e, next)
	}
	e.write.Lock()
	defer e.write.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		err = applyOps(next, e.pending)
	}
	e.pending, e.building = nil, false
	if r.m[e.key] != e || e.idx != old {
		return
	}
	if err != nil {
		if r.ctx.Err() == nil {
			r.log.Error("vector index rebuild failed", "account", e.key.account, "model", e.key.model, "err", err)
		}
		return
	}
	e.idx = next
	r.resizeLocked(e, next.Bytes())
	// A graph of a large account takes minutes to build: say when it starts serving.
	r.log.Info("vector index rebuilt", "account", e.key.account, "model", e.key.model, "kind", kindOf(next),
		"vectors", next.Len(), "seconds", roundSeconds(time.Since(start)))
}

// kindOf names an index's kind as IndexStats does.
func kindOf(idx Index) string {
	switch idx.(type) {
	case *Exact:
		return "exact"
	case *HNSW:
		return "hnsw"
	}
	return fmt.Sprintf("%T", idx)
}

// roundSeconds is d in seconds to a tenth, for a log line.
func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond)) / float64(time.Second)
}

// rebuilt copies old's live vectors into an Exact index and, when the size
// calls for it, turns that into a graph.
func (r *Registry) rebuilt(old Index) (Index, error) {
	var s *slab
	switch o := old.(type) {
	case *Exact:
		o.mu.RLock()
		c := o.s.clone(nil)
		o.mu.RUnlock()
		s = &c
	case *HNSW:
		o.mu.RLock()
		c := o.s.clone(func(i int) bool { return !o.dead[i] })
		o.mu.RUnlock()
		s = &c
	default:
		return nil, fmt.Errorf("vecindex: cannot rebuild a %T", old)
	}
	x := &Exact{s: *s, slot: make(map[int64]int32, s.len())}
	for i, id := range s.ids {
		x.slot[id] = int32(i)
	}
	if !r.wantGraph(s.len(), s.dim) {
		return x, nil
	}
	return hnswFromExact(r.ctx, x, r.cfg.HNSW)
}

// resizeLocked records the entry's new size and evicts others to fit.
func (r *Registry) resizeLocked(e *regEntry, b int64) {
	r.total += b - e.bytes
	e.bytes = b
	for r.total > r.maxBytes {
		victim := r.lru.Back()
		for victim != nil && victim.Value.(*regEntry).bytes == 0 {
			victim = victim.Prev()
		}
		if victim == nil {
			return
		}
		r.dropLocked(victim.Value.(*regEntry))
	}
}

// dropLocked forgets an entry: its memory, its place in the LRU and the
// map. Searches holding its index finish on it.
func (r *Registry) dropLocked(e *regEntry) {
	if r.m[e.key] != e {
		return
	}
	delete(r.m, e.key)
	r.lru.Remove(e.elem)
	r.total -= e.bytes
	e.bytes = 0
}

// IndexStats describes one held index.
type IndexStats struct {
	Account int64
	Model   string
	Kind    string // "exact", "hnsw", "empty", "loading" or "too_large"
	Len     int
	Dim     int
	Bytes   int64 // Index.Bytes when last written
	// Building is true while a load or a background (re)build of the index is in flight:
	// the index searched now (exact while a graph is built) is not its final form yet.
	Building bool
}

// Stats lists the held indexes, most recently searched first.
func (r *Registry) Stats() []IndexStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]IndexStats, 0, r.lru.Len())
	for el := r.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*regEntry)
		st := IndexStats{Account: e.key.account, Model: e.key.model, Bytes: e.bytes, Building: e.building}
		switch idx := e.idx.(type) {
		case *Exact, *HNSW:
			st.Kind, st.Len, st.Dim = kindOf(idx), idx.Len(), idx.Dim()
		default:
			switch {
			case e.err != nil:
				st.Kind = "too_large"
			case e.building:
				st.Kind = "loading"
			default:
				st.Kind = "empty"
			}
		}
		out = append(out, st)
	}
	return out
}

// Bytes is the estimated memory of all held indexes.
func (r *Registry) Bytes() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// settle waits for the background loads and builds started so far (tests).
func (r *Registry) settle() { r.wg.Wait() }
