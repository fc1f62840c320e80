package vecindex

// heap is a binary heap whose root is the least item by less. Searches use it
// twice: results kept with the worst at the root (so a better one replaces it
// in O(log k)), and graph candidates with the best at the root.
type heap[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (h *heap[T]) len() int { return len(h.items) }

func (h *heap[T]) top() T { return h.items[0] }

func (h *heap[T]) push(x T) {
	h.items = append(h.items, x)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.items[i], h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *heap[T]) pop() T {
	top := h.items[0]
	n := len(h.items) - 1
	h.items[0] = h.items[n]
	h.items = h.items[:n]
	h.down(0)
	return top
}

// replaceTop swaps the root for x, cheaper than a pop and a push.
func (h *heap[T]) replaceTop(x T) {
	h.items[0] = x
	h.down(0)
}

func (h *heap[T]) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(h.items[r], h.items[l]) {
			m = r
		}
		if !h.less(h.items[m], h.items[i]) {
			return
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
}

// worseHit orders hits worst first: lower score, then higher id, so the
// root of a result heap is the hit a better one evicts.
func worseHit(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

// topK keeps the k best hits seen.
type topK struct {
	k int
	h heap[Hit]
}

func newTopK(k int) *topK {
	return &topK{k: k, h: heap[Hit]{items: make([]Hit, 0, k), less: worseHit}}
}

// full says whether k hits are kept; then min is the score to beat.
func (t *topK) full() bool { return t.h.len() == t.k }

func (t *topK) min() float32 { return t.h.top().Score }

func (t *topK) offer(h Hit) {
	if t.h.len() < t.k {
		t.h.push(h)
		return
	}
	if worseHit(t.h.top(), h) {
		t.h.replaceTop(h)
	}
}

// sorted returns the kept hits best first.
func (t *topK) sorted() []Hit {
	out := make([]Hit, len(t.h.items))
	copy(out, t.h.items)
	sortHits(out)
	return out
}
