package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"svc/internal/store"
)

// Semantic is retrieval by meaning beside the keyword index (issue 25): the chunks whose
// embeddings are nearest the question's, and an optional reranker. An implementation
// degrades instead of failing: with no provider configured, during an outage, or for an
// account whose KB is not embedded yet it returns no hits and a nil error, and the engine
// answers from keyword search alone, as it does without one.
type Semantic interface {
	// SearchVectors returns at most k of the account's chunks nearest the question in
	// meaning, best first, in any language of the KB (the caller filters).
	SearchVectors(ctx context.Context, accountID int64, question string, k int) (VectorSearch, error)
	// Rerank scores texts by how well each answers question (higher is better), one score
	// a text, or returns nil when no reranker is configured or it failed.
	Rerank(ctx context.Context, question string, texts []string) []float64
	// Reranks reports whether a reranker is configured: without one the engine does not read
	// the texts Rerank would be given.
	Reranks() bool
}

// VectorSearch is what SearchVectors found.
type VectorSearch struct {
	Hits  []VectorHit
	Model string // the embedding model; "" when nothing was searched
	// Tokens are the embedding tokens this search spent on the question (0 when its
	// embedding was remembered), billed once with the reply.
	Tokens int
}

// VectorHit is one chunk found by meaning, with its document and language as the index
// holds them (fixed for a chunk's lifetime), which is all the engine needs of most hits: it
// reads from the store only the chunks a reply or a passage list may show. A DocID of 0
// says the implementation does not know them, and the chunk is read at once.
type VectorHit struct {
	ChunkID int64
	DocID   int64
	Lang    string
	Score   float64 // cosine similarity of the question's and the chunk's embeddings
}

// vecCand is a chunk found by meaning, with what the decision reads of it. Until read, its
// hit holds only the chunk, document and language ids of the VectorHit.
type vecCand struct {
	hit    store.ChunkHit
	read   bool // hit is the store's row
	cos    float64
	rerank float64 // the reranker's score; NaN without one
}

// semanticRead is what retrieval by meaning found for one question.
type semanticRead struct {
	cands  []vecCand // best first: by the reranker's score when it ran, else by similarity
	model  string
	tokens int
	// z is how far the nearest chunk stands above the others: its similarity less the mean
	// of the rest of the list, in standard deviations of the rest. A scale-free reading, so
	// that it means the same for models whose similarities crowd near 0.8 and for those that
	// spread them from 0.1 to 0.6.
	z        float64
	reranked bool
}

// minVectorList is the shortest list of hits z is read from: with fewer there is no "rest"
// to stand out from.
const minVectorList = 5

// semanticSearch runs the question's search by meaning beside the keyword search and returns
// its outcome through the channel it gives back, so that the provider's time overlaps the
// keyword index's.
func (e *Engine) semanticSearch(ctx context.Context, accountID int64, question string) <-chan vectorOutcome {
	out := make(chan vectorOutcome, 1)
	go func() {
		vs, err := e.opts.Semantic.SearchVectors(ctx, accountID, question, e.opts.Candidates)
		out <- vectorOutcome{vs, err}
	}()
	return out
}

type vectorOutcome struct {
	vs  VectorSearch
	err error
}

// attachVectors puts the chunks the search by meaning found into r.sem, best first. The
// keyword ranking is left as it is: the extractive answer reads words, and a chunk that shares
// none with the question has nothing for it. A chunk the keyword search brought is taken from
// it; the others are read from the store only when something shows them (readSemantic), since
// the decision and the fusion need only their similarity, document and language: of the 50
// hits a question has, a reply quotes one and a passage list shows a few. A hit whose
// document the implementation did not name is read now.
func (e *Engine) attachVectors(ctx context.Context, accountID int64, r *retrieval, vs VectorSearch) error {
	r.sem = &semanticRead{model: vs.Model, tokens: vs.Tokens, z: math.Inf(-1)}
	if len(vs.Hits) == 0 {
		return nil
	}
	known := make(map[int64]store.ChunkHit, len(r.ranked))
	for _, c := range r.ranked {
		known[c.hit.ChunkID] = c.hit
	}
	cands := make([]vecCand, 0, len(vs.Hits))
	for _, h := range vs.Hits {
		c := vecCand{hit: store.ChunkHit{ChunkID: h.ChunkID, DocID: h.DocID, Lang: h.Lang}, cos: h.Score, rerank: math.NaN()}
		if hit, ok := known[h.ChunkID]; ok {
			c.hit, c.read = hit, true
		}
		cands = append(cands, c)
	}
	r.sem.cands = cands
	r.sem.z = standOut(cands)
	return e.readCands(ctx, accountID, r.sem, func(c *vecCand) bool { return c.hit.DocID == 0 })
}

// semWants says which chunks found by meaning a caller of retrieve shows, so that only those
// are read: the best one in the question's language, which a reply may quote (pick), and the
// chunks that stand for a document among the best passages of the fused ranking.
type semWants struct {
	pick     bool
	passages int
}

// readSemantic reads the chunks found by meaning that want names and that are not read yet,
// until every one of them is: a chunk deleted since it was embedded drops out of the list,
// and the next one may be wanted in its place.
func (e *Engine) readSemantic(ctx context.Context, accountID int64, r *retrieval, lang string, want semWants) error {
	s := r.sem
	if s == nil {
		return nil
	}
	for {
		need := map[int64]bool{}
		if want.pick {
			if i := s.bestIn(lang); i >= 0 && !s.cands[i].read {
				need[s.cands[i].hit.ChunkID] = true
			}
		}
		if want.passages > 0 {
			_, order := e.fusedOrder(r, want.passages)
			for _, f := range order {
				if f.sem >= 0 && !s.cands[f.sem].read {
					need[s.cands[f.sem].hit.ChunkID] = true
				}
			}
		}
		if len(need) == 0 {
			return nil
		}
		if err := e.readCands(ctx, accountID, s, func(c *vecCand) bool { return need[c.hit.ChunkID] }); err != nil {
			return err
		}
	}
}

// readTop reads the first n chunks found by meaning (those the reranker scores), with those
// after them moving up in the place of any deleted.
func (e *Engine) readTop(ctx context.Context, accountID int64, s *semanticRead, n int) error {
	for {
		top := s.cands[:min(n, len(s.cands))]
		need := map[int64]bool{}
		for _, c := range top {
			if !c.read {
				need[c.hit.ChunkID] = true
			}
		}
		if len(need) == 0 {
			return nil
		}
		if err := e.readCands(ctx, accountID, s, func(c *vecCand) bool { return need[c.hit.ChunkID] }); err != nil {
			return err
		}
	}
}

// readCands reads the unread chunks that want accepts in one store call. A chunk the store
// no longer holds (deleted since it was embedded) leaves the list, and z is read again without
// it, as if the search had not found it.
func (e *Engine) readCands(ctx context.Context, accountID int64, s *semanticRead, want func(*vecCand) bool) error {
	var ids []int64
	for i := range s.cands {
		if c := &s.cands[i]; !c.read && want(c) {
			ids = append(ids, c.hit.ChunkID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	got, err := e.kb.ChunksByID(ctx, accountID, ids)
	if err != nil {
		return fmt.Errorf("engine: chunks by id: %w", err)
	}
	rows := make(map[int64]store.ChunkHit, len(got))
	for _, h := range got {
		rows[h.ChunkID] = h
	}
	asked := make(map[int64]bool, len(ids))
	for _, id := range ids {
		asked[id] = true
	}
	kept, dropped := s.cands[:0], false
	for _, c := range s.cands {
		if asked[c.hit.ChunkID] {
			h, ok := rows[c.hit.ChunkID]
			if !ok {
				dropped = true
				continue
			}
			c.hit, c.read = h, true
		}
		kept = append(kept, c)
	}
	s.cands = kept
	if dropped {
		// z is read from the similarities, best first, whatever a reranker did to the order.
		byCos := slices.Clone(kept)
		slices.SortStableFunc(byCos, func(a, b vecCand) int { return cmp.Compare(b.cos, a.cos) })
		s.z = standOut(byCos)
	}
	return nil
}

// standOut is semanticRead.z of hits best first.
func standOut(cands []vecCand) float64 {
	if len(cands) < minVectorList {
		return math.Inf(-1)
	}
	rest := cands[1:]
	var sum, sq float64
	for _, c := range rest {
		sum += c.cos
	}
	mean := sum / float64(len(rest))
	for _, c := range rest {
		sq += (c.cos - mean) * (c.cos - mean)
	}
	sd := math.Sqrt(sq / float64(len(rest)))
	if sd < 1e-6 {
		sd = 1e-6
	}
	return (cands[0].cos - mean) / sd
}

// rerankTop is how many of the best candidates by meaning the reranker reads.
const rerankTop = 10

// rerank asks the reranker, when there is one, to order the best candidates by meaning; it
// reads each chunk's title and heading with its text, as a visitor reads the page.
func (e *Engine) rerank(ctx context.Context, question string, s *semanticRead) {
	n := min(len(s.cands), rerankTop)
	if n == 0 {
		return
	}
	texts := make([]string, n)
	for i := range n {
		texts[i] = headText(s.cands[i].hit) + "\n" + s.cands[i].hit.Text
	}
	scores := e.opts.Semantic.Rerank(ctx, question, texts)
	if len(scores) != n {
		return
	}
	for i := range n {
		s.cands[i].rerank = scores[i]
	}
	top := s.cands[:n]
	sort.SliceStable(top, func(i, j int) bool { return top[i].rerank > top[j].rerank })
	s.reranked = true
}

// sortStableBy sorts xs stably by less.
func sortStableBy[T any](xs []T, less func(a, b T) bool) {
	sort.SliceStable(xs, func(i, j int) bool { return less(xs[i], xs[j]) })
}
