package store

import (
	"context"
	"time"
)

// VisitorConversation is one widget conversation of a visitor with everything stored in it,
// as a data request exports it.
type VisitorConversation struct {
	Conversation
	TokenLabel    string    // the embed token's label ("" when it has none)
	LastMessageAt time.Time // zero while it has no message
	LastSeenAt    time.Time // when the visitor last opened the widget
	Messages      []Message // oldest first
	Feedback      []Feedback
}

// VisitorData is everything an account stores about one widget visitor: their
// conversations under any of the account's embed tokens, oldest first.
type VisitorData struct {
	AccountID     int64
	Visitor       string
	Conversations []VisitorConversation
}

// VisitorDeletion counts what deleting visitor conversations removed.
type VisitorDeletion struct {
	Conversations int `json:"conversations"`
	Messages      int `json:"messages"`
	Feedback      int `json:"feedback"`
	// ReviewItems are the fallback questions of the review queue that were the visitor's.
	ReviewItems int `json:"review_items"`
	// CacheEntries are cached answers made from the visitor's messages: an entry keeps the
	// question as the visitor typed it, so it goes with them (the next asker is answered
	// afresh).
	CacheEntries int `json:"cache_entries"`
}

// Add adds o's counts to d.
func (d *VisitorDeletion) Add(o VisitorDeletion) {
	d.Conversations += o.Conversations
	d.Messages += o.Messages
	d.Feedback += o.Feedback
	d.ReviewItems += o.ReviewItems
	d.CacheEntries += o.CacheEntries
}

// AccountDeletion counts what deleting an account removed, and what it kept for accounting.
type AccountDeletion struct {
	AccountID int64
	Name      string
	// FinalBalanceMicro is the balance the account had when it was deleted: the sum of its
	// kept ledger rows.
	FinalBalanceMicro int64
	// LedgerKept is how many ledger rows were moved to the ledger archive.
	LedgerKept    int
	Conversations int
	Messages      int
	Documents     int
	Sites         int
	EmbedTokens   int
	Users         int
	Keys          int
	Notices       int
	DeletedAt     time.Time
}

// DeletedAccount is the record an account leaves behind once deleted, for accounting: its
// ledger rows are kept in the archive under the same account id.
type DeletedAccount struct {
	AccountID         int64
	Name              string
	Plan              string
	FinalBalanceMicro int64
	CreatedAt         time.Time
	DeletedAt         time.Time
}

// Privacy is what data retention and data requests need: deleting visitors' widget
// conversations, exporting a visitor's data and deleting an account with everything it owns.
// The API's rolling conversation is the account's own and is never a visitor's.
type Privacy interface {
	// DeleteStaleVisitorConversations deletes, across every account, up to limit widget
	// conversations with no activity at or after before (neither a message nor a visit of
	// their visitor), each with its messages, their feedback, review items and the cached
	// answers made from them, in one transaction. Usage events and ledger rows stay: they are
	// accounting, carry no text, and the daily totals keep counting them.
	DeleteStaleVisitorConversations(ctx context.Context, before time.Time, limit int) (VisitorDeletion, error)
	// VisitorData returns everything the account stores about a widget visitor (a
	// lower-case UUID); ErrNotFound when the account has no conversation of that visitor.
	VisitorData(ctx context.Context, accountID int64, visitor string) (VisitorData, error)
	// DeleteVisitor deletes every conversation of the visitor in the account as
	// DeleteStaleVisitorConversations deletes one, in one transaction; ErrNotFound when there
	// is none.
	DeleteVisitor(ctx context.Context, accountID int64, visitor string) (VisitorDeletion, error)
	// DeleteAccount deletes the account and everything it owns in one transaction. Its ledger
	// rows move to the ledger archive and a DeletedAccount record keeps its id, name and final
	// balance. ErrNotFound when there is no such account; ErrConflict, deleting nothing, while
	// a crawl holds the lease of one of its sites.
	DeleteAccount(ctx context.Context, accountID int64) (AccountDeletion, error)
	// DeletedAccount reads the record of a deleted account; ErrNotFound when none.
	DeletedAccount(ctx context.Context, accountID int64) (DeletedAccount, error)
	// ArchivedLedger returns the kept ledger rows of a deleted account, oldest first.
	ArchivedLedger(ctx context.Context, accountID int64) ([]LedgerEntry, error)
}
