package embedding

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"unicode/utf8"

	"svc/internal/circuit"
	"svc/internal/tokencount"
)

// New builds the Embedder for cfg, or returns nil (and no error) when cfg.Provider is
// ProviderNone or empty: no semantic retrieval.
func New(cfg Config) (Embedder, error) {
	c, err := build(cfg, circuit.RealClock())
	if c == nil || err != nil {
		return nil, err // a nil *client in an Embedder would not compare equal to nil
	}
	return c, nil
}

// NewReranker builds the Reranker for cfg, or returns nil (and no error) when cfg.Provider
// is RerankNone or empty.
func NewReranker(cfg RerankConfig) (Reranker, error) {
	r, err := buildReranker(cfg, circuit.RealClock())
	if r == nil || err != nil {
		return nil, err
	}
	return r, nil
}

// batch is one provider answer: a vector per text, in the order of the texts.
type batch struct {
	vectors [][]float32
	tokens  int // as reported; 0 when the provider said nothing
}

// wire speaks one embedding protocol: one attempt at one batch.
type wire func(ctx context.Context, texts []string) (batch, error)

// client is an Embedder: batching, the checks on every answer, the dimension lock and token
// estimates, around a wire protocol behind retries and a breaker.
type client struct {
	g          *guard
	wire       wire
	model      string
	prefix     [Document + 1]string // by Kind
	batchSize  int
	batchChars int
	counter    func() (*tokencount.Counter, error)

	mu  sync.Mutex
	dim int // 0 until the first answer (or ExpectDim)
}

func build(cfg Config, clk circuit.Clock) (*client, error) {
	cfg, err := cfg.normalized()
	if err != nil || cfg.Provider == ProviderNone {
		return nil, err
	}
	c := &client{model: cfg.Model, batchSize: cfg.BatchSize, batchChars: cfg.BatchChars, dim: cfg.ExpectDim,
		counter: sync.OnceValues(tokencount.O200kBase)}
	c.prefix[Query], c.prefix[Document] = cfg.QueryPrefix, cfg.DocumentPrefix
	switch cfg.Provider {
	case ProviderOpenAI:
		c.g = cfg.guard("embedding", cfg.Provider, "embeddings", clk)
		c.wire = openAIWire(c.g, cfg.Model)
	case ProviderOllama:
		c.g = cfg.guard("embedding", cfg.Provider, "api/embed", clk)
		c.wire = ollamaWire(c.g, cfg.Model)
	}
	return c, nil
}

func (c *client) Embed(ctx context.Context, texts []string, kind Kind) (Result, error) {
	res := Result{Model: c.model, Dim: c.lockedDim()}
	if kind != Query && kind != Document {
		return res, c.g.failed("unknown kind %d", kind)
	}
	inputs := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return res, c.g.failed("text %d: %w", i, ErrEmptyText)
		}
		inputs[i] = c.prefix[kind] + t
	}
	for start := 0; start < len(inputs); {
		end := c.batchEnd(inputs, start)
		b, err := call(ctx, c.g, func(ctx context.Context) (batch, error) { return c.wire(ctx, inputs[start:end]) })
		if err == nil {
			err = c.check(b, end-start)
		}
		if err != nil {
			return res, err
		}
		tokens, estimated := b.tokens, false
		if tokens <= 0 {
			tokens, estimated = c.estimate(inputs[start:end]), true
		}
		res.Vectors = append(res.Vectors, b.vectors...)
		res.Tokens += tokens
		res.TokensEstimated = res.TokensEstimated || estimated
		res.Dim = len(b.vectors[0])
		start = end
	}
	return res, nil
}

// batchEnd is where the batch starting at start ends: at most batchSize texts and
// batchChars characters, and at least one text however long.
func (c *client) batchEnd(inputs []string, start int) int {
	end, chars := start, 0
	for end < len(inputs) && end-start < c.batchSize {
		n := utf8.RuneCountInString(inputs[end])
		if end > start && chars+n > c.batchChars {
			break
		}
		chars += n
		end++
	}
	return end
}

// check refuses an answer that cannot be stored: the wrong number of vectors, an empty,
// non-finite or zero vector, or a dimension other than the first answer's.
func (c *client) check(b batch, n int) error {
	if len(b.vectors) != n {
		return c.g.failed("%w: %d vectors for %d texts", ErrBadResponse, len(b.vectors), n)
	}
	dim := len(b.vectors[0])
	for i, v := range b.vectors {
		if err := checkVector(v); err != nil {
			return c.g.failed("vector %d: %w", i, err)
		}
		if len(v) != dim {
			return c.g.failed("%w: vector %d has %d dimensions, vector 0 has %d", ErrDimensionMismatch, i, len(v), dim)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dim == 0 {
		c.dim = dim
	}
	if dim != c.dim {
		return c.g.failed("%w: %d dimensions, want %d", ErrDimensionMismatch, dim, c.dim)
	}
	return nil
}

func checkVector(v []float32) error {
	if len(v) == 0 {
		return fmt.Errorf("%w: empty", ErrBadVector)
	}
	var sum float64
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: not a finite number", ErrBadVector)
		}
		sum += f * f
	}
	if sum == 0 {
		return fmt.Errorf("%w: all zeros", ErrBadVector)
	}
	return nil
}

func (c *client) lockedDim() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dim
}

// estimate counts texts' tokens with o200k_base when the provider reported none; another
// model's tokenizer counts differently, but the count is only priced, never enforced. It
// falls back to a token per four bytes should the counter fail.
func (c *client) estimate(texts []string) int {
	n := 0
	counter, err := c.counter()
	for _, t := range texts {
		k := 0
		if err == nil {
			k, err = counter.Count(t)
		}
		if err != nil {
			k = (len(t) + 3) / 4
		}
		n += k
	}
	return n
}
