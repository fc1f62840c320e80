package embedding

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"svc/internal/circuit"
)

// rerankWire speaks one rerank protocol: one attempt at one batch, scores with indexes into
// docs. want is how many of the best the caller needs from this batch.
type rerankWire func(ctx context.Context, query string, docs []string, want int) ([]Scored, error)

// reranker is a Reranker: batching and the checks on every answer, around a wire protocol
// behind retries and a breaker.
type reranker struct {
	g         *guard
	wire      rerankWire
	batchSize int
}

func buildReranker(cfg RerankConfig, clk circuit.Clock) (*reranker, error) {
	cfg, err := cfg.normalized()
	if err != nil || cfg.Provider == RerankNone {
		return nil, err
	}
	r := &reranker{g: cfg.guard("rerank", cfg.Provider, "rerank", clk), batchSize: cfg.BatchSize}
	switch cfg.Provider {
	case RerankTEI:
		r.wire = teiWire(r.g)
	case RerankCohere:
		r.wire = cohereWire(r.g, cfg.Model)
	}
	return r, nil
}

// Rerank sends docs in batches of BatchSize. Each batch is asked only for its best topN:
// the best topN of all are among them, since every document is scored on its own.
func (r *reranker) Rerank(ctx context.Context, query string, docs []string, topN int) ([]Scored, error) {
	if strings.TrimSpace(query) == "" {
		return nil, r.g.failed("query: %w", ErrEmptyText)
	}
	for i, d := range docs {
		if strings.TrimSpace(d) == "" {
			return nil, r.g.failed("document %d: %w", i, ErrEmptyText)
		}
	}
	var all []Scored
	for start := 0; start < len(docs); start += r.batchSize {
		part := docs[start:min(start+r.batchSize, len(docs))]
		want := len(part)
		if topN > 0 {
			want = min(topN, want)
		}
		got, err := call(ctx, r.g, func(ctx context.Context) ([]Scored, error) { return r.wire(ctx, query, part, want) })
		if err == nil {
			err = r.check(got, len(part))
		}
		if err != nil {
			return nil, err
		}
		for _, s := range got {
			all = append(all, Scored{Index: start + s.Index, Score: s.Score})
		}
	}
	slices.SortFunc(all, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return a.Index - b.Index
	})
	if topN > 0 && len(all) > topN {
		all = all[:topN]
	}
	return all, nil
}

// check refuses scores for documents that were not sent, a document scored twice, and
// scores that are not finite numbers.
func (r *reranker) check(scores []Scored, n int) error {
	seen := make([]bool, n)
	for _, s := range scores {
		if s.Index < 0 || s.Index >= n || seen[s.Index] {
			return r.g.failed("%w: index %d missing, repeated or out of range for %d documents", ErrBadResponse, s.Index, n)
		}
		seen[s.Index] = true
		if math.IsNaN(s.Score) || math.IsInf(s.Score, 0) {
			return r.g.failed("%w: score of document %d is not a finite number", ErrBadResponse, s.Index)
		}
	}
	return nil
}

// teiRequest is the body of TEI's POST {base}/rerank. raw_scores false asks for scores
// through a sigmoid, in [0, 1] like Cohere's.
type teiRequest struct {
	Query     string   `json:"query"`
	Texts     []string `json:"texts"`
	RawScores bool     `json:"raw_scores"`
}

// teiScore is one item of TEI's answer, a JSON array.
type teiScore struct {
	Index int     `json:"index"`
	Score float64 `json:"score"`
}

// teiWire speaks TEI's rerank: every text scored, whatever want.
func teiWire(g *guard) rerankWire {
	return func(ctx context.Context, query string, docs []string, _ int) ([]Scored, error) {
		var out []teiScore
		if err := g.post.Post(ctx, teiRequest{Query: query, Texts: docs}, &out); err != nil {
			return nil, err
		}
		scores := make([]Scored, len(out))
		for i, s := range out {
			scores[i] = Scored(s)
		}
		return scores, nil
	}
}

// cohereRequest is the body of Cohere's and Jina's POST {base}/rerank.
type cohereRequest struct {
	Model     string   `json:"model"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	TopN      int      `json:"top_n"`
}

// cohereResponse is the part of the answer that is read.
type cohereResponse struct {
	Results []struct {
		Index          int     `json:"index"`
		RelevanceScore float64 `json:"relevance_score"`
	} `json:"results"`
}

// cohereWire speaks the Cohere/Jina rerank, asking for the want best.
func cohereWire(g *guard, model string) rerankWire {
	return func(ctx context.Context, query string, docs []string, want int) ([]Scored, error) {
		var out cohereResponse
		if err := g.post.Post(ctx, cohereRequest{Model: model, Query: query, Documents: docs, TopN: want}, &out); err != nil {
			return nil, err
		}
		scores := make([]Scored, len(out.Results))
		for i, s := range out.Results {
			scores[i] = Scored{Index: s.Index, Score: s.RelevanceScore}
		}
		return scores, nil
	}
}
