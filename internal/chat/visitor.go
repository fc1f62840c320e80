package chat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"svc/internal/errs"
	"svc/internal/store"
)

// Visitor is one widget visitor: the account, the embed token the widget was loaded with and
// the visitor's anonymous UUID (already validated). Each (token, visitor) pair has a
// conversation of its own, and every call below reaches only that conversation.
type Visitor struct {
	Account store.Account
	Token   store.EmbedToken
	ID      string
	// Addr is a key of the client's address (clientip.Key): surge protection tells a crowd
	// of visitors from a script by it.
	Addr string
}

// Widget limits (SERVICE.md, Limits).
const (
	MaxEmbedMessageChars = 1000
	VisitorPerMinute     = 10
	VisitorPerDay        = 100
	// TokenAnswersPerMinute bounds the new answers a token's visitors get together: only a
	// valid message that missed the cache and small talk counts, so polling, bad requests
	// and cached answers never spend it (SERVICE.md's 60 a minute per token).
	TokenAnswersPerMinute = 60
)

// Modes of a widget token. In cache-only mode the widget answers small talk, curated entries
// and cached answers, all free, and nothing that would need a new answer.
const (
	ModeNormal    = "normal"
	ModeCacheOnly = "cache_only"

	ModeReasonBudget = "budget" // the token's daily budget is spent, until 00:00 UTC
	ModeReasonSurge  = "surge"  // surge protection, until the spike has passed
)

// builtinHoldIn and builtinHoldOut size the reservation of a widget answer from an engine
// that reserves nothing (the built-in engine): more than its answers read and write (a
// Sales Mode answer with eight cards reads about 1,500 tokens), so the hold bounds the
// answer and parallel visitors cannot overshoot the token's budget by more than one hold.
const (
	builtinHoldIn  = 2500
	builtinHoldOut = 500
)

// visitorTurn is the widget side of a send in progress.
type visitorTurn struct {
	token store.EmbedToken
	// reason is set when the reply was a cache-only notice.
	reason string
}

// VisitorView is a visitor's conversation and the token's mode.
type VisitorView struct {
	View
	Mode   string
	Reason string // "" in normal mode
}

// VisitorStart opens (or resumes) the visitor's conversation, in lang when it is new ("" =
// the account's language), and returns its recent history.
func (s *Service) VisitorStart(ctx context.Context, v Visitor, lang string) (VisitorView, error) {
	c, err := s.openVisitor(ctx, v, lang)
	if err != nil {
		return VisitorView{}, err
	}
	msgs, err := s.st.LastMessages(ctx, v.Account.ID, c.ID, StartHistory)
	if err != nil {
		return VisitorView{}, err
	}
	return s.visitorView(ctx, v, View{ConversationID: c.ID, Lang: c.Lang, Messages: msgs})
}

// VisitorSync returns the visitor's messages after sinceID.
func (s *Service) VisitorSync(ctx context.Context, v Visitor, sinceID int64) (VisitorView, error) {
	c, err := s.openVisitor(ctx, v, "")
	if err != nil {
		return VisitorView{}, err
	}
	msgs, err := s.st.Messages(ctx, v.Account.ID, c.ID, sinceID, SyncPage)
	if err != nil {
		return VisitorView{}, err
	}
	return s.visitorView(ctx, v, View{ConversationID: c.ID, Lang: c.Lang, Messages: msgs})
}

// VisitorSuggestions are the account's suggestions in the language of the visitor's conversation.
func (s *Service) VisitorSuggestions(ctx context.Context, v Visitor) (Suggestions, error) {
	c, err := s.openVisitor(ctx, v, "")
	if err != nil {
		return Suggestions{}, err
	}
	return s.suggestions(ctx, v.Account, c)
}

// VisitorFeedback rates an assistant message of the visitor's own conversation; a message of
// any other conversation is "not found", exactly like one that does not exist.
func (s *Service) VisitorFeedback(ctx context.Context, v Visitor, messageID int64, rating, comment string) error {
	c, err := s.openVisitor(ctx, v, "")
	if err != nil {
		return err
	}
	return s.feedback(ctx, &store.Feedback{AccountID: v.Account.ID, ConversationID: c.ID, MessageID: messageID,
		Rating: rating, Comment: comment})
}

// VisitorSend answers a visitor's message: at most MaxEmbedMessageChars characters,
// VisitorPerMinute a minute and VisitorPerDay a UTC day per visitor, then the pipeline of
// Send, with the answer's reservation counted against the token's daily budget. Result.Mode
// tells the widget whether it is now cache-only.
func (s *Service) VisitorSend(ctx context.Context, v Visitor, message string) (SendResult, error) {
	return s.visitorSend(ctx, v, message, nil)
}

// VisitorSendStream is VisitorSend handing the reply to stream while it is composed (see
// Stream). It runs to its end whether or not the visitor is still there (see detach).
func (s *Service) VisitorSendStream(ctx context.Context, v Visitor, message string, stream Stream) (SendResult, error) {
	ctx, cancel := detach(ctx)
	defer cancel()
	return s.visitorSend(ctx, v, message, stream)
}

func (s *Service) visitorSend(ctx context.Context, v Visitor, message string, stream Stream) (SendResult, error) {
	text, err := validateMessage(message, MaxEmbedMessageChars)
	if err != nil {
		return SendResult{}, err
	}
	now := s.now().UTC()
	if ok, wait := s.limiter.Allow(fmt.Sprintf("embed:visitor:%d:%s", v.Token.ID, v.ID), VisitorPerMinute, now); !ok {
		return SendResult{}, &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
			Safe: fmt.Sprintf("Too many messages: at most %d a minute. Try again shortly.", VisitorPerMinute)}
	}
	conv, err := s.openVisitor(ctx, v, "")
	if err != nil {
		return SendResult{}, err
	}
	midnight := now.Truncate(24 * time.Hour)
	n, err := s.st.CountUserMessages(ctx, v.Account.ID, conv.ID, midnight)
	if err != nil {
		return SendResult{}, err
	}
	if n >= VisitorPerDay {
		return SendResult{}, &errs.Error{Kind: errs.RateLimited, RetryAfter: midnight.Add(24 * time.Hour).Sub(now),
			Safe: fmt.Sprintf("Too many messages today: at most %d a day. Try again after 00:00 UTC.", VisitorPerDay)}
	}
	p := &pending{svc: s, acct: v.Account, conv: conv, text: text, now: now, widget: &visitorTurn{token: v.Token}, addr: v.Addr,
		stream: newStreamer(stream, text)}
	res, err := s.answer(ctx, p)
	if err != nil {
		return res, err
	}
	res.Mode, res.Reason = ModeNormal, p.widget.reason
	if res.Reason != "" {
		res.Mode = ModeCacheOnly
		return res, nil
	}
	// The turn is committed: a failed mode lookup must not turn its answer into an error, so
	// it is logged and the widget learns the mode from its next sync.
	m, err := s.visitorView(ctx, v, View{})
	if err != nil {
		s.log.Error("widget mode after a send", "account", v.Account.ID, "token", v.Token.ID, "err", err)
		return res, nil
	}
	res.Mode, res.Reason = m.Mode, m.Reason
	return res, nil
}

// openVisitor opens the visitor's conversation. A token revoked since the caller looked it
// up stops here, so revocation takes effect even for a request already in flight.
func (s *Service) openVisitor(ctx context.Context, v Visitor, lang string) (store.Conversation, error) {
	if lang == "" {
		lang = v.Account.Lang
	}
	c, err := s.st.OpenVisitorConversation(ctx, v.Account.ID, v.Token.ID, v.ID, lang)
	if errors.Is(err, store.ErrRevoked) || errors.Is(err, store.ErrNotFound) {
		return c, errs.Wrap(errs.Unauthorized, "This embed token is not valid.", err)
	}
	return c, err
}

// visitorView adds the token's mode to view: cache-only while surge protection holds it or
// once today's spend has reached the daily budget.
func (s *Service) visitorView(ctx context.Context, v Visitor, view View) (VisitorView, error) {
	now := s.now().UTC()
	out := VisitorView{View: view, Mode: ModeNormal}
	if s.surge != nil && s.surge.Active(v.Token.ID, now) {
		out.Mode, out.Reason = ModeCacheOnly, ModeReasonSurge
		return out, nil
	}
	spend, err := s.st.EmbedSpend(ctx, v.Account.ID, v.Token.ID, now.Truncate(24*time.Hour))
	if err != nil {
		return out, err
	}
	if spend >= v.Token.DailyBudgetMicro {
		out.Mode, out.Reason = ModeCacheOnly, ModeReasonBudget
	}
	return out, nil
}

func (p *pending) tokenSpend(ctx context.Context, b *store.TokenBudget) (int64, error) {
	return p.svc.st.EmbedSpend(ctx, p.acct.ID, b.TokenID, b.Since)
}

// budgetReached answers a question the token's budget refused. When the budget is spent the
// token is cache-only until 00:00 UTC and the owner's notice is queued; its dedupe key makes
// it one per token and day however many visitors arrive here, and whether or not a charge's
// commit queued it first. When answers in progress still held the rest of it after the wait
// (a burst of visitors on a small budget), the visitor is asked to retry (429).
func (p *pending) budgetReached(ctx context.Context, b *store.TokenBudget) (SendResult, error) {
	s := p.svc
	spend, err := p.tokenSpend(ctx, b)
	if err != nil {
		return SendResult{}, err
	}
	if spend < b.LimitMicro {
		// Only contended: nothing is stored, and the widget holds the visitor's message
		// until Retry-After.
		return SendResult{}, &errs.Error{Kind: errs.RateLimited, RetryAfter: 2 * time.Second,
			Safe: "Other visitors' answers are still being written and hold this site's daily budget. Try again in a few seconds."}
	}
	n := store.BudgetNotice(p.acct.ID, *b, spend)
	queued, err := s.st.EnqueueNotice(ctx, &n)
	if err != nil {
		return SendResult{}, err
	}
	if queued && s.notify != nil {
		s.notify()
	}
	return p.commitCacheOnly(ctx, ModeReasonBudget)
}

// commitCacheOnly answers a question that missed the cache while the token is cache-only:
// a free system notice, recorded as a cache_only event so the owner sees what was turned away.
func (p *pending) commitCacheOnly(ctx context.Context, reason string) (SendResult, error) {
	p.widget.reason = reason
	return p.commit(ctx, p.reply(p.svc.cacheOnlyNotice(p.lang, reason), store.SourceSystem, true),
		store.Charge{EventType: store.EventCacheOnly})
}
