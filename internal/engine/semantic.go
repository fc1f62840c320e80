package engine

import "context"

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
