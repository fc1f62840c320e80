package vecindex

// ExactMaxComponents is the size (vectors × dimension) up to which an account
// is searched with an Exact index; above it the Registry builds an HNSW graph.
// Measured on this project's 2-core machine (BENCHMARKS.md, "Vector search"):
// TODO.
const ExactMaxComponents = 4_000_000
