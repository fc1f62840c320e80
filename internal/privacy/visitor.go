// Package privacy holds the rules of data retention and data requests: which widget
// conversations the retention sweep deletes and when, what a visitor's data export holds, and
// what deleting a visitor or an account removes and keeps. The store does the deleting; the
// rules are here, so the CLI, the dashboard and serve apply the same ones. No net/http.
package privacy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"svc/internal/embed"
	"svc/internal/errs"
	"svc/internal/store"
)

// VisitorStore is what a visitor's data request needs of the store.
type VisitorStore interface {
	VisitorData(ctx context.Context, accountID int64, visitor string) (store.VisitorData, error)
	DeleteVisitor(ctx context.Context, accountID int64, visitor string) (store.VisitorDeletion, error)
}

// ParseVisitor reads a visitor id as the widget sends it (a UUID, any case) and returns it
// as stored.
func ParseVisitor(s string) (string, error) {
	v, ok := embed.NormalizeVisitor(s)
	if !ok {
		return "", errs.Newf(errs.BadRequest, "%q is not a visitor id: a visitor id is a UUID such as "+
			"6f1c2a3e-1111-4a4a-8b8b-000000000001 (the dashboard's transcript shows it)", s)
	}
	return v, nil
}

// notFound is the answer to a visitor the account has no data of, another account's
// visitor included.
func notFound(accountID int64, visitor string) error {
	return errs.Newf(errs.NotFound, "account %d has no data of visitor %s", accountID, visitor)
}

// Export is everything an account stores about a widget visitor, as a data request
// receives it. Times are UTC, RFC 3339.
type Export struct {
	AccountID     int64                `json:"account_id"`
	Visitor       string               `json:"visitor"`
	ExportedAt    string               `json:"exported_at"`
	Conversations []ExportConversation `json:"conversations"`
}

// ExportConversation is one of the visitor's conversations: through which embed token, its
// language and the running summary the assistant keeps of it, and its messages.
type ExportConversation struct {
	ConversationID int64           `json:"conversation_id"`
	EmbedTokenID   int64           `json:"embed_token_id"`
	TokenLabel     string          `json:"token_label"`
	Lang           string          `json:"lang"`
	Summary        string          `json:"summary"`
	CreatedAt      string          `json:"created_at"`
	LastMessageAt  *string         `json:"last_message_at"`
	LastSeenAt     *string         `json:"last_seen_at"`
	Messages       []ExportMessage `json:"messages"`
}

// ExportMessage is a message with how it was answered (source, via, the products shown, the
// knowledge-base documents it was drawn from and the sources it named) and the visitor's
// rating of it.
type ExportMessage struct {
	ID            int64           `json:"id"`
	Role          string          `json:"role"`
	Body          string          `json:"body"`
	Source        string          `json:"source"`
	Via           string          `json:"via,omitempty"`
	Lang          string          `json:"lang"`
	LowConfidence bool            `json:"low_confidence"`
	Products      []store.Product `json:"products,omitempty"`
	DocumentIDs   []int64         `json:"document_ids,omitempty"`
	Sources       []store.Source  `json:"sources,omitempty"`
	CreatedAt     string          `json:"created_at"`
	Feedback      *ExportFeedback `json:"feedback,omitempty"`
}

// ExportFeedback is the visitor's rating of a reply.
type ExportFeedback struct {
	Rating    string `json:"rating"`
	Comment   string `json:"comment"`
	CreatedAt string `json:"created_at"`
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// optStamp is a time that may not have happened: nil when zero.
func optStamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

// ExportVisitor gathers everything the account stores about visitor (as ParseVisitor
// returns it). An account with no conversation of that visitor, whether the visitor talked
// to another account or never existed, gets a NotFound error.
func ExportVisitor(ctx context.Context, st VisitorStore, accountID int64, visitor string, now time.Time) (Export, error) {
	d, err := st.VisitorData(ctx, accountID, visitor)
	if errors.Is(err, store.ErrNotFound) {
		return Export{}, notFound(accountID, visitor)
	}
	if err != nil {
		return Export{}, fmt.Errorf("export visitor: %w", err)
	}
	out := Export{AccountID: accountID, Visitor: visitor, ExportedAt: stamp(now),
		Conversations: make([]ExportConversation, 0, len(d.Conversations))}
	for _, c := range d.Conversations {
		rated := make(map[int64]store.Feedback, len(c.Feedback))
		for _, f := range c.Feedback {
			rated[f.MessageID] = f
		}
		ec := ExportConversation{ConversationID: c.ID, EmbedTokenID: c.EmbedTokenID, TokenLabel: c.TokenLabel,
			Lang: c.Lang, Summary: c.Summary, CreatedAt: stamp(c.CreatedAt), LastMessageAt: optStamp(c.LastMessageAt),
			LastSeenAt: optStamp(c.LastSeenAt), Messages: make([]ExportMessage, 0, len(c.Messages))}
		for _, m := range c.Messages {
			em := ExportMessage{ID: m.ID, Role: m.Role, Body: m.Body, Source: m.Source, Via: m.Via, Lang: m.Lang,
				LowConfidence: m.LowConfidence, Products: m.Products, DocumentIDs: m.DocIDs, Sources: m.Sources,
				CreatedAt: stamp(m.CreatedAt)}
			if f, ok := rated[m.ID]; ok {
				em.Feedback = &ExportFeedback{Rating: f.Rating, Comment: f.Comment, CreatedAt: stamp(f.CreatedAt)}
			}
			ec.Messages = append(ec.Messages, em)
		}
		out.Conversations = append(out.Conversations, ec)
	}
	return out, nil
}

// DeleteVisitor deletes every conversation of the visitor in the account, with what belongs
// only to them (store.Privacy.DeleteVisitor). The account's money records stay as they were.
func DeleteVisitor(ctx context.Context, st VisitorStore, accountID int64, visitor string) (store.VisitorDeletion, error) {
	d, err := st.DeleteVisitor(ctx, accountID, visitor)
	if errors.Is(err, store.ErrNotFound) {
		return d, notFound(accountID, visitor)
	}
	if err != nil {
		return d, fmt.Errorf("delete visitor: %w", err)
	}
	return d, nil
}
