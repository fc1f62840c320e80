package tokencount

import "math"

// noRank marks a pair of parts that is not a token, or a part merged away.
const noRank = math.MaxUint32

// scanLimit is the piece length, in bytes, from which mergeCount switches from the scan to
// the heap. Below it the scan's O(n²) costs less than the heap's bookkeeping and needs no
// allocation; above it (long runs of unspaced script, base64, hashes) the heap's O(n log n)
// wins.
const scanLimit = 96

// mergeCount returns how many tokens byte-pair encoding makes of piece: starting from
// single bytes, the adjacent pair of parts whose concatenation has the lowest rank merges,
// the leftmost on ties, until no adjacent pair is a token. Every single byte is a token in
// o200k_base, so the parts left are the tokens.
func (v *vocab) mergeCount(piece string) int {
	if len(piece) < scanLimit {
		return v.mergeScan(piece)
	}
	return v.mergeHeap(piece)
}

// pairRank is the rank of piece[a:b], or noRank when that is not a token.
func (v *vocab) pairRank(piece string, a, b int) uint32 {
	if r, ok := v.rank(piece[a:b]); ok {
		return r
	}
	return noRank
}

// mergeScan finds each merge with a linear scan over the parts. It is for pieces shorter
// than scanLimit.
func (v *vocab) mergeScan(piece string) int {
	// part k spans piece[parts[k].start:parts[k+1].start]; the last entry is the end. rank
	// is that of part k merged with part k+1.
	type part struct {
		start int
		rank  uint32
	}
	var buf [scanLimit + 1]part
	parts := buf[:len(piece)+1]
	for i := range parts {
		parts[i] = part{start: i, rank: noRank}
		if i+2 <= len(piece) {
			parts[i].rank = v.pairRank(piece, i, i+2)
		}
	}
	for {
		best, at := uint32(noRank), -1
		for i, p := range parts[:len(parts)-1] {
			if p.rank < best {
				best, at = p.rank, i
			}
		}
		if at < 0 {
			return len(parts) - 1
		}
		parts = append(parts[:at+1], parts[at+2:]...)
		parts[at].rank = noRank
		if at+2 < len(parts) {
			parts[at].rank = v.pairRank(piece, parts[at].start, parts[at+2].start)
		}
		if at > 0 {
			parts[at-1].rank = v.pairRank(piece, parts[at-1].start, parts[at+1].start)
		}
	}
}

// mergeHeap makes the same merges as mergeScan in O(n log n): the parts form a linked list
// and the candidate merges a min-heap, whose entries go stale as their parts change and are
// skipped when popped.
func (v *vocab) mergeHeap(piece string) int {
	n := int32(len(piece))
	// node i is the part that starts at byte i, while it lives; node n is the end. rank is
	// that of the part merged with the next one.
	type node struct {
		prev, next int32
		rank       uint32
	}
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1
	rankAt := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 || nodes[j].next < 0 {
			return noRank
		}
		return v.pairRank(piece, int(i), int(nodes[j].next))
	}
	h := make(mergeHeap, 0, n)
	for i := range n - 1 {
		if r := rankAt(i); r != noRank {
			nodes[i].rank = r
			h = append(h, candidate(r, i))
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		c := h.pop()
		i := int32(uint32(c))
		if nodes[i].rank != uint32(c>>32) {
			continue // stale: the part changed, or was merged away, since it was pushed
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[i].next = k
		nodes[k].prev = i
		nodes[j].rank = noRank
		parts--
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = rankAt(b)
			if nodes[b].rank != noRank {
				h.push(candidate(nodes[b].rank, b))
			}
		}
	}
	return parts
}

// candidate packs a merge as rank<<32 | start, so that ordering the numbers orders by rank
// and then leftmost first.
func candidate(rank uint32, start int32) uint64 {
	return uint64(rank)<<32 | uint64(uint32(start))
}

// mergeHeap is a binary min-heap of candidates. It is typed rather than container/heap so
// that a push does not allocate an interface value.
type mergeHeap []uint64

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c uint64) {
	*h = append(*h, c)
	h.up(len(*h) - 1)
}

func (h *mergeHeap) pop() uint64 {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h mergeHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent] <= h[i] {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h mergeHeap) down(i int) {
	for {
		child := 2*i + 1
		if child >= len(h) {
			return
		}
		if right := child + 1; right < len(h) && h[right] < h[child] {
			child = right
		}
		if h[i] <= h[child] {
			return
		}
		h[i], h[child] = h[child], h[i]
		i = child
	}
}
