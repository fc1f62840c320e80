package cli

import (
	"fmt"
	"log/slog"

	"svc/internal/config"
	"svc/internal/embedding"
	"svc/internal/semantic"
	"svc/internal/store"
)

// semanticParts are retrieval by meaning's pieces when an embedding provider is configured
// (SVC_EMBED_PROVIDER): the Service the engine searches through, and the Worker that embeds
// the KB in the background (serve runs it).
type semanticParts struct {
	service *semantic.Service
	worker  *semantic.Worker
}

// newSemantic builds them, or returns nil when no embedding provider is configured: svc is
// then exactly the keyword-only service it was. obs may be nil (metrics off).
func newSemantic(cfg config.Config, st store.Store, log *slog.Logger, obs semantic.Observer) (*semanticParts, error) {
	if !cfg.EmbeddingEnabled() {
		return nil, nil
	}
	emb, err := newEmbedder(cfg)
	if err != nil {
		return nil, err
	}
	rr, err := embedding.NewReranker(cfg.RerankConfig())
	if err != nil {
		return nil, usagef("SVC_RERANK_*: %v", err)
	}
	svc, err := semantic.New(semantic.Options{Store: st, Embedder: emb, Model: cfg.EmbedModel, Reranker: rr,
		QueryTimeout: cfg.EmbedQueryTimeout, Log: log, Metrics: obs})
	if err != nil {
		return nil, err
	}
	w, err := semantic.NewWorker(semantic.WorkerOptions{Store: st, Embedder: emb, Model: cfg.EmbedModel,
		PricePerMTok: cfg.EmbedPricePerMTok, Service: svc, Batch: cfg.EmbedBatchSize, Log: log, Metrics: obs})
	if err != nil {
		svc.Close()
		return nil, err
	}
	log.Info("semantic retrieval", "embedding_provider", cfg.EmbedProvider, "embedding_model", cfg.EmbedModel,
		"reranker", cfg.RerankProvider, "price_per_mtok_micro_usd", cfg.EmbedPricePerMTok)
	return &semanticParts{service: svc, worker: w}, nil
}

// newEmbedder is the configured embedding provider; the configuration must name one.
func newEmbedder(cfg config.Config) (embedding.Embedder, error) {
	emb, err := embedding.New(cfg.EmbeddingConfig())
	if err != nil {
		return nil, usagef("SVC_EMBED_*: %v", err)
	}
	if emb == nil {
		return nil, fmt.Errorf("no embedding provider is configured (SVC_EMBED_PROVIDER)")
	}
	return emb, nil
}

// close stops the Service's index loads; nil-safe, for NewApp's error paths.
func (p *semanticParts) close() {
	if p != nil {
		p.service.Close()
	}
}

// embedModel is the embedding model the dashboard names, "" without a provider.
func embedModel(cfg config.Config) string {
	if !cfg.EmbeddingEnabled() {
		return ""
	}
	return cfg.EmbedModel
}
