package vecindex

import (
	"errors"
	"math"
	"slices"
)

// Index finds the chunks whose vectors are nearest a query's by cosine
// similarity. Implementations are safe for concurrent use: many searches at
// once, and writes that wait for the searches in progress.
type Index interface {
	// Add stores vec as the vector of chunk id of document doc in language
	// lang, replacing the chunk's previous vector. vec need not be
	// normalised; its length must be the index's dimension.
	Add(id, doc int64, lang string, vec []float32) error
	// Remove forgets chunk id and says whether it was there.
	Remove(id int64) bool
	// Search returns at most k chunks passing f, best first (cosine
	// similarity descending, then id ascending).
	Search(query []float32, k int, f Filter) ([]Hit, error)
	// Len is the number of chunks the index holds.
	Len() int
	// Dim is the vectors' dimension.
	Dim() int
	// Bytes estimates the memory the index holds: vectors, ids, languages,
	// links and lookup tables.
	Bytes() int64
}

// Hit is one search result: the chunk, with the document and language it was
// added with (fixed for a chunk's lifetime), so that a caller can rank and
// filter hits by them without reading the chunks.
type Hit struct {
	ID    int64
	Doc   int64
	Lang  string
	Score float32 // cosine similarity, as the index's encoding computes it
}

// Filter narrows a search. The zero Filter keeps every chunk.
type Filter struct {
	// Langs keeps only chunks in one of these languages; empty keeps all.
	Langs []string
	// Allow keeps only the chunks it returns true for; nil keeps all. It is
	// called during the search, with the index's read lock held: it must not
	// call back into the index.
	Allow func(id int64) bool
}

var (
	// ErrDim is returned for a vector whose length is not the index's
	// dimension (a model change the caller missed).
	ErrDim = errors.New("vecindex: vector dimension does not match the index")
	// ErrEmptyVector is returned for a vector with no components.
	ErrEmptyVector = errors.New("vecindex: empty vector")
	// ErrNotFinite is returned for a vector with a NaN or infinite component.
	ErrNotFinite = errors.New("vecindex: vector has a NaN or infinite component")
	// ErrZeroVector is returned for a vector of length zero, which has no
	// direction to compare.
	ErrZeroVector = errors.New("vecindex: zero vector")
	// ErrTooManyLangs is returned when an index would hold more than 255
	// languages.
	ErrTooManyLangs = errors.New("vecindex: more than 255 languages in one index")
)

// normalized returns v scaled to unit length, so that a dot product is the
// cosine similarity.
func normalized(v []float32) ([]float32, error) {
	if err := checkVector(v); err != nil {
		return nil, err
	}
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return nil, ErrZeroVector
	}
	inv := float32(1 / math.Sqrt(s))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out, nil
}

// sortHits orders hits best first, ties by id so results are reproducible.
func sortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
}
