package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ChunkText is a KB chunk as an embedder reads it: the text to embed and what it may want
// beside it (the document's title, the chunk's heading path, its language). A chunk id names
// one text for ever: a document that changes has its chunks deleted and inserted anew under
// ids never used before, so a vector stored for an id never describes another text.
type ChunkText struct {
	ID      int64
	DocID   int64
	DocType string
	Lang    string
	Title   string // the document's title
	Heading string
	Text    string
	Tokens  int // Text's o200k_base token count when known (Chunk.Tokens), else 0
}

// ChunkVector is one chunk's embedding under a model, as the vector package encoded it:
// Dim components in Encoding ("f32", "f16", "i8": the vector package names and reads
// them; the store keeps the bytes as they are).
type ChunkVector struct {
	ChunkID  int64
	Dim      int
	Encoding string
	Data     []byte
}

// Check reports what makes v unfit to store.
func (v ChunkVector) Check() error {
	switch {
	case v.ChunkID <= 0:
		return fmt.Errorf("chunk vector: chunk id %d", v.ChunkID)
	case v.Dim <= 0:
		return fmt.Errorf("chunk vector %d: dimension %d", v.ChunkID, v.Dim)
	case v.Encoding == "":
		return fmt.Errorf("chunk vector %d: no encoding", v.ChunkID)
	case len(v.Data) == 0:
		return fmt.Errorf("chunk vector %d: no data", v.ChunkID)
	}
	return nil
}

// ErrNoModel is a vector operation called without a model name.
var ErrNoModel = errors.New("store: no embedding model named")

// StoredVector is a stored vector with what an index filters its hits by, all of which
// stays as it is for the chunk's lifetime.
type StoredVector struct {
	ChunkVector
	DocID   int64
	DocType string
	SiteID  int64 // 0 = none
	Lang    string
}

// ModelVectors is how many of an account's chunks have a vector of one model.
type ModelVectors struct {
	Model   string
	Vectors int
	// Dim and Encoding are those of the model's last stored vectors (they differ from
	// older ones only if the encoding setting changed meanwhile).
	Dim       int
	Encoding  string
	UpdatedAt time.Time // when vectors of the model were last stored
}

// EmbeddingStatus is how much of an account's KB is embedded, and with which models.
type EmbeddingStatus struct {
	Chunks int            // the account's chunks
	Models []ModelVectors // each model with at least one vector, by name
}

// Vectors stores the embeddings of KB chunks, one per chunk and model, and is the queue of
// a background embedder: a chunk without a vector of the current model is work to do, so an
// import, crawl, upload or edit needs no separate queue entry, and a model change makes
// every chunk work again.
//
// Vectors of other models than the one asked for are ignored by every read: each read names
// its model. DeleteOtherModels reclaims their space once the current model covers the KB.
//
// Search happens in the process (an index per account loaded through ChunkVectors). A store
// that can search itself (PostgreSQL with pgvector) would implement, beside this interface,
//
//	type VectorSearcher interface {
//		SearchVectors(ctx context.Context, accountID int64, model string, query []float32,
//			q SearchQuery) ([]ChunkHit, error)
//	}
//
// and the retriever would type-assert for it before loading an in-process index. No store
// implements it yet (pgvector cannot be installed where svc is tested), so no code path
// depends on it.
type Vectors interface {
	// ChunksToEmbed returns up to limit of the account's chunks with an id above afterID
	// that have no vector of model, by id. A caller walks them with afterID set to the last
	// id it was given, so a chunk it could not embed does not block those after it.
	ChunksToEmbed(ctx context.Context, accountID int64, model string, afterID int64, limit int) ([]ChunkText, error)
	// AccountsToEmbed returns up to limit ids of accounts above afterID with at least one
	// chunk without a vector of model, by id.
	AccountsToEmbed(ctx context.Context, model string, afterID int64, limit int) ([]int64, error)
	// PutChunkVectors stores (or replaces) the account's vectors of model in one
	// transaction and reports how many it stored. A vector of a chunk that is gone (deleted
	// or changed since it was read) or is not the account's is skipped, not an error. It
	// fails, storing nothing, when a vector fails ChunkVector.Check.
	PutChunkVectors(ctx context.Context, accountID int64, model string, vecs []ChunkVector) (int, error)
	// ChunkVectors calls fn with each of the account's vectors of model, by chunk id,
	// reading them as it goes (never all at once); fn may keep the vector's Data. An error
	// from fn stops the walk and is returned as it is. fn must not wait on other calls of
	// the store: the walk holds one of its read connections.
	ChunkVectors(ctx context.Context, accountID int64, model string, fn func(StoredVector) error) error
	// VectorVersion grows with every change of the account's chunks and of its vectors of
	// model, so an index built from ChunkVectors holds while the version it was built at
	// does, whichever process changed them.
	VectorVersion(ctx context.Context, accountID int64, model string) (int64, error)
	// EmbeddingStatus reports how many of the account's chunks have a vector of each model.
	EmbeddingStatus(ctx context.Context, accountID int64) (EmbeddingStatus, error)
	// DeleteOtherModels deletes the account's vectors of every model but keep and reports
	// how many it deleted. Callers run it once keep covers the account's chunks, so a
	// rolling change of model on several replicas does not have each delete the other's
	// work while both still embed.
	DeleteOtherModels(ctx context.Context, accountID int64, keep string) (int, error)
	// LeaseEmbedding gives holder the account's embedding lease until the given time when
	// nobody holds it, its lease has expired, or holder holds it already (a renewal), and
	// reports whether holder has it now. One process embeds an account at a time.
	LeaseEmbedding(ctx context.Context, accountID int64, holder string, until time.Time) (bool, error)
	// ReleaseEmbedding ends holder's lease of the account, if holder has it.
	ReleaseEmbedding(ctx context.Context, accountID int64, holder string) error
	// ChunksByID returns the account's chunks among ids as search hits (Rank 0), in the
	// order of ids, with the product card of a product's chunk; an id that is not the
	// account's chunk is left out. It turns an index's hits into what SearchChunks returns.
	ChunksByID(ctx context.Context, accountID int64, ids []int64) ([]ChunkHit, error)
}
