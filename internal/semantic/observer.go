package semantic

// Observer is told what retrieval by meaning did (the service's metrics; *metrics.Metrics
// implements it). Every method must be safe for concurrent use.
type Observer interface {
	// EmbeddingCall reports one call to the embedding provider for use "query" or
	// "document": the tokens it used and remote.ErrorKind of its error ("" on success).
	EmbeddingCall(use string, tokens int, errKind string)
	// SemanticDegraded reports a search that went without vectors: "provider" or "index".
	SemanticDegraded(reason string)
	// RerankCall reports one call to the reranker and the kind of its error, if any.
	RerankCall(errKind string)
	// VectorIndexLoad reports an account's vectors read from the store, ok or not.
	VectorIndexLoad(ok bool)
	// VectorIndexStale reports an index dropped because the store changed under it.
	VectorIndexStale()
}

// nopObserver observes nothing.
type nopObserver struct{}

func (nopObserver) EmbeddingCall(string, int, string) {}
func (nopObserver) SemanticDegraded(string)           {}
func (nopObserver) RerankCall(string)                 {}
func (nopObserver) VectorIndexLoad(bool)              {}
func (nopObserver) VectorIndexStale()                 {}
