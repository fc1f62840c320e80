package vecindex

import (
	"context"
	"errors"
	"iter"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeStore is what a store's vector table would hold, per account, with a
// count of loads and an optional gate a load waits on.
type fakeStore struct {
	mu    sync.Mutex
	rows  map[int64][]Entry
	loads atomic.Int32
	gate  chan struct{} // when set, a load waits for it after yielding the rows
	fail  error
}

func newFakeStore() *fakeStore { return &fakeStore{rows: map[int64][]Entry{}} }

func (s *fakeStore) put(t *testing.T, account, id int64, lang string, v []float32) {
	t.Helper()
	b, err := Encode(Int8, v)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.rows[account] = append(s.rows[account], Entry{ID: id, Doc: id * 10, Lang: lang, Vector: b})
	s.mu.Unlock()
}

func (s *fakeStore) del(account, id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rows := s.rows[account][:0]
	for _, r := range s.rows[account] {
		if r.ID != id {
			rows = append(rows, r)
		}
	}
	s.rows[account] = rows
}

func (s *fakeStore) load(ctx context.Context, account int64, model string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		s.loads.Add(1)
		s.mu.Lock()
		rows := append([]Entry(nil), s.rows[account]...)
		gate, fail := s.gate, s.fail
		s.mu.Unlock()
		if fail != nil {
			yield(Entry{}, fail)
			return
		}
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
		if gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
				yield(Entry{}, ctx.Err())
			}
		}
	}
}

func newReg(t *testing.T, s *fakeStore, cfg Config) *Registry {
	t.Helper()
	cfg.Load = s.load
	r, err := NewRegistry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func unitAxis(dim, axis int) []float32 {
	v := make([]float32, dim)
	v[axis] = 1
	return v
}

func TestRegistryLoadsLazilyAndSearches(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	for i := range 8 {
		s.put(t, 1, int64(100+i), "en", unitAxis(8, i))
	}
	r := newReg(t, s, Config{})
	if s.loads.Load() != 0 {
		t.Fatal("loaded before any search")
	}
	got, err := r.Search(context.Background(), 1, "m", unitAxis(8, 3), 1, Filter{})
	if err != nil || len(got) != 1 || got[0].ID != 103 {
		t.Fatalf("search = %v, %v", got, err)
	}
	r.Search(context.Background(), 1, "m", unitAxis(8, 4), 1, Filter{})
	if n := s.loads.Load(); n != 1 {
		t.Errorf("%d loads for two searches", n)
	}
	st := r.Stats()
	if len(st) != 1 || st[0].Kind != "exact" || st[0].Len != 8 || st[0].Dim != 8 || st[0].Bytes <= 0 || r.Bytes() != st[0].Bytes {
		t.Errorf("stats = %+v, bytes %d", st, r.Bytes())
	}
	// Another model of the same account is another index.
	r.Search(context.Background(), 1, "other", unitAxis(8, 4), 1, Filter{})
	if n := s.loads.Load(); n != 2 {
		t.Errorf("%d loads after a second model", n)
	}
}

func TestRegistryCoalescesLoads(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	s.put(t, 1, 7, "en", unitAxis(4, 0))
	s.gate = make(chan struct{})
	r := newReg(t, s, Config{})
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	started := make(chan struct{}, n)
	for range n {
		wg.Go(func() {
			started <- struct{}{}
			got, err := r.Search(context.Background(), 1, "m", unitAxis(4, 0), 1, Filter{})
			if err == nil && (len(got) != 1 || got[0].ID != 7) {
				err = errors.New("wrong result")
			}
			errs <- err
		})
	}
	for range n {
		<-started
	}
	// A search that gives up does not cancel the load the others wait for.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Search(ctx, 1, "m", unitAxis(4, 0), 1, Filter{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
	close(s.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := s.loads.Load(); got != 1 {
		t.Errorf("%d loads for %d concurrent searches", got, n)
	}
}

func TestRegistryEvictsLeastRecentlyUsedByBytes(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	const dim = 64
	for acc := int64(1); acc <= 3; acc++ {
		for i := range 200 {
			s.put(t, acc, int64(i), "en", randomUnit(uint64(acc*1000+int64(i)), 1, dim)[0])
		}
	}
	// Measure one index, then allow two and a half.
	probe := newReg(t, s, Config{})
	probe.Search(context.Background(), 1, "m", unitAxis(dim, 0), 1, Filter{})
	one := probe.Bytes()
	s.loads.Store(0)
	r := newReg(t, s, Config{MaxBytes: one * 5 / 2})
	ctx := context.Background()
	q := unitAxis(dim, 0)
	r.Search(ctx, 1, "m", q, 1, Filter{})
	r.Search(ctx, 2, "m", q, 1, Filter{})
	r.Search(ctx, 1, "m", q, 1, Filter{}) // 1 is now the most recent
	r.Search(ctx, 3, "m", q, 1, Filter{}) // evicts 2
	held := map[int64]bool{}
	for _, st := range r.Stats() {
		held[st.Account] = true
	}
	if !held[1] || held[2] || !held[3] {
		t.Errorf("held %v, want 1 and 3", held)
	}
	if r.Bytes() > one*5/2 {
		t.Errorf("%d bytes held, bound %d", r.Bytes(), one*5/2)
	}
	if n := s.loads.Load(); n != 3 {
		t.Errorf("%d loads, want 3", n)
	}
	r.Search(ctx, 2, "m", q, 1, Filter{}) // reloads 2, evicts 1
	if n := s.loads.Load(); n != 4 {
		t.Errorf("%d loads after searching the evicted account, want 4", n)
	}
	// An index alone above the bound is refused, and remembered.
	small := newReg(t, s, Config{MaxBytes: one / 2})
	for range 2 {
		if _, err := small.Search(ctx, 1, "m", q, 1, Filter{}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("oversized index: %v", err)
		}
	}
	if st := small.Stats(); len(st) != 1 || st[0].Kind != "too_large" || small.Bytes() != 0 {
		t.Errorf("stats %+v bytes %d", st, small.Bytes())
	}
}

func TestRegistryWritesOnlyWhenLoaded(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	s.put(t, 1, 1, "en", unitAxis(4, 0))
	r := newReg(t, s, Config{})
	ctx := context.Background()
	// Not loaded: nothing happens, and the load reads the store.
	if err := r.Add(1, "m", 2, 2, "en", unitAxis(4, 1)); err != nil {
		t.Fatal(err)
	}
	if s.loads.Load() != 0 || len(r.Stats()) != 0 {
		t.Fatal("a write loaded the index")
	}
	got, _ := r.Search(ctx, 1, "m", unitAxis(4, 1), 5, Filter{})
	if !equal(ids(got), []int64{1}) {
		t.Fatalf("search = %v", ids(got))
	}
	// Loaded: writes go into the index.
	r.Add(1, "m", 2, 2, "de", unitAxis(4, 1))
	got, _ = r.Search(ctx, 1, "m", unitAxis(4, 1), 1, Filter{Langs: []string{"de"}})
	if !equal(ids(got), []int64{2}) {
		t.Fatalf("after Add: %v", ids(got))
	}
	r.Remove(1, "m", 1)
	got, _ = r.Search(ctx, 1, "m", unitAxis(4, 0), 5, Filter{})
	if !equal(ids(got), []int64{2}) {
		t.Fatalf("after Remove: %v", ids(got))
	}
	if err := r.Add(1, "m", 3, 3, "en", []float32{1, 2}); !errors.Is(err, ErrDim) {
		t.Errorf("wrong dimension: %v", err)
	}
	if err := r.Add(1, "m", 3, 3, "en", []float32{0, 0, 0, 0}); !errors.Is(err, ErrZeroVector) {
		t.Errorf("zero vector: %v", err)
	}
	// Invalidate drops the index; the next search loads again.
	r.Invalidate(1)
	if len(r.Stats()) != 0 || r.Bytes() != 0 {
		t.Fatalf("after Invalidate: %+v", r.Stats())
	}
	r.Search(ctx, 1, "m", unitAxis(4, 0), 1, Filter{})
	if s.loads.Load() != 2 {
		t.Errorf("%d loads", s.loads.Load())
	}
}

func TestRegistryKeepsWritesMadeDuringALoad(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	s.put(t, 1, 1, "en", unitAxis(4, 0))
	s.put(t, 1, 2, "en", unitAxis(4, 1))
	s.gate = make(chan struct{})
	r := newReg(t, s, Config{})
	done := make(chan []Hit)
	go func() {
		got, _ := r.Search(context.Background(), 1, "m", unitAxis(4, 2), 5, Filter{})
		done <- got
	}()
	// Wait until the load is in flight: the entry exists and is loading.
	for len(r.Stats()) == 0 || s.loads.Load() == 0 {
		syncYield()
	}
	if st := r.Stats(); st[0].Kind != "loading" || !st[0].Building {
		t.Errorf("stats during the load: %+v", st)
	}
	// The store has committed chunk 3 after the loader read its rows, and
	// removed chunk 1.
	r.Add(1, "m", 3, 3, "en", unitAxis(4, 2))
	r.Remove(1, "m", 1)
	close(s.gate)
	got := <-done
	if !equal(ids(got), []int64{3, 2}) {
		t.Errorf("search after a load with writes = %v, want 3 2", ids(got))
	}
}

func TestRegistryEmptyAccountTakesFirstVector(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	r := newReg(t, s, Config{})
	ctx := context.Background()
	if got, err := r.Search(ctx, 9, "m", unitAxis(4, 0), 3, Filter{}); err != nil || len(got) != 0 {
		t.Fatalf("empty account: %v %v", got, err)
	}
	if st := r.Stats(); len(st) != 1 || st[0].Kind != "empty" {
		t.Fatalf("stats %+v", st)
	}
	r.Add(9, "m", 5, 5, "tr", unitAxis(4, 0))
	if got, _ := r.Search(ctx, 9, "m", unitAxis(4, 0), 3, Filter{}); !equal(ids(got), []int64{5}) {
		t.Errorf("after the first Add: %v", ids(got))
	}
}

func TestRegistryLoadFailureIsRetried(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	s.put(t, 1, 1, "en", unitAxis(4, 0))
	s.fail = errors.New("database is down")
	r := newReg(t, s, Config{})
	if _, err := r.Search(context.Background(), 1, "m", unitAxis(4, 0), 1, Filter{}); err == nil {
		t.Fatal("a failed load answered")
	}
	s.mu.Lock()
	s.fail = nil
	s.mu.Unlock()
	got, err := r.Search(context.Background(), 1, "m", unitAxis(4, 0), 1, Filter{})
	if err != nil || !equal(ids(got), []int64{1}) {
		t.Errorf("after recovery: %v %v", ids(got), err)
	}
}

func TestRegistryUpgradesToGraphAndCompacts(t *testing.T) {
	t.Parallel()
	const n, dim = 1200, 32
	s := newFakeStore()
	vs := clustered(8, n+40, dim, 20, 0.6)
	for i, v := range vs[:n] {
		s.put(t, 1, int64(i), "en", v)
	}
	// A threshold of 1000 vectors: the account starts above it.
	r := newReg(t, s, Config{ExactMaxComponents: 1000 * dim})
	ctx := context.Background()
	first, err := r.Search(ctx, 1, "m", vs[n], 10, Filter{})
	if err != nil || len(first) != 10 {
		t.Fatalf("first search: %v %v", first, err)
	}
	// The exact index serves while the graph is built, and says so.
	if st := r.Stats(); !(st[0].Kind == "exact" && st[0].Building || st[0].Kind == "hnsw" && !st[0].Building) {
		t.Errorf("stats after the first search: %+v", st)
	}
	r.settle()
	if st := r.Stats(); st[0].Kind != "hnsw" || st[0].Len != n || st[0].Building {
		t.Fatalf("after the background build: %+v", st)
	}
	got, _ := r.Search(ctx, 1, "m", vs[n], 10, Filter{})
	if hitRecall(first, got) < 0.9 {
		t.Errorf("graph results %v, exact %v", ids(got), ids(first))
	}
	// Both indexes name the document and language each vector was loaded with.
	for _, h := range append(first, got...) {
		if h.Doc != h.ID*10 || h.Lang != "en" {
			t.Errorf("hit %+v", h)
		}
	}
	// Removing a third kills graph nodes past a quarter: a compacting
	// rebuild; shrinking below half the threshold: back to exact.
	for i := range 700 {
		r.Remove(1, "m", int64(i))
	}
	r.settle()
	st := r.Stats()
	if st[0].Kind != "exact" || st[0].Len != n-700 {
		t.Fatalf("after removals: %+v", st)
	}
	got, _ = r.Search(ctx, 1, "m", vs[n], 10, Filter{})
	for _, h := range got {
		if h.ID < 700 {
			t.Errorf("removed chunk %d returned", h.ID)
		}
	}
}

func TestRegistryConcurrentSearchAndWrite(t *testing.T) {
	t.Parallel()
	const dim = 32
	s := newFakeStore()
	vs := clustered(9, 900, dim, 10, 0.6)
	for i, v := range vs[:300] {
		s.put(t, 1, int64(i), "en", v)
	}
	r := newReg(t, s, Config{ExactMaxComponents: 400 * dim})
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 150 {
				q := vs[(w*150+i)%len(vs)]
				if _, err := r.Search(ctx, 1, "m", q, 5, Filter{Langs: []string{"en"}}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		// As the embedding worker will: commit to the store, then tell the
		// registry.
		for i := 300; i < 900; i++ {
			s.put(t, 1, int64(i), "en", vs[i])
			if err := r.Add(1, "m", int64(i), int64(i), "en", vs[i]); err != nil {
				t.Error(err)
				return
			}
			if i%3 == 0 {
				s.del(1, int64(i-300))
				r.Remove(1, "m", int64(i-300))
			}
		}
	})
	wg.Wait()
	r.settle()
	// Whatever the interleaving, the index ends as the writes left it.
	want := 0
	for i := range 900 {
		if !(i < 600 && (i+300)%3 == 0) {
			want++
		}
	}
	if st := r.Stats(); len(st) == 1 && st[0].Len != want {
		t.Errorf("index holds %d, want %d (%+v)", st[0].Len, want, st)
	}
}

func TestRegistryClose(t *testing.T) {
	t.Parallel()
	s := newFakeStore()
	s.put(t, 1, 1, "en", unitAxis(4, 0))
	s.gate = make(chan struct{})
	r, _ := NewRegistry(Config{Load: s.load})
	done := make(chan error)
	go func() {
		_, err := r.Search(context.Background(), 1, "m", unitAxis(4, 0), 1, Filter{})
		done <- err
	}()
	for s.loads.Load() == 0 {
		syncYield()
	}
	r.Close() // ends the load waiting on the gate
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("search during Close: %v", err)
	}
	if _, err := r.Search(context.Background(), 1, "m", unitAxis(4, 0), 1, Filter{}); !errors.Is(err, ErrClosed) {
		t.Errorf("search after Close: %v", err)
	}
	if _, err := NewRegistry(Config{}); err == nil {
		t.Error("a registry without a loader")
	}
}
