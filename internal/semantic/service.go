package semantic

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"strings"
	"time"

	"svc/internal/embedding"
	"svc/internal/engine"
	"svc/internal/remote"
	"svc/internal/store"
	"svc/internal/vecindex"
)

// Defaults of the zero Options fields.
const (
	// DefaultQueryTimeout bounds a question's embedding and its rerank, each: well inside the
	// 5 s an answer may take while a provider is down, and far above a local model's usual
	// 10–100 ms.
	DefaultQueryTimeout = 2 * time.Second
	// DefaultCheckEvery is how often a search re-reads an account's vector version to see
	// whether another process changed its KB or vectors.
	DefaultCheckEvery = 5 * time.Second
	// versionReadTimeout bounds that read; a slow store then skips the check, not the search.
	versionReadTimeout = time.Second
)

// VectorStore is what the Service reads of the store.
type VectorStore interface {
	ChunkVectors(ctx context.Context, accountID int64, model string, fn func(store.StoredVector) error) error
	VectorVersion(ctx context.Context, accountID int64, model string) (int64, error)
}

// Options configure a Service.
type Options struct {
	Store VectorStore // required
	// Embedder embeds questions (and, in the Worker, chunks); required.
	Embedder embedding.Embedder
	// Model is the configured embedding model (embedding.Config.Model): vectors are stored,
	// loaded and searched under it. Required.
	Model string
	// Reranker, when not nil, orders candidates in Rerank.
	Reranker embedding.Reranker
	// Cache bounds the query-vector cache (embedding.NewCache's defaults when zero).
	Cache embedding.CacheOptions
	// Index configures the vector indexes (vecindex.Config; its Load and Logger are the
	// Service's own).
	Index vecindex.Config
	// QueryTimeout bounds a question's embedding, and a rerank, each; default
	// DefaultQueryTimeout.
	QueryTimeout time.Duration
	// CheckEvery is how often a search re-reads an account's vector version; default
	// DefaultCheckEvery.
	CheckEvery time.Duration
	Now        func() time.Time // time.Now when nil
	Log        *slog.Logger     // slog.Default() when nil
	Metrics    Observer         // nil observes nothing
}

// Service is retrieval by meaning for the engine (engine.Semantic). Safe for concurrent use;
// Close stops its index loads.
type Service struct {
	st           VectorStore
	cache        *embedding.Cache
	reranker     embedding.Reranker
	model        string
	reg          *vecindex.Registry
	queryTimeout time.Duration
	checkEvery   time.Duration
	now          func() time.Time
	log          *slog.Logger
	obs          Observer
	fresh        *freshness
	// One log line when a provider's trouble starts and one when it ends.
	queryTrouble, rerankTrouble *outage
}

var _ engine.Semantic = (*Service)(nil)

// New builds a Service.
func New(o Options) (*Service, error) {
	switch {
	case o.Store == nil:
		return nil, errors.New("semantic: no store")
	case o.Embedder == nil:
		return nil, errors.New("semantic: no embedder")
	case strings.TrimSpace(o.Model) == "":
		return nil, errors.New("semantic: no model")
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = DefaultQueryTimeout
	}
	if o.CheckEvery <= 0 {
		o.CheckEvery = DefaultCheckEvery
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Metrics == nil {
		o.Metrics = nopObserver{}
	}
	s := &Service{st: o.Store, reranker: o.Reranker, model: o.Model, queryTimeout: o.QueryTimeout,
		checkEvery: o.CheckEvery, now: o.Now, log: o.Log.With("model", o.Model), obs: o.Metrics, fresh: newFreshness()}
	s.cache = embedding.NewCache(o.Embedder, o.Model, o.Cache)
	s.queryTrouble = newOutage("embedding provider (questions)", s.log, o.Now)
	s.rerankTrouble = newOutage("reranker", o.Log, o.Now)
	cfg := o.Index
	cfg.Load, cfg.Logger = s.load, s.log
	reg, err := vecindex.NewRegistry(cfg)
	if err != nil {
		return nil, fmt.Errorf("semantic: %w", err)
	}
	s.reg = reg
	return s, nil
}

// Close stops the index loads and builds in progress and waits for them.
func (s *Service) Close() { s.reg.Close() }

// IndexStats describes the vector indexes held in memory (the metrics' gauges read it): their
// kind, size and whether a load or a graph build is still in flight.
func (s *Service) IndexStats() []vecindex.IndexStats { return s.reg.Stats() }

// Model is the embedding model the Service searches with.
func (s *Service) Model() string { return s.model }

// SearchVectors embeds the question (or takes its vector from the cache) within the query
// timeout and returns the account's k chunks nearest it. Every failure degrades: no hits and
// a nil error. Tokens are those the question's embedding used even when the search that
// followed failed, with Model set, since they were spent.
func (s *Service) SearchVectors(ctx context.Context, accountID int64, question string, k int) (engine.VectorSearch, error) {
	if k <= 0 || strings.TrimSpace(question) == "" {
		return engine.VectorSearch{}, nil
	}
	qctx, cancel := context.WithTimeout(ctx, s.queryTimeout)
	defer cancel()
	qv, err := s.cache.Query(qctx, accountID, question)
	if err != nil {
		if ctx.Err() != nil {
			return engine.VectorSearch{}, nil // the visitor left: nobody's outage
		}
		kind := remote.ErrorKind(err)
		if errors.Is(err, context.DeadlineExceeded) {
			// The caller is still there, so the deadline was our bound (the detached provider
			// call may see it a moment before qctx does).
			kind = "timeout"
		}
		s.obs.EmbeddingCall("query", 0, kind)
		s.obs.SemanticDegraded("provider")
		s.queryTrouble.failed(err, "timeout", s.queryTimeout)
		return engine.VectorSearch{}, nil
	}
	if !qv.Cached {
		s.obs.EmbeddingCall("query", qv.Tokens, "")
		s.queryTrouble.ok() // a remembered vector says nothing of the provider
	}
	out := engine.VectorSearch{Model: s.model, Tokens: qv.Tokens}
	s.refresh(qctx, accountID)
	hits, err := s.reg.Search(qctx, accountID, s.model, qv.Vector, k, vecindex.Filter{})
	if err != nil {
		// Per account, unlike a provider's outage, so not logged as one here: the Registry
		// logs a load that failed or an index over the memory bound, and a load still running
		// at the deadline serves the next search.
		if ctx.Err() == nil {
			s.obs.SemanticDegraded("index")
			s.log.Debug("search by meaning skipped: the index is not ready", "account", accountID, "err", err)
		}
		return out, nil
	}
	out.Hits = make([]engine.VectorHit, len(hits))
	for i, h := range hits {
		out.Hits[i] = engine.VectorHit{ChunkID: h.ID, DocID: h.Doc, Lang: h.Lang, Score: float64(h.Score)}
	}
	return out, nil
}

// Reranks reports whether a reranker is configured.
func (s *Service) Reranks() bool { return s.reranker != nil }

// Rerank scores texts against the question with the reranker, within the query timeout; nil
// without a reranker or when it failed, so that the caller keeps its own order. A blank text
// is not sent and scores below every other.
func (s *Service) Rerank(ctx context.Context, question string, texts []string) []float64 {
	if s.reranker == nil || len(texts) == 0 || strings.TrimSpace(question) == "" {
		return nil
	}
	var docs []string
	var at []int // docs[i] is texts[at[i]]
	for i, t := range texts {
		if strings.TrimSpace(t) != "" {
			docs = append(docs, t)
			at = append(at, i)
		}
	}
	if len(docs) == 0 {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, s.queryTimeout)
	defer cancel()
	scored, err := s.reranker.Rerank(rctx, question, docs, 0)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		s.obs.RerankCall(remote.ErrorKind(err))
		s.rerankTrouble.failed(err)
		return nil
	}
	s.obs.RerankCall("")
	s.rerankTrouble.ok()
	out := make([]float64, len(texts))
	seen := make([]bool, len(texts))
	lowest := 0.0
	for i, sc := range scored {
		if i == 0 || sc.Score < lowest {
			lowest = sc.Score
		}
		if sc.Index >= 0 && sc.Index < len(at) {
			out[at[sc.Index]], seen[at[sc.Index]] = sc.Score, true
		}
	}
	for i := range out {
		if !seen[i] {
			out[i] = lowest - 1 // blank, or left unscored: below every scored text
		}
	}
	return out
}

// Changed tells the Service that the account's KB was written in this process: its next
// search re-reads the version instead of waiting out CheckEvery.
func (s *Service) Changed(accountID int64) { s.fresh.changed(accountID) }

// Invalidate drops the account's indexes (the account was deleted, or a reindex wants a
// fresh load).
func (s *Service) Invalidate(accountID int64) {
	s.reg.Invalidate(accountID)
	s.fresh.forget(accountID)
}

// refresh drops the account's index when the store moved past the version it was built at;
// at most one search per account and CheckEvery reads it.
func (s *Service) refresh(ctx context.Context, accountID int64) {
	if !s.fresh.due(accountID, s.now(), s.checkEvery) {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, versionReadTimeout)
	defer cancel()
	v, err := s.st.VectorVersion(rctx, accountID, s.model)
	if err != nil && ctx.Err() == nil {
		s.log.Debug("vector version not read; the index is kept until the next check", "account", accountID, "err", err)
	}
	if s.fresh.checkedAt(accountID, v, err == nil, s.now()) {
		s.reg.Invalidate(accountID)
		s.obs.VectorIndexStale()
	}
}

// added is one vector the worker stored, as the index takes it.
type added struct {
	id, doc int64
	lang    string
	vec     []float32
}

// stored puts the vectors this process just stored into the account's index (when it holds
// one) and keeps the index's version in step; before and after are the versions read around
// the put.
func (s *Service) stored(accountID, before, after int64, vecs []added) {
	for _, a := range vecs {
		if err := s.reg.Add(accountID, s.model, a.id, a.doc, a.lang, a.vec); err != nil {
			s.log.Warn("vector not added to the index; the next load reads it", "account", accountID, "chunk", a.id, "err", err)
			s.Invalidate(accountID)
			return
		}
	}
	if s.fresh.stored(accountID, before, after) {
		s.reg.Invalidate(accountID)
		s.obs.VectorIndexStale()
	}
}

// errStopped ends a walk whose reader stopped.
var errStopped = errors.New("semantic: load stopped")

// load is the Registry's Loader: the account's vectors of model, streamed from the store,
// after reading the version they are at.
func (s *Service) load(ctx context.Context, accountID int64, model string) iter.Seq2[vecindex.Entry, error] {
	return func(yield func(vecindex.Entry, error) bool) {
		v, err := s.st.VectorVersion(ctx, accountID, model)
		if err != nil {
			s.obs.VectorIndexLoad(false)
			yield(vecindex.Entry{}, err)
			return
		}
		err = s.st.ChunkVectors(ctx, accountID, model, func(sv store.StoredVector) error {
			if !yield(vecindex.Entry{ID: sv.ChunkID, Doc: sv.DocID, Lang: sv.Lang, Vector: sv.Data}, nil) {
				return errStopped
			}
			return nil
		})
		switch {
		case errors.Is(err, errStopped):
			s.obs.VectorIndexLoad(false) // the Registry gave up: a bad vector, the bound, Close
		case err != nil:
			s.obs.VectorIndexLoad(false)
			yield(vecindex.Entry{}, err)
		default:
			s.obs.VectorIndexLoad(true)
			s.fresh.loaded(accountID, v, s.now())
		}
	}
}
