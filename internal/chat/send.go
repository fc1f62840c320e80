package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"svc/internal/billing"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/lang"
	"svc/internal/smalltalk"
	"svc/internal/store"
	"svc/internal/textindex"
)

// SendResult is the outcome of one send: the stored question and reply.
type SendResult struct {
	ConversationID int64
	User           store.Message
	Reply          store.Message
	LowConfidence  bool
}

// Send runs the pipeline of SERVICE.md in its fixed order: validate, rate limit, detect the
// language, small talk, this account's cache, daily quota, balance, retrieve and compose,
// charge and store. Only the last step writes, and it writes the question, the reply and the
// charge in one transaction.
func (s *Service) Send(ctx context.Context, a store.Account, keyID int64, message string) (SendResult, error) {
	text, err := validateMessage(message, MaxMessageChars)
	if err != nil {
		return SendResult{}, err
	}
	now := s.now().UTC()
	if ok, wait := s.limiter.Allow(fmt.Sprintf("send:key:%d", keyID), a.SendRatePerMin, now); !ok {
		return SendResult{}, &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
			Safe: fmt.Sprintf("Too many messages: at most %d a minute. Try again shortly.", a.SendRatePerMin)}
	}
	conv, err := s.st.OpenConversation(ctx, a.ID, a.Lang)
	if err != nil {
		return SendResult{}, err
	}
	p := &pending{svc: s, acct: a, conv: conv, text: text, now: now}
	p.lang = lang.DetectOr(text, conv.Lang)
	p.key = textindex.NormalizeQuestion(text, p.lang)

	if kind, phraseLang, ok := smalltalk.Match(text); ok {
		if phraseLang != "" {
			p.lang = phraseLang
		}
		return p.commit(ctx, p.reply(smalltalk.Reply(kind, p.lang, a.TonePreset), store.SourceCacheShared, false),
			store.Charge{EventType: store.EventCacheShared})
	}

	if res, ok, err := p.fromCache(ctx); err != nil || ok {
		return res, err
	}

	midnight := now.Truncate(24 * time.Hour)
	if a.DailyAnswers > 0 {
		used, err := s.st.CountEvents(ctx, a.ID, store.EventAnswer, midnight)
		if err != nil {
			return SendResult{}, err
		}
		if used >= a.DailyAnswers {
			return SendResult{}, quotaError(now)
		}
	}
	if a.BalanceMicro <= 0 {
		return p.commitSystem(ctx)
	}

	ans, err := s.engine.Answer(ctx, engine.Request{AccountID: a.ID, Question: text, Lang: p.lang, Tone: a.TonePreset,
		SalesMode: a.SalesMode})
	if err != nil {
		return SendResult{}, fmt.Errorf("compose answer: %w", err)
	}
	if !ans.Confident {
		return p.commit(ctx, p.reply(ans.Text, store.SourceFallback, true), store.Charge{EventType: store.EventFallback})
	}
	reply := p.reply(ans.Text, store.SourceAI, false)
	reply.DocIDs = ans.DocIDs
	if a.SalesMode {
		reply.Products = productCards(ans.Cards)
	}
	charge := store.Charge{EventType: store.EventAnswer, InputTokens: ans.InputTokens, OutputTokens: ans.OutputTokens,
		AmountMicro: billing.Cost(ans.InputTokens, ans.OutputTokens, a.InputRate, a.OutputRate)}
	t := p.turn(reply, charge)
	t.QuotaLimit, t.QuotaSince = a.DailyAnswers, midnight
	if p.key != "" {
		t.Cache = &store.CacheEntry{Lang: p.lang, Key: p.key, Question: text, Answer: ans.Text, DocIDs: ans.DocIDs}
	}
	res, err := p.save(ctx, t)
	switch {
	case errors.Is(err, store.ErrInsufficientBalance):
		// Another send spent the balance between our check and our charge.
		return p.commitSystem(ctx)
	case errors.Is(err, store.ErrQuotaReached):
		return SendResult{}, quotaError(now)
	}
	return res, err
}

func quotaError(now time.Time) error {
	next := now.Truncate(24 * time.Hour).Add(24 * time.Hour)
	return &errs.Error{Kind: errs.LimitReached, RetryAfter: next.Sub(now),
		Safe: "The daily answer limit of this account is reached; it resets at 00:00 UTC."}
}

// validateMessage trims the message and checks its length in characters (not bytes).
func validateMessage(message string, max int) (string, error) {
	if !utf8.ValidString(message) {
		return "", errs.New(errs.BadRequest, "The message is not valid UTF-8 text.")
	}
	text := strings.TrimSpace(strings.ReplaceAll(message, "\x00", ""))
	n := utf8.RuneCountInString(text)
	if n == 0 {
		return "", errs.New(errs.BadRequest, "The message is empty.")
	}
	if n > max {
		return "", errs.Newf(errs.BadRequest, "The message is %d characters long; at most %d are allowed.", n, max)
	}
	return text, nil
}

// productCards turns the engine's cards into the message's products, at most
// MaxProductCards of them and each document once. The engine has already chosen them for
// the question and kept its reply to their names.
func productCards(cards []engine.Card) []store.Product {
	var out []store.Product
	seen := make(map[int64]bool, len(cards))
	for _, c := range cards {
		if seen[c.DocID] || len(out) == MaxProductCards {
			continue
		}
		seen[c.DocID] = true
		out = append(out, c.Product)
	}
	return out
}

// pending is one send in progress.
type pending struct {
	svc  *Service
	acct store.Account
	conv store.Conversation
	text string
	lang string
	key  string // the question normalised in lang: the cache key
	now  time.Time
}

func (p *pending) reply(body, source string, low bool) store.Message {
	return store.Message{Role: store.RoleAssistant, Body: body, Source: source, Lang: p.lang, LowConfidence: low}
}

// turn pairs the question with its reply. The question carries the source of the reply that
// answered it, so a client can tell how every message was handled.
func (p *pending) turn(reply store.Message, charge store.Charge) *store.Turn {
	return &store.Turn{AccountID: p.acct.ID, ConversationID: p.conv.ID, Lang: p.lang,
		User:  store.Message{Role: store.RoleUser, Body: p.text, Source: reply.Source, Lang: p.lang},
		Reply: reply, Charge: charge}
}

func (p *pending) save(ctx context.Context, t *store.Turn) (SendResult, error) {
	if err := p.svc.st.SaveTurn(ctx, t); err != nil {
		return SendResult{}, err
	}
	return SendResult{ConversationID: p.conv.ID, User: t.User, Reply: t.Reply, LowConfidence: t.Reply.LowConfidence}, nil
}

func (p *pending) commit(ctx context.Context, reply store.Message, charge store.Charge) (SendResult, error) {
	return p.save(ctx, p.turn(reply, charge))
}

// commitSystem answers with the insufficient-balance notice: HTTP 200, a system message,
// lowConfidence true, nothing charged.
func (p *pending) commitSystem(ctx context.Context) (SendResult, error) {
	return p.commit(ctx, p.reply(balanceNotice(p.lang), store.SourceSystem, true), store.Charge{EventType: store.EventSystem})
}
