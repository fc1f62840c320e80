// Package chat is the conversation domain: the one rolling conversation of an account, the
// `send` pipeline in the order SERVICE.md fixes, sync, suggestions and feedback. It knows
// nothing of HTTP; the api package calls it and renders what it returns.
package chat

import (
	"context"
	"log/slog"
	"time"

	"svc/internal/billing"
	"svc/internal/embed"
	"svc/internal/engine"
	"svc/internal/i18n"
	"svc/internal/ratelimit"
	"svc/internal/store"
)

// Answerer composes replies from the KB and keeps conversation summaries. The built-in
// engine and the model-backed engine (llmanswer) implement it.
type Answerer interface {
	Answer(ctx context.Context, req engine.Request) (engine.Answer, error)
	Summarize(ctx context.Context, req engine.SummaryRequest) (engine.Summary, error)
	// Budget is the most tokens an answer to req (and a summary of fold, when given) may
	// use; the send reserves their price before it starts. 0, 0 asks for no reservation.
	Budget(req engine.Request, fold []engine.Turn) (in, out int)
	// Evidence names the KB sentences a question is answered from, without composing or
	// billing anything (engine.Answer.Evidence); "" when nothing answers it.
	Evidence(ctx context.Context, accountID int64, question, lang string) (string, error)
}

// Limits of the conversation surface (SERVICE.md, Limits).
const (
	MaxMessageChars   = 2000
	MaxCommentChars   = 500
	StartHistory      = 100 // messages returned by start
	SyncPage          = 500 // messages returned by one sync call
	MaxProductCards   = 8
	suggestedArticles = 10
	suggestedSeeds    = 6
)

// Service runs conversations.
type Service struct {
	st      store.Store
	engine  Answerer
	limiter ratelimit.Limiter
	surge   *embed.Surge
	notify  func()
	now     func() time.Time
	log     *slog.Logger
	texts   *i18n.Catalog
	// observer counts committed replies; nil when nothing watches.
	observer Observer
	// holds sizes reservations from recent answers; wakeups wakes sends waiting for them,
	// and turns lets one of them at a time retry.
	holds   *billing.Holds
	wakeups wakeups
	turns   holdTurns
	// readings remembers what recent messages' texts say (see reading).
	readings *readings
	// verdicts remembers whether the engine stands behind cache entries (see vouched).
	verdicts *verdicts
	// folding holds the conversations whose summary a send is writing.
	folding *folding
	holdTTL time.Duration
	// embedPrice is what a million embedding tokens cost (SVC_EMBED_PRICE_PER_MTOK).
	embedPrice int64
}

// Deps are the Service's collaborators.
type Deps struct {
	Store   store.Store
	Engine  Answerer
	Limiter ratelimit.Limiter
	// Surge watches widget tokens for question spikes; nil turns surge protection off.
	Surge *embed.Surge
	// Notify is called after a turn queued an owner notice, to wake the outbox; may be nil.
	Notify func()
	Now    func() time.Time // time.Now when nil
	Log    *slog.Logger     // slog.Default() when nil
	// Texts is the catalog of the notices a visitor reads; the embedded one when nil.
	Texts *i18n.Catalog
	// Observer is told of every committed reply (metrics); may be nil.
	Observer Observer
	// HoldTTL is how long an answer's reservation lasts unless settled (SVC_HOLD_TTL);
	// billing.DefaultHoldTTL when zero.
	HoldTTL time.Duration
	// EmbedPricePerMTok is what a million tokens of question embeddings cost, in micro-USD
	// (SVC_EMBED_PRICE_PER_MTOK); 0 meters them without charging.
	EmbedPricePerMTok int64
}

// New returns a Service.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Texts == nil {
		d.Texts = defaultTexts()
	}
	if d.HoldTTL <= 0 {
		d.HoldTTL = billing.DefaultHoldTTL
	}
	return &Service{holdTTL: d.HoldTTL, st: d.Store, engine: d.Engine, limiter: d.Limiter, surge: d.Surge, notify: d.Notify, now: d.Now,
		log: d.Log, texts: d.Texts, observer: d.Observer, holds: billing.NewHolds(), readings: newReadings(), verdicts: newVerdicts(),
		folding: newFolding(), embedPrice: d.EmbedPricePerMTok}
}

// View is a conversation with some of its messages.
type View struct {
	ConversationID int64
	Lang           string
	Messages       []store.Message
}

// Start opens (or resumes) the account's conversation and returns its recent history.
func (s *Service) Start(ctx context.Context, a store.Account) (View, error) {
	c, err := s.st.OpenConversation(ctx, a.ID, a.Lang)
	if err != nil {
		return View{}, err
	}
	msgs, err := s.st.LastMessages(ctx, a.ID, c.ID, StartHistory)
	if err != nil {
		return View{}, err
	}
	return View{ConversationID: c.ID, Lang: c.Lang, Messages: msgs}, nil
}

// Sync returns the messages after sinceID, oldest first, at most SyncPage of them.
func (s *Service) Sync(ctx context.Context, a store.Account, sinceID int64) (View, error) {
	c, err := s.st.OpenConversation(ctx, a.ID, a.Lang)
	if err != nil {
		return View{}, err
	}
	msgs, err := s.st.Messages(ctx, a.ID, c.ID, sinceID, SyncPage)
	if err != nil {
		return View{}, err
	}
	return View{ConversationID: c.ID, Lang: c.Lang, Messages: msgs}, nil
}
