package store

import (
	"context"
	"time"
)

// Ways a cache_tenant reply was served (Message.Via), so the dashboard can tell curated
// answers from reused ones. Other sources leave Via empty.
const (
	ViaCurated = "curated" // a curated Q&A entry answered
	ViaCache   = "cache"   // an earlier answer of the account was reused
)

// Conversation channels of the dashboard's filter.
const (
	ChannelAPI    = "api"    // the account's API conversation
	ChannelWidget = "widget" // widget visitors' conversations
)

// Ratings a conversation filter can ask for.
const (
	RatingHelpful    = "helpful"
	RatingNotHelpful = "not_helpful"
)

// ConversationFilter selects conversations for the dashboard's list. Only conversations
// with at least one message are listed.
type ConversationFilter struct {
	Channel      string // "" any, ChannelAPI or ChannelWidget
	EmbedTokenID int64  // > 0: only that token's visitor conversations
	Lang         string // "" any: the conversation's language
	// Since and Until bound the conversation's last message time: Since <= t < Until;
	// zero values leave that side open.
	Since, Until time.Time
	// Rating: "" any; RatingHelpful or RatingNotHelpful: at least one reply so rated.
	Rating      string
	HadFallback bool // only conversations with at least one fallback reply
	// Keyset paging, newest first: only conversations whose (LastMessageAt, ID) is before
	// (BeforeAt, BeforeID). Zero BeforeAt: the first page.
	BeforeAt time.Time
	BeforeID int64
	Limit    int
}

// ConversationRow is one line of the dashboard's conversation list.
type ConversationRow struct {
	Conversation
	TokenLabel    string // the embed token's label ("" for the API conversation or no label)
	Messages      int
	LastMessageAt time.Time
	// Preview is the newest user message, clipped to 160 characters.
	Preview    string
	Fallbacks  int
	Helpful    int
	NotHelpful int
	CostMicro  int64 // what the conversation's replies were charged in all
}

// TranscriptMessage is a message with what the dashboard shows beside it.
type TranscriptMessage struct {
	Message
	// EventType and CostMicro are the usage event recorded for this reply ("" and 0 for a
	// user message or a reply with no event).
	EventType string
	CostMicro int64
	// Rating and Comment are the feedback on this reply ("" when none).
	Rating  string
	Comment string
}

// DayUsage is one UTC day's usage events of one type.
type DayUsage struct {
	Day       time.Time // 00:00 UTC
	EventType string
	Count     int
	CostMicro int64
}

// Reply sources of the dashboard's "answers by source" chart.
const (
	DaySourceAI       = "ai"       // source ai
	DaySourceCache    = "cache"    // cache_tenant reused answers, and cache_shared small talk
	DaySourceCurated  = "curated"  // cache_tenant from a curated entry
	DaySourceFallback = "fallback" // source fallback
	DaySourceSystem   = "system"   // system notices
)

// DaySourceOf is the DaySource* kind of an assistant reply of source and via (Message.Source
// and Message.Via); ok is false for a source the chart does not show.
func DaySourceOf(source, via string) (kind string, ok bool) {
	switch source {
	case SourceAI:
		// Built-in answers given when the provider failed are ai replies too.
		return DaySourceAI, true
	case SourceCacheTenant:
		if via == ViaCurated {
			return DaySourceCurated, true
		}
		return DaySourceCache, true
	case SourceCacheShared:
		return DaySourceCache, true
	case SourceFallback:
		return DaySourceFallback, true
	case SourceSystem:
		// Balance and cache-only notices.
		return DaySourceSystem, true
	}
	return "", false
}

// DaySource is one UTC day's assistant replies of one DaySource* kind.
type DaySource struct {
	Day    time.Time
	Source string
	Count  int
}

// ReplyStats counts an account's assistant replies since a time.
type ReplyStats struct {
	Replies       int
	Free          int // replies whose usage event cost nothing (or that had none)
	LowConfidence int
}

// UnansweredQuestion is a question the assistant fell back on, with how often it was asked.
type UnansweredQuestion struct {
	Question    string // the text as last asked
	Lang        string
	Count       int
	LastAskedAt time.Time
	MessageID   int64 // the newest user message asking it
}

// Review queue kinds.
const (
	ReviewNotHelpful = "not_helpful" // a reply rated not helpful; ID is the feedback id
	ReviewFallback   = "fallback"    // a question answered by a fallback; ID is the user message id
)

// ReviewQueueItem is one open item of the dashboard's review queue.
type ReviewQueueItem struct {
	Kind           string
	ID             int64
	ConversationID int64
	Question       string
	Answer         string
	Lang           string
	Comment        string
	CreatedAt      time.Time
}

// DocQuery selects knowledge-base documents for browsing.
type DocQuery struct {
	Type   string // "" any, or a Doc* type
	SiteID int64  // > 0: only that site's documents
	Lang   string
	// Query, when set, keeps documents whose title, URL or text contains it
	// (case-insensitive for ASCII letters).
	Query  string
	Offset int
	Limit  int
}

// DocumentRow is one line of the knowledge-base browser.
type DocumentRow struct {
	ID        int64
	SiteID    int64
	Type      string
	URL       string
	Title     string
	Lang      string
	Excerpt   string // the document's text, clipped to 200 characters
	Chunks    int
	Product   *Product     // for DocProduct
	Article   *ArticleMeta // for DocArticle
	SourceURL string
	Origin    string // store.OriginCrawl, OriginImport, …
	UpdatedAt time.Time
}

// Dashboard holds the reads and edits of the customer dashboard.
type Dashboard interface {
	// ListConversations returns a page of the account's conversations, newest last message
	// first (ties by id, descending).
	ListConversations(ctx context.Context, accountID int64, f ConversationFilter) ([]ConversationRow, error)
	// GetConversation returns one of the account's conversations, or ErrNotFound.
	GetConversation(ctx context.Context, accountID, conversationID int64) (Conversation, error)
	// Transcript returns up to limit messages of the conversation with id < beforeID
	// (0: the newest), oldest first, each with its cost and feedback. ErrNotFound when the
	// account has no such conversation.
	Transcript(ctx context.Context, accountID, conversationID, beforeID int64, limit int) ([]TranscriptMessage, error)

	// DailyUsage sums the account's usage events since a time by UTC day and type.
	DailyUsage(ctx context.Context, accountID int64, since time.Time) ([]DayUsage, error)
	// DailySources counts the account's assistant replies since a time by UTC day and
	// DaySource* kind.
	DailySources(ctx context.Context, accountID int64, since time.Time) ([]DaySource, error)
	// ReplyStats counts the account's assistant replies since a time.
	ReplyStats(ctx context.Context, accountID int64, since time.Time) (ReplyStats, error)
	// Unanswered returns the questions answered by a fallback since a time, grouped by
	// their trimmed, case-folded text, most asked first, at most limit.
	Unanswered(ctx context.Context, accountID int64, since time.Time, limit int) ([]UnansweredQuestion, error)
	// AskedQuestions returns the account's questions asked since a time, newest first, at
	// most limit, each with its reply's source and rating and its review item's state.
	// Small talk is left out: it asks nothing. The read walks the replies' index from the
	// newest, so it costs the same whatever the account's size.
	AskedQuestions(ctx context.Context, accountID int64, since time.Time, limit int) ([]AskedQuestion, error)

	// ReviewQueue returns a page of the open review items of a kind ("" both), newest
	// first, and how many are open in all.
	ReviewQueue(ctx context.Context, accountID int64, kind string, offset, limit int) ([]ReviewQueueItem, int, error)
	// ReviewItem returns one open review item of a kind (not "") by its id, or ErrNotFound
	// when the account has no such open item.
	ReviewItem(ctx context.Context, accountID int64, kind string, id int64) (ReviewQueueItem, error)
	// DismissReview closes an open review item without an answer. ErrNotFound when the
	// account has no such open item.
	DismissReview(ctx context.Context, accountID int64, kind string, id int64) error
	// ResolveFallback answers a fallback question: in one transaction it upserts doc (a
	// curated Q&A entry) like ImportDocuments, closes the item and every other open
	// fallback item of the account with the same trimmed, case-folded question, and fills
	// doc.ID. ErrNotFound when the account has no such open item.
	ResolveFallback(ctx context.Context, accountID, messageID int64, doc *Document) error

	// ListDocuments returns a page of the account's documents (newest first) and how many
	// match in all.
	ListDocuments(ctx context.Context, accountID int64, q DocQuery) ([]DocumentRow, int, error)
	// DeleteDocument removes a document with its chunks, index rows and product or article
	// data, and withdraws the cached answers drawn from it. ErrNotFound when the account
	// has no such document.
	DeleteDocument(ctx context.Context, accountID, docID int64) error
	// ReplaceDocument, in one transaction, deletes the document oldID (as DeleteDocument)
	// and upserts doc like ImportDocuments, filling doc.ID: editing a curated Q&A entry
	// whose question changed. ErrNotFound when the account has no document oldID.
	ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *Document) error

	// LedgerPage returns up to limit ledger entries with id < beforeID (0: the newest),
	// newest first, and how many entries the account has in all.
	LedgerPage(ctx context.Context, accountID, beforeID int64, limit int) ([]LedgerEntry, int, error)
	// ActiveKey returns the account's active secret key (its newest, should there be more
	// than one), or ErrNotFound.
	ActiveKey(ctx context.Context, accountID int64) (APIKey, error)
}
