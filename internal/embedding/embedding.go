// Package embedding talks to embedding and rerank providers: OpenAI-compatible
// POST {base}/embeddings (OpenAI, vLLM, LocalAI, LM Studio, TEI's OpenAI route) and Ollama's
// POST {base}/api/embed for vectors; Hugging Face TEI's and Cohere/Jina-compatible
// POST {base}/rerank for reranking. It batches, retries with backoff, stops calling a failing
// provider (circuit breaker), checks every vector, and caches query vectors per account. It
// knows nothing of knowledge bases, stores or billing: it reports the tokens a call used.
//
// Every failure of Embed and Rerank is an *Error. errors.Is(err, ErrUnavailable) tells an
// outage (timeouts, 429, 5xx, broken connections, the open breaker), on which callers
// degrade to keyword search, from a request or answer that is wrong (a 4xx, an unknown
// model, a vector of the wrong dimension), which trying again will not mend.
package embedding

import (
	"context"
	"errors"

	"svc/internal/remote"
)

// Kind says what a text is, for models that embed queries and documents differently.
type Kind int

// Kinds of text.
const (
	Query    Kind = iota + 1 // a visitor's question, searched with
	Document                 // a knowledge-base chunk, searched in
)

func (k Kind) String() string {
	switch k {
	case Query:
		return "query"
	case Document:
		return "document"
	}
	return "unknown"
}

// Result is the answer to one Embed call.
type Result struct {
	// Vectors are in the order of the texts, one per text, each of Dim values.
	Vectors [][]float32
	// Model is the configured model name (what stored vectors are labelled with), not the
	// provider's spelling of it, which may differ between calls ("bge-m3" / "bge-m3:latest").
	Model string
	// Dim is the dimension of the vectors: the first answer's, which every later answer of
	// the Embedder must match. 0 until a first answer.
	Dim int
	// Tokens is the input tokens the call used: what the provider reported, or, for a batch
	// whose provider reported none, an o200k_base count of its texts (TokensEstimated).
	Tokens          int
	TokensEstimated bool
}

// Embedder turns texts into vectors. Implementations are safe for concurrent use.
type Embedder interface {
	// Embed embeds texts, in batches. On an error, Result still holds the vectors of the
	// texts embedded before the failure (a prefix of texts, in order) and the tokens they
	// used, so that a background job can keep them and bill them. No text may be empty.
	Embed(ctx context.Context, texts []string, kind Kind) (Result, error)
}

// Scored is one reranked document: its index in the docs given and its relevance, higher is
// better (TEI's and Cohere's scores are in [0, 1]).
type Scored struct {
	Index int
	Score float64
}

// Reranker orders documents by relevance to a query. Implementations are safe for
// concurrent use.
type Reranker interface {
	// Rerank scores docs against query and returns them best first (ties by index), at
	// most topN of them (topN ≤ 0: all that the provider scored). No text may be empty.
	Rerank(ctx context.Context, query string, docs []string, topN int) ([]Scored, error)
}

// Error is a failed Embed or Rerank: a provider's answer (Status), a transport failure or a
// timeout, a refusal of the open breaker, or a check of ours on the request or the answer.
// Its message never holds the API key.
type Error = remote.Error

// ErrUnavailable matches every Error that says the provider is down, slow or overloaded:
// degrade (keyword search only) and try again later.
var ErrUnavailable = remote.ErrUnavailable

// ErrCircuitOpen is the cause of a call refused without calling the provider, while its
// breaker is open; such an error is also ErrUnavailable.
var ErrCircuitOpen = remote.ErrCircuitOpen

// ErrTimeout is the cause of an attempt that ran out of Config.Timeout while the caller's
// context was still live; such an error is also ErrUnavailable.
var ErrTimeout = remote.ErrTimeout

// Causes of the errors of our own checks; none of them is ErrUnavailable.
var (
	// ErrEmptyText: a text, query or document is empty or only white space.
	ErrEmptyText = errors.New("empty text")
	// ErrDimensionMismatch: an answer's vectors differ in dimension from the first answer's
	// (or from Config.ExpectDim): the model behind the endpoint changed, and its vectors must
	// not be stored beside the old ones.
	ErrDimensionMismatch = errors.New("vector dimension differs from the first answer's")
	// ErrBadVector: a vector is empty, holds a NaN or an infinity, or is all zeros.
	ErrBadVector = errors.New("unusable vector")
	// ErrBadResponse: the answer does not fit the request: another number of vectors or
	// scores than texts, or indexes missing, repeated or out of range.
	ErrBadResponse = errors.New("answer does not match the request")
)
