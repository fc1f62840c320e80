package vecindex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// HNSW is a hierarchical navigable small-world graph (Malkov and Yashunin,
// 2018, arXiv:1603.09320) over the same slab of quantized vectors as Exact: a
// search walks down sparse upper layers to a good entry point, then explores
// the dense bottom layer with a beam of EfSearch candidates. It scores a few
// thousand vectors where Exact scores all of them, and its results are
// approximate (recall@10 against Exact in BENCHMARKS.md).
//
// Removal marks a node dead: it still routes searches but is never returned.
// Replacing a chunk's vector adds a node and kills the old one. Garbage says
// how many dead nodes the graph carries; a caller rebuilds when they grow (the
// Registry does at a quarter of the nodes).
type HNSW struct {
	mu   sync.RWMutex
	s    slab
	p    HNSWParams
	m0   int             // links kept per node on layer 0: 2M
	slot map[int64]int32 // live chunk id → node

	dead  []bool
	nDead int

	level  []uint8
	links0 []uint32   // node × (m0+1): a count, then the neighbours
	upper  [][]uint32 // node → layers 1..level, each (M+1): a count, then the neighbours

	entry    int32 // -1 while empty
	maxLevel int
	mL       float64
	rng      *rand.Rand

	visits sync.Pool // *visitSet
}

// HNSWParams are the graph's construction and search settings.
type HNSWParams struct {
	// M is the links a node keeps on each upper layer; layer 0 keeps 2M.
	M int
	// EfConstruction is the beam width while inserting.
	EfConstruction int
	// EfSearch is the beam width while searching (at least k).
	EfSearch int
	// Seed makes the level draws, and so the graph, reproducible.
	Seed uint64
}

// DefaultHNSWParams are the settings measured in BENCHMARKS.md: recall@10
// against exact search of 0.96–1.0 at 10k clustered vectors (384 and 1024
// dimensions) and 0.98 at 50k × 1024, p99 0.7–4 ms; on a nearly uniform 50k ×
// 384 set 0.82, which needs EfSearch 768 to reach 0.95.
var DefaultHNSWParams = HNSWParams{M: 16, EfConstruction: 100, EfSearch: 96, Seed: 1}

func (p HNSWParams) withDefaults() HNSWParams {
	d := DefaultHNSWParams
	if p.M > 0 {
		d.M = p.M
	}
	if p.EfConstruction > 0 {
		d.EfConstruction = p.EfConstruction
	}
	if p.EfSearch > 0 {
		d.EfSearch = p.EfSearch
	}
	if p.Seed != 0 {
		d.Seed = p.Seed
	}
	return d
}

// NewHNSW returns an empty graph of vectors of dim components stored in enc.
// Zero fields of p take DefaultHNSWParams' values.
func NewHNSW(dim int, enc Encoding, p HNSWParams) (*HNSW, error) {
	s, err := newSlab(dim, enc)
	if err != nil {
		return nil, err
	}
	return newHNSWOver(s, p), nil
}

func newHNSWOver(s slab, p HNSWParams) *HNSW {
	p = p.withDefaults()
	if p.M < 2 || p.M > 127 {
		p.M = DefaultHNSWParams.M
	}
	return &HNSW{
		s:     s,
		p:     p,
		m0:    2 * p.M,
		slot:  map[int64]int32{},
		entry: -1,
		mL:    1 / math.Log(float64(p.M)),
		rng:   rand.New(rand.NewPCG(p.Seed, p.Seed^0x9e3779b97f4a7c15)),
	}
}

// hnswFromExact builds a graph over x's vectors, taking x's slab: x must not
// be used afterwards. It stops early, with ctx's error, when ctx ends.
func hnswFromExact(ctx context.Context, x *Exact, p HNSWParams) (*HNSW, error) {
	x.mu.Lock()
	s := x.s
	x.s = slab{}
	x.slot = nil
	x.mu.Unlock()
	h := newHNSWOver(s, p)
	n := s.len()
	h.dead = make([]bool, 0, n)
	h.level = make([]uint8, 0, n)
	h.links0 = make([]uint32, 0, n*(h.m0+1))
	h.upper = make([][]uint32, 0, n)
	for i := range n {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		h.slot[s.ids[i]] = int32(i)
		h.link(i)
	}
	return h, nil
}

// Add stores vec as chunk id's vector; a previous vector of id is killed.
func (h *HNSW) Add(id, doc int64, lang string, vec []float32) error {
	unit, err := h.s.toUnit(vec)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	code, err := h.s.langCode(lang)
	if err != nil {
		return err
	}
	if uint64(h.s.len()) >= math.MaxInt32 {
		return fmt.Errorf("vecindex: graph is full")
	}
	h.kill(id)
	i := h.s.len()
	h.s.append(id, doc, code, unit)
	h.slot[id] = int32(i)
	h.link(i)
	return nil
}

// Remove kills chunk id's node.
func (h *HNSW) Remove(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.kill(id)
}

func (h *HNSW) kill(id int64) bool {
	i, ok := h.slot[id]
	if !ok {
		return false
	}
	delete(h.slot, id)
	h.dead[i] = true
	h.nDead++
	return true
}

// Len is the number of live chunks.
func (h *HNSW) Len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.slot)
}

// Garbage is the number of dead nodes the graph still carries.
func (h *HNSW) Garbage() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.nDead
}

// Dim is the vectors' dimension.
func (h *HNSW) Dim() int { return h.s.dim }

// Encoding is the encoding the vectors are held in.
func (h *HNSW) Encoding() Encoding { return h.s.enc }

// Bytes estimates the graph's memory: the slab, the links, the per-node
// arrays and the id map.
func (h *HNSW) Bytes() int64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	b := h.s.bytes() + int64(cap(h.links0))*4 + int64(cap(h.dead)) + int64(cap(h.level)) +
		int64(cap(h.upper))*24 + int64(len(h.slot))*mapEntryBytes
	for _, u := range h.upper {
		b += int64(cap(u)) * 4
	}
	return b
}

// links returns node i's neighbour block on layer lc: a count, then room for
// the neighbours.
func (h *HNSW) links(i int, lc int) []uint32 {
	if lc == 0 {
		w := h.m0 + 1
		return h.links0[i*w : (i+1)*w]
	}
	w := h.p.M + 1
	return h.upper[i][(lc-1)*w : lc*w]
}

func (h *HNSW) randomLevel() int {
	l := int(-math.Log(1-h.rng.Float64()) * h.mL)
	return min(l, 31)
}

// cand is a node with its similarity to the vector being placed or sought.
type cand struct {
	node  uint32
	score float32
}

func worseCand(a, b cand) bool  { return a.score < b.score }
func betterCand(a, b cand) bool { return a.score > b.score }

// link gives the already stored node i its level and its links (Algorithm 1).
func (h *HNSW) link(i int) {
	lvl := h.randomLevel()
	h.dead = append(h.dead, false)
	h.level = append(h.level, uint8(lvl))
	h.links0 = append(h.links0, make([]uint32, h.m0+1)...)
	var up []uint32
	if lvl > 0 {
		up = make([]uint32, lvl*(h.p.M+1))
	}
	h.upper = append(h.upper, up)
	if h.entry < 0 {
		h.entry, h.maxLevel = int32(i), lvl
		return
	}
	scoreTo := func(j int) float32 { return h.s.scorePair(i, j) }
	ep := cand{uint32(h.entry), scoreTo(int(h.entry))}
	for lc := h.maxLevel; lc > lvl; lc-- {
		ep = h.greedy(scoreTo, ep, lc)
	}
	vs := h.visitSet()
	defer h.visits.Put(vs)
	eps := []cand{ep}
	for lc := min(lvl, h.maxLevel); lc >= 0; lc-- {
		w := h.searchLayer(scoreTo, eps, h.p.EfConstruction, lc, nil, vs)
		slices.SortFunc(w, func(a, b cand) int { return cmpScore(b.score, a.score) })
		sel := h.selectNeighbors(w, h.p.M)
		own := h.links(i, lc)
		own[0] = uint32(len(sel))
		for j, c := range sel {
			own[1+j] = c.node
		}
		for _, c := range sel {
			h.connect(int(c.node), i, c.score, lc)
		}
		eps = w
	}
	if lvl > h.maxLevel {
		h.entry, h.maxLevel = int32(i), lvl
	}
}

func cmpScore(a, b float32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// connect adds node n to e's links on layer lc. A full list drops its
// farthest link instead (n itself when it is the farthest): running the
// heuristic again there cost a third of the build for no recall measured
// (BENCHMARKS.md, "Vector search").
func (h *HNSW) connect(e, n int, score float32, lc int) {
	bl := h.links(e, lc)
	limit := h.p.M
	if lc == 0 {
		limit = h.m0
	}
	cnt := int(bl[0])
	if cnt < limit {
		bl[1+cnt] = uint32(n)
		bl[0]++
		return
	}
	worst, ws := -1, score
	for j, o := range bl[1 : 1+cnt] {
		if sc := h.s.scorePair(e, int(o)); sc < ws {
			worst, ws = j, sc
		}
	}
	if worst >= 0 {
		bl[1+worst] = uint32(n)
	}
}

// selectNeighbors is Algorithm 4's heuristic over candidates sorted best
// first: a candidate is kept only when it is nearer the new node than any
// kept one, so links point in different directions and clusters stay
// connected to each other.
func (h *HNSW) selectNeighbors(cs []cand, m int) []cand {
	kept := make([]cand, 0, m)
	for _, c := range cs {
		if len(kept) == m {
			break
		}
		good := true
		for _, r := range kept {
			if h.s.scorePair(int(c.node), int(r.node)) > c.score {
				good = false
				break
			}
		}
		if good {
			kept = append(kept, c)
		}
	}
	return kept
}

// greedy walks layer lc from ep to the node nearest the target.
func (h *HNSW) greedy(scoreTo func(int) float32, ep cand, lc int) cand {
	for changed := true; changed; {
		changed = false
		bl := h.links(int(ep.node), lc)
		for _, n := range bl[1 : 1+bl[0]] {
			if sc := scoreTo(int(n)); sc > ep.score {
				ep, changed = cand{n, sc}, true
			}
		}
	}
	return ep
}

// searchLayer is Algorithm 2: a beam search of width ef on layer lc from eps.
// With pass set, only nodes it accepts enter the results, and the search goes
// on until ef of them are found or the reachable graph is exhausted (the
// filtered search of hnswlib); nil accepts every node, dead ones included,
// which is what insertion wants.
func (h *HNSW) searchLayer(scoreTo func(int) float32, eps []cand, ef, lc int, pass func(int) bool, vs *visitSet) []cand {
	vs.reset(h.s.len())
	next := heap[cand]{less: betterCand}
	res := heap[cand]{items: make([]cand, 0, ef+1), less: worseCand}
	for _, e := range eps {
		vs.mark(int(e.node))
		next.push(e)
		if pass == nil || pass(int(e.node)) {
			res.push(e)
			if res.len() > ef {
				res.pop()
			}
		}
	}
	for next.len() > 0 {
		c := next.pop()
		if res.len() == ef && c.score < res.top().score {
			break
		}
		bl := h.links(int(c.node), lc)
		for _, n := range bl[1 : 1+bl[0]] {
			if vs.seen(int(n)) {
				continue
			}
			vs.mark(int(n))
			sc := scoreTo(int(n))
			if res.len() < ef || sc > res.top().score {
				next.push(cand{n, sc})
				if pass == nil || pass(int(n)) {
					res.push(cand{n, sc})
					if res.len() > ef {
						res.pop()
					}
				}
			}
		}
	}
	return res.items
}

// Search returns the k best live chunks passing f that a beam of
// max(EfSearch, k) finds.
func (h *HNSW) Search(q []float32, k int, f Filter) ([]Hit, error) {
	if len(q) != h.s.dim {
		return nil, ErrDim
	}
	unit, err := normalized(q)
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.entry < 0 {
		return nil, nil
	}
	acc := h.s.compile(f)
	if acc.none {
		return nil, nil
	}
	qq := h.s.prepare(unit)
	scoreTo := func(j int) float32 { return h.s.score(&qq, j) }
	ep := cand{uint32(h.entry), scoreTo(int(h.entry))}
	for lc := h.maxLevel; lc > 0; lc-- {
		ep = h.greedy(scoreTo, ep, lc)
	}
	pass := func(j int) bool { return !h.dead[j] && (acc.everyone || acc.ok(&h.s, j)) }
	vs := h.visitSet()
	w := h.searchLayer(scoreTo, []cand{ep}, max(h.p.EfSearch, k), 0, pass, vs)
	h.visits.Put(vs)
	hits := make([]Hit, len(w))
	for j, c := range w {
		hits[j] = h.s.hit(int(c.node), c.score)
	}
	sortHits(hits)
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits, nil
}

// visitSet marks visited nodes with a generation number, so clearing it
// between searches costs nothing.
type visitSet struct {
	gen   uint32
	marks []uint32
}

func (h *HNSW) visitSet() *visitSet {
	if v, ok := h.visits.Get().(*visitSet); ok {
		return v
	}
	return &visitSet{}
}

func (v *visitSet) reset(n int) {
	if len(v.marks) < n {
		v.marks = make([]uint32, n+n/4)
		v.gen = 0
	}
	v.gen++
	if v.gen == 0 {
		clear(v.marks)
		v.gen = 1
	}
}

func (v *visitSet) seen(i int) bool { return v.marks[i] == v.gen }
func (v *visitSet) mark(i int)      { v.marks[i] = v.gen }
