package semantic

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"svc/internal/embedding"
	"svc/internal/remote"
	"svc/internal/store"
)

// Defaults of the zero WorkerOptions fields.
const (
	// DefaultPoll is how often the worker looks for chunks written by other processes
	// (`svc kb import`, another replica) when nothing woke it.
	DefaultPoll = 30 * time.Second
	// DefaultMinBackoff and DefaultMaxBackoff bound the wait after the provider failed: it
	// doubles from the first to the second while the outage lasts.
	DefaultMinBackoff = 5 * time.Second
	DefaultMaxBackoff = 5 * time.Minute
	// DefaultRetryRefused is how long a chunk the provider refused on its own (a 4xx: too
	// long for the model, say) is left out before it is tried again.
	DefaultRetryRefused = time.Hour
	// DefaultLease is how long an account's embedding lease lasts (store.Vectors'
	// LeaseEmbedding): a worker renews it before every batch, and a process that died
	// leaves the account to others after it. One process embeds an account at a time, so
	// replicas (or `svc kb reindex` beside a server) never embed, and bill, the same chunks
	// side by side.
	DefaultLease = 2 * time.Minute
	// accountsPage is how many accounts with work one AccountsToEmbed call lists.
	accountsPage = 100
)

// Errors of EmbedAccount.
var (
	// ErrProviderDown wraps the provider's error when it is down, slow or overloaded
	// (embedding.ErrUnavailable): the worker backs off and tries again.
	ErrProviderDown = errors.New("semantic: the embedding provider is unavailable")
	// ErrCannotPay: the account's free balance does not cover the next batch at the
	// configured price. Keyword search still answers; embedding resumes once it does.
	ErrCannotPay = errors.New("semantic: the account's balance does not cover embedding its knowledge base")
	// ErrBusy: another process holds the account's embedding lease.
	ErrBusy = errors.New("semantic: another process is embedding the account's knowledge base")
)

// WorkerStore is what the worker reads and writes.
type WorkerStore interface {
	ChunksToEmbed(ctx context.Context, accountID int64, model string, afterID int64, limit int) ([]store.ChunkText, error)
	AccountsToEmbed(ctx context.Context, model string, afterID int64, limit int) ([]int64, error)
	PutChunkVectors(ctx context.Context, accountID int64, model string, vecs []store.ChunkVector) (int, error)
	VectorVersion(ctx context.Context, accountID int64, model string) (int64, error)
	EmbeddingStatus(ctx context.Context, accountID int64) (store.EmbeddingStatus, error)
	DeleteOtherModels(ctx context.Context, accountID int64, keep string) (int, error)
	GetAccount(ctx context.Context, accountID int64) (store.Account, error)
	ChargeUsage(ctx context.Context, accountID int64, c *store.Charge, reservationID int64) (int64, error)
	LeaseEmbedding(ctx context.Context, accountID int64, holder string, until time.Time) (bool, error)
	ReleaseEmbedding(ctx context.Context, accountID int64, holder string) error
}

// WorkerOptions configure a Worker.
type WorkerOptions struct {
	Store    WorkerStore        // required
	Embedder embedding.Embedder // required
	Model    string             // the configured model; required
	// PricePerMTok is what an embedding usage event charges, micro-USD per million tokens
	// (config's EmbedPricePerMTok); 0 records the tokens without charging.
	PricePerMTok int64
	// Service, when not nil, is given the vectors stored, so that its held indexes stay
	// current without a reload.
	Service *Service
	// Batch is how many chunks are read and embedded together (one usage event); default
	// embedding.DefaultBatchSize.
	Batch int
	// Poll, MinBackoff, MaxBackoff, RetryRefused, Lease: see the Default constants.
	Poll, MinBackoff, MaxBackoff, RetryRefused, Lease time.Duration
	// After is the worker's timer (time.After when nil): tests fire it themselves.
	After   func(time.Duration) <-chan time.Time
	Now     func() time.Time // time.Now when nil
	Log     *slog.Logger     // slog.Default() when nil
	Metrics Observer         // nil observes nothing
}

// Worker embeds KB chunks in the background. Run it in one goroutine; Notify and
// EmbedAccount are safe to call from others.
type Worker struct {
	o    WorkerOptions
	st   WorkerStore
	emb  embedding.Embedder
	log  *slog.Logger
	obs  Observer
	wake chan struct{}
	// trouble logs an outage of the provider once when it starts and once when it ends.
	trouble *outage

	// holder names this worker in the accounts' embedding leases.
	holder string

	mu      sync.Mutex
	paused  map[int64]int64               // account → micro-USD its free balance must reach
	refused map[int64]map[int64]time.Time // account → chunk → when to try it again
}

// NewWorker builds a Worker.
func NewWorker(o WorkerOptions) (*Worker, error) {
	switch {
	case o.Store == nil:
		return nil, errors.New("semantic: worker: no store")
	case o.Embedder == nil:
		return nil, errors.New("semantic: worker: no embedder")
	case strings.TrimSpace(o.Model) == "":
		return nil, errors.New("semantic: worker: no model")
	case o.PricePerMTok < 0:
		return nil, errors.New("semantic: worker: negative price")
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Poll, DefaultPoll)
	def(&o.MinBackoff, DefaultMinBackoff)
	def(&o.MaxBackoff, DefaultMaxBackoff)
	def(&o.RetryRefused, DefaultRetryRefused)
	def(&o.Lease, DefaultLease)
	if o.Batch <= 0 {
		o.Batch = embedding.DefaultBatchSize
	}
	if o.After == nil {
		o.After = time.After
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
	log := o.Log.With("model", o.Model)
	return &Worker{o: o, st: o.Store, emb: o.Embedder, log: log, obs: o.Metrics, wake: make(chan struct{}, 1),
		trouble: newOutage("embedding provider (knowledge base)", log, o.Now),
		holder:  rand.Text(), paused: map[int64]int64{}, refused: map[int64]map[int64]time.Time{}}, nil
}

// Notify tells the worker that the account's KB was written in this process: it looks for
// work at once (unless it is waiting out an outage), and the Service's next search of the
// account checks its index. It never blocks.
func (w *Worker) Notify(accountID int64) {
	if w.o.Service != nil {
		w.o.Service.Changed(accountID)
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run embeds until ctx ends: a pass over every account with work, then a wait for Notify or
// the poll; after an outage the wait is a backoff that Notify does not cut short.
func (w *Worker) Run(ctx context.Context) {
	var backoff time.Duration
	for ctx.Err() == nil {
		// A pass sees every write made before it starts: a wake-up left from before (one
		// that came during a backoff) is spent.
		select {
		case <-w.wake:
		default:
		}
		wait := w.o.Poll
		if err := w.pass(ctx); errors.Is(err, ErrProviderDown) {
			backoff = min(max(2*backoff, w.o.MinBackoff), w.o.MaxBackoff)
			wait = backoff
		} else {
			backoff = 0
		}
		wake := w.wake
		if backoff > 0 {
			wake = nil
		}
		select {
		case <-ctx.Done():
			return
		case <-w.o.After(wait):
		case <-wake:
		}
	}
}

// pass embeds every account that has chunks without a vector of the model, by id. It stops
// at the first outage (ErrProviderDown); other failures are logged and the pass goes on.
func (w *Worker) pass(ctx context.Context) error {
	var after int64
	for ctx.Err() == nil {
		ids, err := w.st.AccountsToEmbed(ctx, w.o.Model, after, accountsPage)
		if err != nil {
			if ctx.Err() == nil {
				w.log.Error("accounts to embed not listed", "err", err)
			}
			return nil
		}
		if len(ids) == 0 {
			return nil
		}
		for _, id := range ids {
			after = id
			if !w.mayEmbed(ctx, id) {
				continue
			}
			rep, err := w.embedAccount(ctx, id)
			switch {
			case errors.Is(err, ErrProviderDown):
				return err
			case errors.Is(err, ErrCannotPay), errors.Is(err, ErrBusy), ctx.Err() != nil:
			case err != nil:
				w.log.Error("knowledge base not embedded", "account", id, "err", err)
			}
			if rep.Embedded > 0 || rep.DeletedOther > 0 {
				w.log.Info("knowledge base embedded", "account", id, "embedded", rep.Embedded, "tokens", rep.Tokens,
					"cost_micro_usd", rep.CostMicro, "covered", rep.Vectors, "chunks", rep.Chunks, "refused", rep.Refused,
					"other_models_deleted", rep.DeletedOther)
			}
		}
	}
	return nil
}

// mayEmbed says whether the poll should embed the account now: not while it cannot pay (its
// free balance is read again, and a top-up resumes it). Another process embedding it is
// found by its lease (embedAccount).
func (w *Worker) mayEmbed(ctx context.Context, id int64) bool {
	w.mu.Lock()
	need, paused := w.paused[id]
	w.mu.Unlock()
	if paused {
		a, err := w.st.GetAccount(ctx, id)
		if err != nil || a.BalanceMicro-a.ReservedMicro < need {
			return false
		}
		w.mu.Lock()
		delete(w.paused, id)
		w.mu.Unlock()
		w.log.Info("embedding resumed: the balance covers it again", "account", id)
	}
	return true
}

// Report is what embedding an account did (`svc kb reindex` prints it).
type Report struct {
	AccountID int64  `json:"account_id"`
	Model     string `json:"model"`
	// Embedded chunks were embedded and stored now; Tokens and CostMicro are what they were
	// billed (one embedding usage event a batch).
	Embedded  int   `json:"embedded"`
	Tokens    int   `json:"tokens"`
	CostMicro int64 `json:"-"`
	// Refused chunks the provider would not embed (a 4xx on the chunk alone): tried again
	// after RetryRefused.
	Refused int `json:"refused"`
	// Chunks is the account's chunks, Vectors those with a vector of Model, when it ended.
	Chunks  int `json:"chunks"`
	Vectors int `json:"vectors"`
	// DeletedOther is the vectors of other models deleted once Model covered the account.
	DeletedOther int `json:"other_models_deleted"`
}

// EmbedAccount embeds the account's chunks that have no vector of the model yet, in the
// caller's goroutine (`svc kb reindex`), and drops other models' vectors once the model
// covers the account. It stops with ErrProviderDown or ErrCannotPay (wrapped), keeping what
// it stored so far.
func (w *Worker) EmbedAccount(ctx context.Context, accountID int64) (Report, error) {
	w.mu.Lock()
	delete(w.paused, accountID)
	delete(w.refused, accountID) // an operator asking wants every chunk tried
	w.mu.Unlock()
	return w.embedAccount(ctx, accountID)
}

func (w *Worker) embedAccount(ctx context.Context, id int64) (rep Report, err error) {
	rep = Report{AccountID: id, Model: w.o.Model}
	leased := false
	defer func() {
		if leased {
			// Released even when ctx ended, so that another process need not wait it out.
			if rerr := w.st.ReleaseEmbedding(context.WithoutCancel(ctx), id, w.holder); rerr != nil && err == nil {
				err = rerr
			}
		}
	}()
	var after int64
	for {
		// The lease is renewed before every batch, so it outlives the slowest batch.
		ok, err := w.st.LeaseEmbedding(ctx, id, w.holder, w.o.Now().Add(w.o.Lease))
		if err != nil {
			return rep, err
		}
		if !ok {
			return rep, fmt.Errorf("%w (account %d)", ErrBusy, id)
		}
		leased = true
		chunks, err := w.st.ChunksToEmbed(ctx, id, w.o.Model, after, w.o.Batch)
		if err != nil {
			return rep, err
		}
		if len(chunks) == 0 {
			break
		}
		after = chunks[len(chunks)-1].ID
		if chunks = w.notRefused(id, chunks); len(chunks) == 0 {
			continue
		}
		if err := w.embedBatch(ctx, id, chunks, &rep); err != nil {
			return rep, err
		}
	}
	return rep, w.settle(ctx, id, &rep)
}

// settle reads how much of the account the model covers and, when it covers every chunk,
// deletes the vectors of other models (a model change is then complete).
func (w *Worker) settle(ctx context.Context, id int64, rep *Report) error {
	st, err := w.st.EmbeddingStatus(ctx, id)
	if err != nil {
		return err
	}
	rep.Chunks = st.Chunks
	others := false
	for _, m := range st.Models {
		if m.Model == w.o.Model {
			rep.Vectors = m.Vectors
		} else {
			others = true
		}
	}
	if !others || rep.Vectors < st.Chunks {
		return nil
	}
	n, err := w.st.DeleteOtherModels(ctx, id, w.o.Model)
	rep.DeletedOther = n
	return err
}

// notRefused leaves out the chunks the provider refused recently.
func (w *Worker) notRefused(id int64, chunks []store.ChunkText) []store.ChunkText {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.refused[id]
	if len(r) == 0 {
		return chunks
	}
	now := w.o.Now()
	out := chunks[:0:0]
	for _, c := range chunks {
		if until, ok := r[c.ID]; ok && now.Before(until) {
			continue
		}
		delete(r, c.ID)
		out = append(out, c)
	}
	return out
}

// embedBatch embeds chunks, bills and stores what was embedded. A refusal (not an outage)
// is narrowed down to the chunks the provider refuses on their own, which are left out for
// RetryRefused.
func (w *Worker) embedBatch(ctx context.Context, id int64, chunks []store.ChunkText, rep *Report) error {
	if err := w.affordable(ctx, id, chunks); err != nil {
		return err
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = DocumentText(c)
	}
	res, err := w.emb.Embed(ctx, texts, embedding.Document)
	w.obs.EmbeddingCall("document", res.Tokens, errorKind(ctx, err))
	if n := len(res.Vectors); n > 0 {
		if kerr := w.keep(ctx, id, chunks[:n], res, rep); kerr != nil {
			return kerr
		}
	}
	switch {
	case err == nil:
		w.trouble.ok()
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, embedding.ErrUnavailable):
		w.trouble.failed(err)
		return fmt.Errorf("%w: %w", ErrProviderDown, err)
	}
	w.trouble.ok() // it answered, if only to refuse
	rest := chunks[len(res.Vectors):]
	if len(rest) == 1 {
		w.refuse(id, rest[0].ID, err)
		rep.Refused++
		return nil
	}
	for _, c := range rest {
		if err := w.embedBatch(ctx, id, []store.ChunkText{c}, rep); err != nil {
			return err
		}
	}
	return nil
}

func (w *Worker) refuse(id, chunkID int64, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.refused[id] == nil {
		w.refused[id] = map[int64]time.Time{}
	}
	w.refused[id][chunkID] = w.o.Now().Add(w.o.RetryRefused)
	w.log.Warn("the embedding provider refused a chunk; it is left out for now", "account", id, "chunk", chunkID,
		"retry_after", w.o.RetryRefused, "err", err)
}

// errorKind is remote.ErrorKind, with the worker's own cancellation said as such.
func errorKind(ctx context.Context, err error) string {
	if err != nil && ctx.Err() != nil {
		return remote.KindCanceled
	}
	return remote.ErrorKind(err)
}
