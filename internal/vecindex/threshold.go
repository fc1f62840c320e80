package vecindex

// ExactMaxComponents is the size (vectors × dimension) up to which an account
// is searched with an Exact index; above it the Registry builds an HNSW graph.
//
// Measured on this project's noisy 2-core machine (BENCHMARKS.md, "Vector
// search"): an exact float16 scan (the default encoding) of 10,000 vectors of
// 384 dimensions (3.84M components) took p50 2.7 ms and p99 3.0 ms, about
// 0.78 ns a component at p99, so p99 passes 2 ms near 2.5M components: 6,500
// chunks at 384 dimensions, 2,400 at 1024. The graph there answered in p99
// 1.05 ms at recall@10 0.97. An exact int8 scan is faster (0.56 ns a
// component, 3.6M) and float32 faster still (0.55 ns at p99, 0.33 at p50).
const ExactMaxComponents = 2_500_000
