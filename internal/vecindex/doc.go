// Package vecindex is svc's in-process vector search: the storage encodings of
// an embedding (float32, float16, int8 with a per-vector scale), two indexes
// behind one interface (Exact, a flat scan; HNSW, a navigable small-world
// graph for large knowledge bases) and the Registry that keeps one index per
// account and model, built lazily from a loader and bounded in memory.
//
// It knows nothing of stores or HTTP: the caller hands it vectors, chunk ids
// and languages, and gets chunk ids with cosine scores back.
package vecindex
