// Package store defines the persistence contract of svc: the records, one interface per
// aggregate, and the sentinel errors. The embedded SQLite implementation lives in
// store/sqlite; a PostgreSQL implementation satisfies the same interfaces and runs the same
// conformance suite (store/storetest).
//
// Every method takes ctx first and, where the data is per tenant, the account id second, so
// no query can forget the tenant boundary.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"
)

// Sentinel errors. Implementations wrap them with %w; callers test with errors.Is.
var (
	ErrNotFound            = errors.New("store: not found")
	ErrConflict            = errors.New("store: conflict")
	ErrInsufficientBalance = errors.New("store: insufficient balance")
	ErrQuotaReached        = errors.New("store: daily answer quota reached")
	ErrNotAssistant        = errors.New("store: message is not an assistant message")
	// ErrLimitReached: the account already has as many active embed tokens as allowed.
	ErrLimitReached = errors.New("store: limit reached")
	// ErrRevoked: the embed token is revoked, which is permanent.
	ErrRevoked = errors.New("store: revoked")
	// ErrBudgetReached: the embed token's daily budget is spent or held by answers in progress.
	ErrBudgetReached = errors.New("store: embed token daily budget reached")
)

// Plans and their default daily unique-answer limits (0 means unlimited).
const (
	PlanStarter = "starter"
	PlanGrowth  = "growth"
	PlanScale   = "scale"
	PlanCustom  = "custom"
)

// Tone presets.
const (
	ToneProfessional = "professional"
	ToneWarm         = "warm"
	ToneEnergetic    = "energetic"
)

// Message roles and sources (SERVICE.md, DECISIONS.md).
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"

	SourceAI          = "ai"
	SourceCacheTenant = "cache_tenant"
	SourceCacheShared = "cache_shared"
	SourceSystem      = "system"
	SourceFallback    = "fallback"
)

// Usage event types recorded per reply (and EventEmbedding, per batch of embedded chunks).
// Only EventAnswer counts against the daily unique-answer quota.
const (
	EventAnswer      = "answer"
	EventCacheTenant = "cache_tenant"
	EventCacheShared = "cache_shared"
	EventFallback    = "fallback"
	EventSystem      = "system"
	// EventSummary is the context-summary sub-call, recorded apart from the answer it ran for.
	EventSummary = "summary"
	// EventDegraded is an answer the built-in engine gave because the model provider failed;
	// it is free and does not count against the quota.
	EventDegraded = "degraded"
	// EventCacheOnly is a widget question that missed the cache while its embed token was
	// cache-only (daily budget reached or surge protection): answered with a free notice.
	EventCacheOnly = "cache_only"
	// EventEmbedding is a batch of KB chunks embedded for semantic retrieval, outside any
	// conversation (Billing.ChargeUsage): its input tokens, charged at the configured price
	// per million (which may be 0).
	EventEmbedding = "embedding"
)

// Document types of the knowledge base.
const (
	DocPage    = "page"
	DocQA      = "qa"
	DocProduct = "product"
	DocArticle = "article"
)

// Document origins: how a document came into the knowledge base, shown beside it in the
// dashboard so an owner knows where to change it (the site, the file, the program).
const (
	OriginCrawl  = "crawl"  // a crawl of one of the account's sites
	OriginImport = "import" // a JSON Lines import (svc kb import, the dashboard, the KB API)
	OriginUpload = "upload" // a file read by internal/ingest (PDF, Office, CSV, …)
	OriginAPI    = "api"    // written one at a time through the KB API (Q&A, products)
	OriginEditor = "editor" // the dashboard's Q&A editor
)

// Key statuses.
const (
	KeyActive  = "active"
	KeyRevoked = "revoked"
)

// Account is a tenant. Money is integer micro-USD; rates are micro-USD per 1M tokens.
type Account struct {
	ID             int64
	Name           string
	Email          string
	Plan           string
	Lang           string
	BalanceMicro   int64
	SalesMode      bool
	TonePreset     string
	ToneCustom     string
	SendRatePerMin int
	DailyAnswers   int // 0 = unlimited
	// MarketingRatePerMin and IntelligenceRatePerMin limit marketingGenerate and the
	// Intelligence API, requests a minute per account (0: no limit; account.Service sets
	// the defaults).
	MarketingRatePerMin    int
	IntelligenceRatePerMin int
	InputRate              int64
	OutputRate             int64
	// ReservedMicro is the part of the balance held by answers in progress (see
	// Billing.Reserve). It is read-only: only Reserve, Release and SaveTurn move it.
	ReservedMicro int64
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// APIKey is a secret key record. Only the SHA-256 hash of the key and its public prefix are
// stored.
type APIKey struct {
	ID         int64
	AccountID  int64
	Prefix     string
	Hash       []byte
	Status     string
	CreatedAt  time.Time
	LastUsedAt time.Time // zero when never used
}

// Conversation is the account's rolling API conversation, or one widget visitor's
// conversation (EmbedTokenID and Visitor set).
type Conversation struct {
	ID           int64
	AccountID    int64
	EmbedTokenID int64  // 0 for the API conversation
	Visitor      string // the widget visitor's UUID; "" for the API conversation
	Lang         string
	Summary      string
	// SummarizedThrough is the id of the newest message folded into Summary (0 = none).
	SummarizedThrough int64
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Product is a product card as learned from the KB.
type Product struct {
	Name     string `json:"name"`
	URL      string `json:"url,omitempty"`
	Price    string `json:"price,omitempty"`
	Category string `json:"category,omitempty"`
	Image    string `json:"image,omitempty"`
	// SKU is the product's stock-keeping unit when its record gave one (a products
	// spreadsheet): UpsertProducts matches a product by it before its URL.
	SKU string `json:"sku,omitempty"`
}

// Source is a document a reply quotes: its title (never empty) and its page, "" for a
// document without one (a Q&A entry, an imported article).
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Message is one message of a conversation.
type Message struct {
	ID             int64
	ConversationID int64
	AccountID      int64
	Role           string
	Body           string
	Source         string
	Lang           string
	LowConfidence  bool
	Products       []Product
	DocIDs         []int64 // KB documents the reply was drawn from
	// Sources name the documents an assistant reply quotes, as shown to the visitor (see
	// engine.Answer.Sources); empty for a reply that quotes nothing.
	Sources []Source
	// Via tells how a cache_tenant reply was served (ViaCurated, ViaCache); "" otherwise.
	Via       string
	CreatedAt time.Time
}

// Charge is the cost of one reply. AmountMicro may be 0 for a free reply; EventType is always
// set so that usage counts every reply by kind.
type Charge struct {
	EventType    string
	AmountMicro  int64
	InputTokens  int
	OutputTokens int
	// Calls are the provider calls (sub-calls) the charge sums, each with its own tokens.
	Calls []CallUsage
	// EventID is set by SaveTurn to the usage event it wrote.
	EventID int64
}

// CallUsage is one provider call of a charge.
type CallUsage struct {
	Call         string // "plan", "reply", "check", "summary", "engine"
	Model        string
	InputTokens  int
	OutputTokens int
	CostMicro    int64
}

// Reservation is part of an account's balance held for an answer in progress, so that
// concurrent sends cannot spend the same money. It lapses at ExpiresAt if never released
// (a crashed process), and SaveTurn releases it in the transaction that charges the answer.
type Reservation struct {
	ID           int64
	AccountID    int64
	EmbedTokenID int64 // set when the reservation counts against an embed token's budget
	AmountMicro  int64
	CreatedAt    time.Time
	ExpiresAt    time.Time
}

// ReleasedReservations counts what ReleaseReservations freed.
type ReleasedReservations struct {
	Count    int
	Micro    int64
	Accounts int
}

// SummaryUpdate replaces a conversation's summary in the transaction of a turn, unless the
// conversation's summary already covers Through or later (a fold of parallel sends that
// committed after a newer one).
type SummaryUpdate struct {
	Text    string
	Through int64 // id of the newest message the summary covers
}

// CacheEntry is a reusable answer of this account, keyed by the normalised question.
type CacheEntry struct {
	ID        int64
	AccountID int64
	Lang      string
	Key       string // normalised question
	Question  string
	Answer    string
	DocIDs    []int64
	Sources   []Source // the reply's sources, served again with it
	// Terms are the question's analyzed content terms; SimilarCached finds entries by them.
	Terms []string
	// Evidence names the KB sentences the question is answered from (engine.Answer.Evidence);
	// a similar question is served the entry only when its evidence is the same.
	Evidence  string
	MessageID int64
	Hits      int
	CreatedAt time.Time
}

// Turn is one question and its reply, committed together with the charge, the usage event,
// the conversation's new language, the cache entry and the article view counts: all of it or
// none of it.
type Turn struct {
	AccountID      int64
	ConversationID int64
	Lang           string // saved on the conversation
	User           Message
	Reply          Message
	Charge         Charge
	// QuotaLimit, when > 0 and the charge is an EventAnswer, makes the commit fail with
	// ErrQuotaReached if that many answers were already made since QuotaSince.
	QuotaLimit int
	QuotaSince time.Time
	// Cache, when non-nil, is stored (or replaced) as this account's cached answer; its
	// MessageID is set to the reply's id.
	Cache *CacheEntry
	// CacheHitID, when non-zero, is the cache entry that served this reply; its hit count rises.
	CacheHitID int64
	// ReservationID, when non-zero, is released in the same transaction. The charge is then
	// taken from the balance the reservation held: should it exceed what is free, it is capped
	// at the free balance and Capped reports the written-off rest, so a settled answer never
	// fails for money.
	ReservationID int64
	Capped        int64
	// OverdraftMicro, with ReservationID, lets the settled charge take the free balance down
	// to -OverdraftMicro instead of 0 before the rest is capped: a hold sized from what turns
	// usually cost (not the worst case) may then be exceeded by up to one more hold, which
	// the account owes, rather than written off.
	OverdraftMicro int64
	// Extra are further usage events of the turn (the context summary), each charged and
	// recorded like Charge but never counted against the quota.
	Extra []Charge
	// Summary, when non-nil, becomes the conversation's summary.
	Summary *SummaryUpdate
	// EmbedTokenID, when non-zero, attributes the turn's usage events to that embed token:
	// they count as its spend (EmbedUsage, TokenBudget).
	EmbedTokenID int64
	// Budget, when non-nil, is the embed token's daily budget: when the turn's charges bring
	// the token's spend since Budget.Since to Budget.LimitMicro or more, the commit also
	// enqueues BudgetNotice for it (once per token and day, by its dedupe key) and sets
	// NoticeQueued.
	Budget       *TokenBudget
	NoticeQueued bool
}

// Document is one KB record ready to store, with its chunks already analyzed.
type Document struct {
	ID        int64
	AccountID int64
	SiteID    int64 // 0 = none
	Type      string
	URL       string
	Title     string
	Body      string
	Lang      string
	Hash      string // content hash, to skip unchanged re-imports
	// SourceURL is the crawled page the document was learned from ("" for imports). Crawled
	// documents are keyed by it, so a re-crawl replaces what one page yields as a whole and
	// never overwrites an imported record.
	SourceURL string
	// Origin is how the document came in (OriginCrawl, OriginImport, OriginUpload, OriginAPI,
	// OriginEditor); "" when written lets the store choose: OriginCrawl for a document with
	// a SourceURL, else OriginImport.
	Origin    string
	Chunks    []Chunk
	Product   *Product     // for DocProduct
	Article   *ArticleMeta // for DocArticle
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ArticleMeta is the help-centre data of an article document.
type ArticleMeta struct {
	Slug         string
	Excerpt      string
	CategorySlug string
	CategoryName string
	ViewCount    int
}

// Chunk is a retrievable piece of a document. Terms is the analyzer's output, space
// separated; it is what the full-text index sees.
type Chunk struct {
	ID      int64
	Ord     int
	Heading string
	Text    string
	Terms   string
	// Tokens is Text's o200k_base token count, made when the chunk was built, so that an
	// answer that reads the chunk bills it without counting it again; 0 means not counted.
	Tokens int
}

// Article is an article as listed in suggestions.
type Article struct {
	ID           int64
	DocID        int64
	Slug         string
	Title        string
	Excerpt      string
	CategorySlug string
	CategoryName string
	ViewCount    int
}

// UpsertResult counts what UpsertProducts did.
type UpsertResult struct {
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
}

// ImportResult counts what an import did.
type ImportResult struct {
	Pages     int `json:"pages"`
	QA        int `json:"qa"`
	Products  int `json:"products"`
	Articles  int `json:"articles"`
	Unchanged int `json:"unchanged"`
}

// ProductQuery selects product documents: by id when DocIDs is set, else by language.
type ProductQuery struct {
	DocIDs []int64
	Lang   string
	Limit  int
	// SiteID, when non-zero, keeps only documents of that site of the account.
	SiteID int64
}

// SearchTerm is one analyzed query term; Prefix asks for every indexed term starting with Text.
type SearchTerm struct {
	Text   string
	Prefix bool
}

// SearchQuery asks for candidate chunks of one account matching any of Terms.
type SearchQuery struct {
	Terms []SearchTerm
	Types []string // document types to keep; empty = all
	Limit int
	// SiteID, when non-zero, keeps only documents of that site of the account.
	SiteID int64
}

// CatalogQuery pages through an account's products or curated Q&A entries (the
// Intelligence API's data op): no language model, no ranking beyond the filters.
type CatalogQuery struct {
	SiteID   int64  // 0 = the whole account
	Lang     string // "" = any language
	Category string // products only: exact category name, case-insensitive; "" = any
	// Terms, when set, keeps only entries whose analyzed text (the FTS terms of any of
	// their chunks) holds every one of them; Prefix terms match as prefixes.
	Terms  []SearchTerm
	Offset int
	Limit  int
}

// CatalogProduct is one product row of the data op.
type CatalogProduct struct {
	DocID       int64
	Name        string
	URL         string
	Price       string
	Category    string
	Image       string
	Description string // the product document's text, clipped by the store to 500 characters
	Lang        string
}

// CatalogFAQ is one curated Q&A row of the data op.
type CatalogFAQ struct {
	DocID    int64
	Question string
	Answer   string
	Lang     string
}

// CatalogCategory is a product category or a help-centre article category with how many
// documents it has.
type CatalogCategory struct {
	Kind  string // "product" or "article"
	Name  string
	Slug  string // article categories; "" for product categories
	Count int
}

// HeadingSep joins the headings of a chunk's heading path, outermost first ("Shipping ›
// Abroad"): the chunk's section lies under each of them.
const HeadingSep = " › "

// UnderHeading reports whether a chunk headed h belongs to the section headed section: the
// same heading, or one under it.
func UnderHeading(h, section string) bool {
	return h == section || strings.HasPrefix(h, section+HeadingSep)
}

// ChunkHit is a candidate chunk with its document's identity. Rank is the store's own
// relevance (higher is better); callers rerank.
type ChunkHit struct {
	ChunkID int64
	DocID   int64
	DocType string
	Title   string
	URL     string
	Lang    string
	Heading string
	Text    string
	Terms   string
	Tokens  int // Text's token count when known (Chunk.Tokens), else 0
	Rank    float64
	Product *Product
}

// TermStats are corpus statistics of one account's chunks, for BM25-style scoring.
type TermStats struct {
	Chunks    int
	AvgLength float64        // mean number of terms per chunk
	DocFreq   map[string]int // keyed by SearchTerm.Text (prefix terms count every match)
}

// Notes of the ledger's top-ups that svc itself writes. They are stored as written (the
// ledger's CSV export shows them so); the dashboard names them in the reader's language.
const (
	// LedgerNoteOpening is the note of an account's first balance, given at its creation.
	LedgerNoteOpening = "opening balance"
	// LedgerNoteBalanceAdd is the note of `svc balance add`.
	LedgerNoteBalanceAdd = "balance add"
	// LedgerNoteDeduct starts the note of `svc balance deduct`; the operator's reason follows.
	LedgerNoteDeduct = "balance deduct: "
)

// LedgerEntry is one movement of an account's balance: a top-up (positive) or a charge
// (negative). The entries of an account always sum to its balance.
type LedgerEntry struct {
	ID           int64
	AccountID    int64
	Kind         string // "topup" or "charge"
	AmountMicro  int64
	BalanceAfter int64
	MessageID    int64
	Note         string
	CreatedAt    time.Time
}

// UsageEvent is one reply's usage record.
type UsageEvent struct {
	ID           int64
	AccountID    int64
	EventType    string
	CostMicro    int64
	InputTokens  int
	OutputTokens int
	MessageID    int64
	CreatedAt    time.Time
}

// EventTotal aggregates events of one type.
type EventTotal struct {
	Count     int
	CostMicro int64
}

// UsageSummary is what usageSummary reports.
type UsageSummary struct {
	ByEvent      map[string]EventTotal // within the window
	WindowCount  int
	WindowCost   int64
	AllTimeCount int
	AllTimeCost  int64
	Recent       []UsageEvent
}

// Feedback is a rating of an assistant message.
type Feedback struct {
	ID        int64
	AccountID int64
	// ConversationID, when non-zero, requires the message to belong to that conversation
	// (a widget visitor may rate only their own messages): otherwise ErrNotFound.
	ConversationID int64
	MessageID      int64
	Rating         string
	Comment        string
	CreatedAt      time.Time
}

// ReviewItem is an answer flagged not_helpful, with the question that led to it.
type ReviewItem struct {
	FeedbackID int64
	MessageID  int64
	Question   string
	Answer     string
	Lang       string
	Comment    string
	CreatedAt  time.Time
	Resolved   bool
}

// Accounts stores tenants, their keys and their balance.
type Accounts interface {
	// CreateAccount inserts a, its first key and, when a.BalanceMicro > 0, a top-up ledger entry.
	CreateAccount(ctx context.Context, a *Account, key *APIKey) error
	GetAccount(ctx context.Context, accountID int64) (Account, error)
	// FindAccountByName returns the first account with that name, or ErrNotFound.
	FindAccountByName(ctx context.Context, name string) (Account, error)
	// UpdateAccount writes every settable field of a (not the balance).
	UpdateAccount(ctx context.Context, a *Account) error
	// AddBalance adds (or, negative, removes) micro-USD as a ledger top-up and returns the new
	// balance. It refuses to take the balance below zero with ErrInsufficientBalance.
	AddBalance(ctx context.Context, accountID int64, amountMicro int64, note string) (int64, error)
	Ledger(ctx context.Context, accountID int64) ([]LedgerEntry, error)
}

// KeyFreshness is what a remembered KeyAccount is checked against (Keys.KeyFreshness).
type KeyFreshness struct {
	Status           string
	LastUsedAt       time.Time
	AccountUpdatedAt time.Time
	BalanceMicro     int64
	ReservedMicro    int64
}

// KeyAccount is a key and the account it belongs to, as read together.
type KeyAccount struct {
	Key     APIKey
	Account Account
}

// Keys stores secret API keys.
type Keys interface {
	// ActiveKeysByPrefix returns the active keys with that public prefix; the caller compares
	// hashes in constant time.
	ActiveKeysByPrefix(ctx context.Context, prefix string) ([]APIKey, error)
	// ActiveKeyAccounts is ActiveKeysByPrefix with each key's account, read together.
	ActiveKeyAccounts(ctx context.Context, prefix string) ([]KeyAccount, error)
	// KeyFreshness reads what of a key and its account can change between two requests:
	// the key's status and last use, the account's money and the time its settings last
	// changed. ErrNotFound when the key is gone.
	KeyFreshness(ctx context.Context, keyID int64) (KeyFreshness, error)
	// RotateKey revokes every active key of the account and inserts key, in one transaction.
	RotateKey(ctx context.Context, accountID int64, key *APIKey) error
	GetKey(ctx context.Context, accountID, keyID int64) (APIKey, error)
	// TouchKey records use of the key; implementations may skip writes more often than once
	// a minute.
	TouchKey(ctx context.Context, keyID int64, at time.Time) error
}

// Conversations stores conversations, messages, turns, the answer cache and feedback.
type Conversations interface {
	// OpenConversation returns the account's rolling conversation, creating it in lang.
	OpenConversation(ctx context.Context, accountID int64, lang string) (Conversation, error)
	// Messages returns up to limit messages with id > sinceID, oldest first.
	Messages(ctx context.Context, accountID, conversationID, sinceID int64, limit int) ([]Message, error)
	// LastMessages returns the newest limit messages, oldest first.
	LastMessages(ctx context.Context, accountID, conversationID int64, limit int) ([]Message, error)
	// SaveTurn commits t atomically and fills the messages' ids and times. It returns
	// ErrInsufficientBalance or ErrQuotaReached (and writes nothing) when the charge does not
	// fit.
	SaveTurn(ctx context.Context, t *Turn) error
	// CachedAnswer returns the account's cache entry for (lang, key), or ErrNotFound. Its
	// Terms are not filled: an exact hit needs the answer, not the terms that find similar
	// questions (SimilarCached fills them).
	CachedAnswer(ctx context.Context, accountID int64, lang, key string) (CacheEntry, error)
	// SimilarCached returns the account's cache entries in lang that share at least one of
	// terms, most shared terms first, at most limit, each with its Terms filled.
	SimilarCached(ctx context.Context, accountID int64, lang string, terms []string, limit int) ([]CacheEntry, error)
	// CountEvents counts usage events of a type since a time.
	CountEvents(ctx context.Context, accountID int64, eventType string, since time.Time) (int, error)
	// SaveFeedback stores (or replaces) the rating of an assistant message of the account.
	// A not_helpful rating withdraws any cached answer made from that message.
	SaveFeedback(ctx context.Context, f *Feedback) error
	ReviewList(ctx context.Context, accountID int64) ([]ReviewItem, error)
	// ResolveReview answers a not_helpful review item: in one transaction it upserts doc (a
	// curated Q&A entry built by the caller) like ImportDocuments, marks the feedback
	// resolved and fills doc.ID. ErrNotFound when the account has no not_helpful feedback
	// with that id.
	ResolveReview(ctx context.Context, accountID, feedbackID int64, doc *Document) error
	// TopQuestions returns the most asked cached questions in lang.
	TopQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error)
}

// KB stores knowledge-base documents, their chunks and the full-text index.
type KB interface {
	// ImportDocuments upserts docs in one transaction (pages by URL, Q&A by question and
	// language, products by URL or name, articles by slug) and withdraws the cached answers
	// drawn from any document it changed.
	ImportDocuments(ctx context.Context, accountID int64, docs []Document) (ImportResult, error)
	// ImportDocumentSeq is ImportDocuments for documents produced one at a time (a large
	// import file), still in one transaction: an error from docs imports nothing.
	ImportDocumentSeq(ctx context.Context, accountID int64, docs iter.Seq2[Document, error]) (ImportResult, error)
	// UpsertProducts writes product documents (Type DocProduct with a Product) in one
	// transaction, so that a catalogue pushed again (a nightly export) updates the cards it
	// made: a product with a SKU is the account's product with that SKU, or else the one
	// imported at its URL without a SKU (which takes the SKU), or else new; one without a
	// SKU is matched by its URL (or its name when it has none), as ImportDocuments matches
	// it. Crawled products are never matched. Cached answers drawn from a changed product
	// are withdrawn and the KB version moves, as with every KB write.
	UpsertProducts(ctx context.Context, accountID int64, docs []Document) (UpsertResult, error)
	SearchChunks(ctx context.Context, accountID int64, q SearchQuery) ([]ChunkHit, error)
	// SectionChunks returns the section of a document that the chunk chunkID of the account
	// is part of, in document order, the chunk included: the run of its document's chunks
	// around it, at most reach on either side, whose heading is its heading or a heading
	// under it ("Returns › Damaged goods" under "Returns"). A section longer than a chunk is
	// cut into several by size alone, so the one that matched a question best may hold its
	// words while the one before holds the answer. Empty when the chunk is not the account's.
	SectionChunks(ctx context.Context, accountID, chunkID int64, reach int) ([]ChunkHit, error)
	TermStats(ctx context.Context, accountID int64, terms []SearchTerm) (TermStats, error)
	// KBState returns the account's running chunk totals (see KBState). Kept with the chunks,
	// so it costs one indexed read at any KB size: a send asks it first and skips the
	// curated-answer check of a KB without Q&A and the cards of one without products, and
	// rechecks a cached answer against the engine once per version of the KB.
	KBState(ctx context.Context, accountID int64) (KBState, error)
	GetDocument(ctx context.Context, accountID, docID int64) (Document, error)
	// QAQuestions returns curated questions in lang, oldest first.
	QAQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error)
	// Products returns the first chunk of the account's product documents, each with its card:
	// those with the given ids, or else those in lang ("" = any), in document order, at most
	// Limit. It answers "which products are there" without a full-text query.
	Products(ctx context.Context, accountID int64, q ProductQuery) ([]ChunkHit, error)
	// Articles returns the account's articles in lang ("" = every language), most viewed
	// first.
	Articles(ctx context.Context, accountID int64, lang string, limit int) ([]Article, error)
	// Headings returns the section headings of the account's pages and articles in lang,
	// each once per document, at most limit: those of the documents with the most headings
	// that end in a question mark first (a FAQ page), then in document order. The material
	// of starter questions.
	Headings(ctx context.Context, accountID int64, lang string, limit int) ([]Heading, error)
	CountDocuments(ctx context.Context, accountID int64) (map[string]int, error)
	// CatalogProducts returns a page of the account's products (name order, then id) and
	// how many match in all.
	CatalogProducts(ctx context.Context, accountID int64, q CatalogQuery) ([]CatalogProduct, int, error)
	// CatalogFAQ returns a page of the account's curated Q&A entries (oldest first) and how
	// many match in all. Category is ignored.
	CatalogFAQ(ctx context.Context, accountID int64, q CatalogQuery) ([]CatalogFAQ, int, error)
	// CatalogCategories lists the product categories and article categories of the account
	// (of one site when siteID is non-zero; in lang when lang is set), by kind then name.
	CatalogCategories(ctx context.Context, accountID, siteID int64, lang string) ([]CatalogCategory, error)
}

// KBState is what an account's running chunk totals say about its KB.
type KBState struct {
	// Chunks is how many chunks the KB holds of each document type it has any of (a type it
	// has none of is absent).
	Chunks map[string]int
	// Version grows with every change of the account's chunks, in the transaction that makes
	// it: what was worked out from the KB at one version holds until the version moves.
	Version int64
}

// Heading is a section heading of a document.
type Heading struct {
	DocID int64
	Text  string
}

// Embed token statuses (DECISIONS.md: the revoked state is named "revoked").
const (
	EmbedActive  = "active"
	EmbedRevoked = "revoked"
)

// EmbedToken is a public widget token. Only the SHA-256 of the full token and its prefix
// ("svc_emb_" plus its first 8 characters) are stored.
type EmbedToken struct {
	ID               int64
	AccountID        int64
	Prefix           string
	Hash             []byte
	Label            string
	Domains          []string // normalised allowed domains; their subdomains pass too
	DailyBudgetMicro int64
	// HideSources keeps the widget from listing a reply's sources under it (the API's
	// show_sources is its negation, so that the zero value shows them, the default).
	HideSources bool
	Status      string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	LastUsedAt  time.Time // zero when never used
	RevokedAt   time.Time // zero unless revoked
}

// EmbedUsage is one embed token's activity since a time (the start of the UTC day).
type EmbedUsage struct {
	SpendMicro    int64 // charged usage events of the token's turns
	ReservedMicro int64 // live reservations held against the token's budget
	Conversations int   // visitor conversations with a turn since
	Visitors      int   // visitors who opened the widget since
}

// TokenBudget bounds a reservation or a turn by an embed token's daily budget.
type TokenBudget struct {
	TokenID    int64
	LimitMicro int64
	Since      time.Time // 00:00 UTC of the budget's day
}

// EmbedTokens stores widget tokens and the widget visitors' conversations.
type EmbedTokens interface {
	// CreateEmbedToken inserts t as active and fills its ID, Status and times. It fails with
	// ErrLimitReached, writing nothing, when the account already has maxActive active
	// tokens; the count and the insert are one transaction.
	CreateEmbedToken(ctx context.Context, t *EmbedToken, maxActive int) error
	// EmbedTokens returns all of the account's tokens, active ones first, newest first.
	EmbedTokens(ctx context.Context, accountID int64) ([]EmbedToken, error)
	// GetEmbedToken returns one of the account's tokens, or ErrNotFound.
	GetEmbedToken(ctx context.Context, accountID, tokenID int64) (EmbedToken, error)
	// UpdateEmbedToken writes t's Label, Domains and DailyBudgetMicro. ErrNotFound when the
	// account has no such token, ErrRevoked when it is revoked.
	UpdateEmbedToken(ctx context.Context, t *EmbedToken) error
	// RevokeEmbedToken revokes the token for good; revoking a revoked token is not an error.
	// ErrNotFound when the account has no such token.
	RevokeEmbedToken(ctx context.Context, accountID, tokenID int64) error
	// ActiveEmbedTokensByPrefix returns the active tokens with that prefix, of any account;
	// the caller compares hashes in constant time.
	ActiveEmbedTokensByPrefix(ctx context.Context, prefix string) ([]EmbedToken, error)
	// ActiveEmbedDomains is the set of domains of every active token of every account, for
	// CORS preflights, which carry no token.
	ActiveEmbedDomains(ctx context.Context) ([]string, error)
	// TouchEmbedToken records use of the token; it may skip writes within a minute of the last.
	TouchEmbedToken(ctx context.Context, tokenID int64, at time.Time) error
	// EmbedUsage reports the usage since a time of each of the account's tokens that had
	// any, keyed by token id.
	EmbedUsage(ctx context.Context, accountID int64, since time.Time) (map[int64]EmbedUsage, error)
	// EmbedSpend is one token's charged spend since a time: EmbedUsage's SpendMicro alone, in
	// one indexed query, for the widget's mode on every sync poll and send.
	EmbedSpend(ctx context.Context, accountID, tokenID int64, since time.Time) (int64, error)
	// OpenVisitorConversation returns the conversation of (tokenID, visitor), creating it in
	// lang, and records the visitor as seen now. The token must be the account's.
	OpenVisitorConversation(ctx context.Context, accountID, tokenID int64, visitor, lang string) (Conversation, error)
	// CountUserMessages counts the conversation's user messages created at or after since.
	CountUserMessages(ctx context.Context, accountID, conversationID int64, since time.Time) (int, error)
}

// Notice kinds and statuses of the outbox.
const (
	NoticeBudgetReached = "embed_budget_reached"
	// NoticePasswordReset and NoticeUserInvite mail a one-time link to a dashboard user
	// (not to the account's address); their payload is users.LinkPayload.
	NoticePasswordReset = "password_reset"
	NoticeUserInvite    = "user_invite"

	NoticePending = "pending"
	NoticeSent    = "sent"
	NoticeFailed  = "failed" // given up after the last attempt
)

// Notice is an e-mail to an account owner waiting in the durable outbox. The store keeps
// data only; the notify package composes and sends the message.
type Notice struct {
	ID            int64
	AccountID     int64
	Kind          string
	DedupeKey     string // unique: a second notice with the same key is not queued
	Payload       string // JSON, by kind (BudgetPayload)
	Status        string
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	CreatedAt     time.Time
	SentAt        time.Time // zero until sent
}

// BudgetPayload is the payload of a NoticeBudgetReached notice.
type BudgetPayload struct {
	TokenID    int64  `json:"token_id"`
	Day        string `json:"day"` // YYYY-MM-DD, UTC
	LimitMicro int64  `json:"limit_micro"`
	SpendMicro int64  `json:"spend_micro"`
}

// BudgetNotice is the notice that an embed token's budget for the day starting at since is
// reached; its dedupe key makes it once per token and day.
func BudgetNotice(accountID int64, b TokenBudget, spendMicro int64) Notice {
	day := b.Since.UTC().Format("2006-01-02")
	p, _ := json.Marshal(BudgetPayload{TokenID: b.TokenID, Day: day, LimitMicro: b.LimitMicro, SpendMicro: spendMicro})
	return Notice{AccountID: accountID, Kind: NoticeBudgetReached, DedupeKey: fmt.Sprintf("budget:%d:%s", b.TokenID, day),
		Payload: string(p)}
}

// Outbox is the durable queue of owner notices: a notice is written in the transaction of
// what caused it and leaves only once the mail server has accepted it.
type Outbox interface {
	// EnqueueNotice inserts n as pending and due at once, filling ID, Status and times,
	// unless a notice with its DedupeKey exists: then it reports false and writes nothing.
	EnqueueNotice(ctx context.Context, n *Notice) (queued bool, err error)
	// ClaimNotices returns up to limit pending notices due at or before now, oldest first,
	// and moves their NextAttemptAt to now+lease in the same transaction, so that another
	// worker (or process) does not take them while this one sends.
	ClaimNotices(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Notice, error)
	// NoticeSent marks a notice sent at at. With clearPayload its payload becomes "{}":
	// for kinds whose payload holds a secret (a one-time link) that must not outlive the mail.
	NoticeSent(ctx context.Context, noticeID int64, at time.Time, clearPayload bool) error
	// NoticeFailed records a failed attempt: Attempts+1, LastError, and the next attempt at
	// next, or status NoticeFailed when final.
	NoticeFailed(ctx context.Context, noticeID int64, errText string, next time.Time, final bool) error
	// Notices returns the account's notices, newest first.
	Notices(ctx context.Context, accountID int64) ([]Notice, error)
}

// Billing reads usage.
type Billing interface {
	UsageSummary(ctx context.Context, accountID int64, since time.Time, recent int) (UsageSummary, error)
	// AverageCost is the mean cost of the last n charged answers; ok is false when there are none.
	AverageCost(ctx context.Context, accountID int64, n int) (avg int64, ok bool, err error)
	// Reserve holds amount of the account's balance for ttl. It fails with
	// ErrInsufficientBalance when the balance less every live reservation is below amount.
	// Lapsed reservations of the account are released first.
	//
	// With budget, the reservation also counts against the embed token's daily budget: it
	// fails with ErrBudgetReached (checked before the balance) when the token's spend since
	// budget.Since plus its live reservations is already budget.LimitMicro or more. A
	// reservation is granted while any of the budget is left, so concurrent answers can
	// overshoot it by at most one reservation. The check and the insert are serialised per
	// token (one transaction; a row lock on the token where the engine needs one).
	Reserve(ctx context.Context, accountID, amountMicro int64, ttl time.Duration, budget *TokenBudget) (Reservation, error)
	// Release gives a reservation back; releasing one that is gone is not an error.
	Release(ctx context.Context, accountID, reservationID int64) error
	// ReleaseReservations releases, across every account, the reservations that expired at
	// or before expiredBy and those created before createdBefore (the start of a process that
	// knows no earlier one is alive; zero releases none by age), and reports what it freed.
	ReleaseReservations(ctx context.Context, expiredBy, createdBefore time.Time) (ReleasedReservations, error)
	// UsageCalls returns the provider calls recorded for a usage event, in call order.
	UsageCalls(ctx context.Context, accountID, eventID int64) ([]CallUsage, error)
	// ChargeUsage records one usage event that belongs to no conversation (a marketing or
	// Intelligence API call) and charges it, in one transaction, the way SaveTurn charges a
	// turn: with reservationID non-zero the reservation is released and the charge is capped
	// at the free balance (c.AmountMicro is set to what was taken, and the written-off rest is
	// returned); without one, a charge that exceeds the free balance fails with
	// ErrInsufficientBalance and writes nothing. It fills c.EventID. The ledger row of a
	// non-zero charge has message_id NULL and note c.EventType.
	ChargeUsage(ctx context.Context, accountID int64, c *Charge, reservationID int64) (capped int64, err error)
}

// Store is everything svc persists.
type Store interface {
	Sites
	Crawls
	Accounts
	Keys
	Conversations
	KB
	Billing
	EmbedTokens
	Outbox
	Users
	Dashboard
	Monitoring
	LedgerChecker
	Privacy
	Vectors
	TestSets
	Ping(ctx context.Context) error
	Close() error
}
