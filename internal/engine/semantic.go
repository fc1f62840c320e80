package engine

import (
	"context"
	"fmt"
	"math"
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
}

// VectorSearch is what SearchVectors found.
type VectorSearch struct {
	Hits  []VectorHit
	Model string // the embedding model; "" when nothing was searched
	// Tokens are the embedding tokens this search spent on the question (0 when its
	// embedding was remembered), billed once with the reply.
	Tokens int
}

// VectorHit is one chunk found by meaning.
type VectorHit struct {
	ChunkID int64
	Score   float64 // cosine similarity of the question's and the chunk's embeddings
}

// vecCand is a chunk found by meaning, with what the decision reads of it.
type vecCand struct {
	hit    store.ChunkHit
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

// attachVectors reads the chunks the search by meaning found (those the keyword search did
// not bring are read by id) into r.sem. The keyword ranking is left as it is: the extractive
// answer reads words, and a chunk that shares none with the question has nothing for it.
func (e *Engine) attachVectors(ctx context.Context, accountID int64, r *retrieval, vs VectorSearch) error {
	r.sem = &semanticRead{model: vs.Model, tokens: vs.Tokens, z: math.Inf(-1)}
	if len(vs.Hits) == 0 {
		return nil
	}
	known := make(map[int64]store.ChunkHit, len(r.ranked))
	for _, c := range r.ranked {
		known[c.hit.ChunkID] = c.hit
	}
	var missing []int64
	for _, h := range vs.Hits {
		if _, ok := known[h.ChunkID]; !ok {
			missing = append(missing, h.ChunkID)
		}
	}
	if len(missing) > 0 {
		got, err := e.kb.ChunksByID(ctx, accountID, missing)
		if err != nil {
			return fmt.Errorf("engine: chunks by id: %w", err)
		}
		for _, h := range got {
			known[h.ChunkID] = h
		}
	}
	cands := make([]vecCand, 0, len(vs.Hits))
	for _, h := range vs.Hits {
		if hit, ok := known[h.ChunkID]; ok { // a chunk deleted since it was embedded is gone
			cands = append(cands, vecCand{hit: hit, cos: h.Score, rerank: math.NaN()})
		}
	}
	r.sem.cands = cands
	r.sem.z = standOut(cands)
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
