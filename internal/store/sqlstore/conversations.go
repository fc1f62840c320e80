package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// apiScope names the account's one rolling API conversation; widget visitors get other scopes.
const apiScope = "api"

// OpenConversation returns the account's conversation, creating it on first use.
func (s *Store) OpenConversation(ctx context.Context, accountID int64, lang string) (store.Conversation, error) {
	c, err := s.getConversation(pointRead(ctx), s.r, accountID)
	if err == nil {
		return c, nil
	}
	now := s.now().UTC()
	err = s.InTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO conversations (account_id, scope, lang, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, scope) DO NOTHING`, accountID, apiScope, lang, TS(now), TS(now))
		if err != nil {
			return fmt.Errorf("create conversation: %w", err)
		}
		c, err = s.getConversation(ctx, tx, accountID)
		return err
	})
	return c, err
}

func (s *Store) getConversation(ctx context.Context, q Queryer, accountID int64) (store.Conversation, error) {
	c, _, err := ConversationByScope(ctx, q, accountID, apiScope)
	return c, err
}

// Messages returns messages after sinceID, oldest first.
func (s *Store) Messages(ctx context.Context, accountID, conversationID, sinceID int64, limit int) ([]store.Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+MessageColumns+` FROM messages
		WHERE account_id = ? AND conversation_id = ? AND id > ? ORDER BY id LIMIT ?`,
		accountID, conversationID, sinceID, limit)
	if err != nil {
		return nil, fmt.Errorf("messages: %w", err)
	}
	return ScanMessages(rows)
}

// LastMessages returns the newest messages, oldest first.
func (s *Store) LastMessages(ctx context.Context, accountID, conversationID int64, limit int) ([]store.Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+MessageColumns+` FROM (SELECT `+MessageColumns+` FROM messages
		WHERE account_id = ? AND conversation_id = ? ORDER BY id DESC LIMIT ?) AS last ORDER BY id`,
		accountID, conversationID, limit)
	if err != nil {
		return nil, fmt.Errorf("last messages: %w", err)
	}
	return ScanMessages(rows)
}

// TurnCharges checks a turn before SaveTurn writes it and returns its charges, t.Charge
// first. SaveTurn (each store's own: SQLite commits turns in groups, PostgreSQL one per
// transaction under the account's row lock) commits a question, its reply and everything that depends on the reply in one
// transaction. The balance only moves through a conditional UPDATE (see charge), so concurrent
// turns can never take it below what reservations hold; the quota is re-counted inside the
// transaction for the same reason. With t.Budget, the token's spend is summed after the charges,
// in the same transaction, and the budget notice queued when it is reached. The charges'
// amounts and event ids, t.Capped and t.NoticeQueued are written back only once the
// transaction has committed, so a failed turn can be retried as it was. For the dashboard, the
// turn also moves the conversation's last message time, counts its reply in the day's totals
// and, when the reply is a fallback, makes the question an open review item.
func TurnCharges(t *store.Turn) ([]store.Charge, error) {
	charges := make([]store.Charge, 0, 1+len(t.Extra))
	charges = append(append(charges, t.Charge), t.Extra...)
	for i, c := range charges {
		switch {
		case c.AmountMicro < 0:
			return nil, fmt.Errorf("save turn: charge %d is negative (%d micro-USD)", i, c.AmountMicro)
		case c.EventType == "" && (i > 0 || len(c.Calls) > 0):
			return nil, fmt.Errorf("save turn: charge %d has provider calls or is extra but no event type", i)
		}
	}
	if b := t.Budget; b != nil && b.TokenID != t.EmbedTokenID {
		return nil, fmt.Errorf("save turn: the budget of embed token %d on a turn of embed token %d", b.TokenID, t.EmbedTokenID)
	}
	return charges, nil
}

// WriteTurn writes one turn in tx (see SaveTurn); charges are the turn's charges, which it
// settles in place. It reports what the charges left uncovered and whether a budget notice
// was queued; the caller applies them to the turn once the transaction has committed.
func (s *Store) WriteTurn(ctx context.Context, tx *Tx, t *store.Turn, charges []store.Charge, now time.Time) (capped int64,
	noticeQueued bool, err error) {
	err = func() error {
		if t.Charge.EventType == store.EventAnswer && t.QuotaLimit > 0 {
			var used int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM usage_events WHERE account_id = ?
				AND event_type = ? AND created_at >= ?`, t.AccountID, store.EventAnswer, TS(t.QuotaSince)).Scan(&used); err != nil {
				return fmt.Errorf("count quota: %w", err)
			}
			if used >= t.QuotaLimit {
				return store.ErrQuotaReached
			}
		}
		// Reservations of crashed sends stop holding money here too, not only at the next
		// Reserve: a turn that moves money must not find its balance held by the dead. A free
		// turn moves none, and skips the query.
		if movesMoney(t, charges) {
			if err := releaseLapsed(ctx, tx, t.AccountID, now); err != nil {
				return err
			}
		}
		if t.ReservationID != 0 {
			if err := releaseReservation(ctx, tx, t.AccountID, t.ReservationID); err != nil {
				return err
			}
		}
		balances := make([]int64, len(charges))
		for i := range charges {
			c := &charges[i]
			if c.AmountMicro == 0 {
				continue
			}
			taken, balance, err := charge(ctx, tx, t.AccountID, c.AmountMicro, t.ReservationID != 0, t.OverdraftMicro)
			if err != nil {
				return err
			}
			capped += c.AmountMicro - taken
			c.AmountMicro, balances[i] = taken, balance
		}
		stampMessages(t, now)
		if err := s.insertMessages(ctx, tx, []*store.Turn{t}); err != nil {
			return err
		}
		charged := false
		for i := range charges {
			if err := s.recordCharge(ctx, tx, t.AccountID, t.Reply.ID, t.EmbedTokenID, &charges[i], balances[i], now); err != nil {
				return err
			}
			charged = charged || (charges[i].EventType != "" && charges[i].AmountMicro > 0)
		}
		if b := t.Budget; b != nil {
			// The notice is queued in the transaction of the charge that reached the budget,
			// so it exists exactly when the charge does; its dedupe key makes it once a day.
			spend, _, err := tokenSpend(ctx, tx, t.AccountID, b.TokenID, b.Since, now)
			if err != nil {
				return err
			}
			if spend >= b.LimitMicro {
				n := store.BudgetNotice(t.AccountID, *b, spend)
				if noticeQueued, err = InsertNotice(ctx, tx, &n, now); err != nil {
					return err
				}
			}
		}
		return afterReply(ctx, tx, t, charged, now)
	}()
	return capped, noticeQueued, err
}

// stampMessages gives a turn's question and reply their account, conversation and time.
func stampMessages(t *store.Turn, now time.Time) {
	for _, m := range []*store.Message{&t.User, &t.Reply} {
		m.AccountID, m.ConversationID, m.CreatedAt = t.AccountID, t.ConversationID, now
	}
}

// afterReply writes what depends on a turn's stored reply: the day's reply count, the review
// item of a fallback, the conversation's times and summary, the cached answer it made or
// reused, and the views of the articles it cites.
func afterReply(ctx context.Context, tx *Tx, t *store.Turn, charged bool, now time.Time) error {
	if t.Reply.Role == store.RoleAssistant {
		if err := CountReply(ctx, tx, &t.Reply, charged); err != nil {
			return err
		}
	}
	if t.Reply.Source == store.SourceFallback {
		if err := RecordFallback(ctx, tx, t); err != nil {
			return err
		}
	}
	if err := TouchConversation(ctx, tx, ConvTouch{Account: t.AccountID, Conv: t.ConversationID, Lang: t.Lang,
		At: now}); err != nil {
		return err
	}
	if u := t.Summary; u != nil {
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET summary = ?, summarized_through = ?
			WHERE id = ? AND account_id = ? AND summarized_through < ?`, u.Text, u.Through, t.ConversationID,
			t.AccountID, u.Through); err != nil {
			return fmt.Errorf("update summary: %w", err)
		}
	}
	if c := t.Cache; c != nil {
		c.AccountID, c.MessageID, c.CreatedAt = t.AccountID, t.Reply.ID, now
		if err := saveCacheEntry(ctx, tx, c); err != nil {
			return err
		}
	}
	if t.CacheHitID != 0 {
		if err := CountCacheHit(ctx, tx, t.AccountID, t.CacheHitID); err != nil {
			return err
		}
	}
	return CountArticleViews(ctx, tx, t.AccountID, t.Reply.DocIDs)
}

// MayRefuse reports whether writing t can fail by a rule: it moves money (movesMoney) or
// re-counts the daily quota. Any other turn fails only on an error.
func MayRefuse(t *store.Turn, charges []store.Charge) bool {
	return movesMoney(t, charges) || (t.Charge.EventType == store.EventAnswer && t.QuotaLimit > 0)
}

// movesMoney reports whether a turn settles a reservation, charges, or counts against a
// token's budget.
func movesMoney(t *store.Turn, charges []store.Charge) bool {
	if t.ReservationID != 0 || t.Budget != nil {
		return true
	}
	for _, c := range charges {
		if c.AmountMicro > 0 {
			return true
		}
	}
	return false
}

// recordCharge writes a charge's ledger row (when money moved), its usage event (attributed to
// the embed token, when not 0, and counted in the day's totals) and the event's provider
// calls, and sets c.EventID. A charge without an event type records no event. messageID 0 (a
// charge outside any conversation, ChargeUsage) is stored as NULL in both rows.
func (s *Store) recordCharge(ctx context.Context, tx *Tx, accountID, messageID, embedTokenID int64, c *store.Charge,
	balance int64, now time.Time) error {
	if c.AmountMicro > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (account_id, kind, amount_micro, balance_after, message_id,
			note, created_at) VALUES (?, 'charge', ?, ?, ?, ?, ?)`, accountID, -c.AmountMicro, balance, NullInt(messageID),
			c.EventType, TS(now)); err != nil {
			return fmt.Errorf("insert ledger: %w", err)
		}
	}
	if c.EventType == "" {
		return nil
	}
	id, err := s.d.InsertID(ctx, tx, `INSERT INTO usage_events (account_id, event_type, cost_micro, input_tokens,
		output_tokens, message_id, embed_token_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, accountID,
		c.EventType, c.AmountMicro, c.InputTokens, c.OutputTokens, NullInt(messageID), NullInt(embedTokenID), TS(now))
	if err != nil {
		return fmt.Errorf("insert usage: %w", err)
	}
	c.EventID = id
	return s.recordCalls(ctx, tx, accountID, c, now)
}

// recordCalls counts a usage event c (already inserted, c.EventID set) in the day's totals
// and writes its provider calls.
func (s *Store) recordCalls(ctx context.Context, tx *Tx, accountID int64, c *store.Charge, now time.Time) error {
	if err := CountUsage(ctx, tx, accountID, c, now); err != nil {
		return err
	}
	for i, call := range c.Calls {
		if _, err := tx.ExecContext(ctx, `INSERT INTO usage_calls (event_id, account_id, ord, call, model, input_tokens,
			output_tokens, cost_micro) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c.EventID, accountID, i, call.Call, call.Model,
			call.InputTokens, call.OutputTokens, call.CostMicro); err != nil {
			return fmt.Errorf("insert usage call: %w", err)
		}
	}
	return nil
}

// saveCacheEntry upserts c under (account, lang, key) and replaces its term and document rows.
// An answer without evidence that a visitor has flagged is not cached again (see
// flaggedAnswer); c.ID stays 0 then.
func saveCacheEntry(ctx context.Context, tx *Tx, c *store.CacheEntry) error {
	if c.Evidence == "" {
		if flagged, err := flaggedAnswer(ctx, tx, c.AccountID, c.Answer); err != nil || flagged {
			return err
		}
	}
	sources, err := FormatSources(c.Sources)
	if err != nil {
		return err
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO answer_cache (account_id, lang, qkey, question, answer, doc_ids,
		sources, evidence, message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account_id, lang, qkey) DO UPDATE SET question = excluded.question, answer = excluded.answer,
		doc_ids = excluded.doc_ids, sources = excluded.sources, evidence = excluded.evidence,
		message_id = excluded.message_id, created_at = excluded.created_at
		RETURNING id`, c.AccountID, c.Lang, c.Key, c.Question, c.Answer, FormatIDs(c.DocIDs), sources, c.Evidence,
		c.MessageID, TS(c.CreatedAt)).Scan(&c.ID)
	if err != nil {
		return fmt.Errorf("store cache: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM answer_cache_terms WHERE entry_id = ?`, c.ID); err != nil {
		return fmt.Errorf("replace cache terms: %w", err)
	}
	for _, term := range distinctTerms(c.Terms) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO answer_cache_terms (entry_id, account_id, lang, term)
			VALUES (?, ?, ?, ?)`, c.ID, c.AccountID, c.Lang, term); err != nil {
			return fmt.Errorf("store cache term: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM answer_cache_docs WHERE entry_id = ?`, c.ID); err != nil {
		return fmt.Errorf("replace cache documents: %w", err)
	}
	seen := map[int64]bool{}
	for _, id := range c.DocIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if _, err := tx.ExecContext(ctx, `INSERT INTO answer_cache_docs (entry_id, account_id, doc_id) VALUES (?, ?, ?)`,
			c.ID, c.AccountID, id); err != nil {
			return fmt.Errorf("store cache document: %w", err)
		}
	}
	return nil
}

// distinctTerms drops empty and repeated terms, keeping the first occurrence's order.
func distinctTerms(terms []string) []string {
	out := make([]string, 0, len(terms))
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

const cacheColumns = `e.id, e.account_id, e.lang, e.qkey, e.question, e.answer, e.doc_ids, e.sources, e.evidence,
	COALESCE(e.message_id, 0), e.hits, e.created_at`

func scanCacheEntry(row interface{ Scan(...any) error }) (store.CacheEntry, error) {
	var c store.CacheEntry
	var docIDs, sources, created string
	err := row.Scan(&c.ID, &c.AccountID, &c.Lang, &c.Key, &c.Question, &c.Answer, &docIDs, &sources, &c.Evidence,
		&c.MessageID, &c.Hits, &created)
	if err != nil {
		return c, err
	}
	c.DocIDs, c.CreatedAt = ParseIDs(docIDs), ParseTS(created)
	if c.Sources, err = ParseSources(sources); err != nil {
		return c, fmt.Errorf("cache entry %d sources: %w", c.ID, err)
	}
	return c, nil
}

// CachedAnswer looks up the account's cached answer for a normalised question; an entry whose
// evidence was flagged not_helpful is no answer.
func (s *Store) CachedAnswer(ctx context.Context, accountID int64, lang, key string) (store.CacheEntry, error) {
	c, err := scanCacheEntry(s.r.QueryRowContext(pointRead(ctx), `SELECT `+cacheColumns+` FROM answer_cache e
		WHERE e.account_id = ? AND e.lang = ? AND e.qkey = ? AND `+notFlagged, accountID, lang, key))
	if err != nil {
		return c, NotFound(err, "cached answer")
	}
	return c, nil
}

// SimilarCached returns the account's cache entries in lang sharing the most distinct terms
// with terms, the newest first among equals, none with flagged evidence.
func (s *Store) SimilarCached(ctx context.Context, accountID int64, lang string, terms []string, limit int) ([]store.CacheEntry, error) {
	terms = distinctTerms(terms)
	if len(terms) == 0 {
		return []store.CacheEntry{}, nil
	}
	if limit <= 0 {
		limit = 10
	}
	args := make([]any, 0, len(terms)+4)
	args = append(args, accountID, lang)
	for _, t := range terms {
		args = append(args, t)
	}
	args = append(args, limit, accountID)
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("similar cached: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+cacheColumns+`
		FROM (SELECT entry_id, COUNT(*) AS shared FROM answer_cache_terms
			WHERE account_id = ? AND lang = ? AND term IN (`+Placeholders(len(terms))+`)
			GROUP BY entry_id ORDER BY shared DESC, entry_id DESC LIMIT ?) AS m
		JOIN answer_cache e ON e.id = m.entry_id
		WHERE e.account_id = ? AND `+notFlagged+` ORDER BY m.shared DESC, e.id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("similar cached: %w", err)
	}
	out := []store.CacheEntry{}
	for rows.Next() {
		c, err := scanCacheEntry(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("similar cached: %w", err)
		}
		out = append(out, c)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("similar cached: %w", err)
	}
	if err := fillCacheTerms(ctx, tx, accountID, out); err != nil {
		return nil, err
	}
	return out, nil
}

// fillCacheTerms reads the terms of entries (in term order) in one query. The entries were
// read for the account in the same transaction, so their ids are the tenant filter; naming
// account_id as well made SQLite pick the (account_id, lang, term) index and scan every term
// of the account's cache.
func fillCacheTerms(ctx context.Context, tx *Tx, accountID int64, entries []store.CacheEntry) error {
	if len(entries) == 0 {
		return nil
	}
	index := make(map[int64]int, len(entries))
	args := make([]any, 0, len(entries))
	for i, e := range entries {
		if e.AccountID != accountID {
			return fmt.Errorf("cache terms: entry %d is not the account's", e.ID)
		}
		index[e.ID] = i
		args = append(args, e.ID)
	}
	rows, err := tx.QueryContext(ctx, `SELECT entry_id, term FROM answer_cache_terms
		WHERE entry_id IN (`+Placeholders(len(entries))+`) ORDER BY entry_id, term`, args...)
	if err != nil {
		return fmt.Errorf("cache terms: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var term string
		if err := rows.Scan(&id, &term); err != nil {
			return fmt.Errorf("cache terms: %w", err)
		}
		e := &entries[index[id]]
		e.Terms = append(e.Terms, term)
	}
	return rows.Err()
}

// CountEvents counts usage events of one type since a time.
func (s *Store) CountEvents(ctx context.Context, accountID int64, eventType string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM usage_events WHERE account_id = ? AND event_type = ?
		AND created_at >= ?`, accountID, eventType, TS(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count events: %w", err)
	}
	return n, nil
}

// TopQuestions returns the account's most asked cached questions in lang.
func (s *Store) TopQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT question FROM answer_cache WHERE account_id = ? AND lang = ? AND hits > 0
		ORDER BY hits DESC, id LIMIT ?`, accountID, lang, limit)
	if err != nil {
		return nil, fmt.Errorf("top questions: %w", err)
	}
	return ScanStrings(rows)
}
