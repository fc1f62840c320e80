package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"svc/internal/store"
)

// SaveFeedback rates an assistant message of the account (and of f.ConversationID, when set).
// The latest rating of a message wins.
// A not_helpful rating also withdraws, in the same transaction, every cached answer that
// would repeat the flagged one: the entry made from the message, the entry that served it
// (a cache hit carries the entry's answer as its body) and every entry drawn from the same
// evidence. The rating keeps that evidence, and the cache lookups skip entries with evidence
// under a standing not_helpful rating (notFlagged), so an answer composed again from the same
// sentences and cached later is not served either.
func (s *Store) SaveFeedback(ctx context.Context, f *store.Feedback) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		var role, body string
		var conversationID int64
		err := tx.QueryRowContext(ctx, `SELECT role, conversation_id, body FROM messages WHERE id = ? AND account_id = ?`,
			f.MessageID, f.AccountID).Scan(&role, &conversationID, &body)
		if err == nil && f.ConversationID != 0 && conversationID != f.ConversationID {
			// Another conversation's message is answered exactly like a missing one, so that a
			// widget visitor learns nothing about ids outside their conversation.
			err = sql.ErrNoRows
		}
		if err != nil {
			return NotFound(err, "feedback message")
		}
		if role != store.RoleAssistant {
			return fmt.Errorf("feedback on message %d: %w", f.MessageID, store.ErrNotAssistant)
		}
		// A second not_helpful rating of the message finds its entries withdrawn by the first;
		// the evidence the first kept stays (the upsert below keeps it when none is found).
		evidence := ""
		if f.Rating == "not_helpful" {
			if evidence, err = flaggedEvidence(ctx, tx, f.AccountID, f.MessageID, body); err != nil {
				return err
			}
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO feedback (account_id, message_id, rating, comment, evidence, created_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating,
			comment = excluded.comment, created_at = excluded.created_at, resolved = 0,
			evidence = CASE WHEN excluded.evidence <> '' OR excluded.rating <> 'not_helpful' THEN excluded.evidence
				ELSE feedback.evidence END
			RETURNING id`,
			f.AccountID, f.MessageID, f.Rating, f.Comment, evidence, TS(now)).Scan(&f.ID)
		if err != nil {
			return fmt.Errorf("save feedback: %w", err)
		}
		f.CreatedAt = now
		if f.Rating == "not_helpful" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM answer_cache WHERE account_id = ? AND (message_id = ?
				OR answer = ? OR (evidence <> '' AND evidence = ?))`,
				f.AccountID, f.MessageID, body, evidence); err != nil {
				return fmt.Errorf("withdraw cached answer: %w", err)
			}
		}
		return nil
	})
}

// flaggedEvidence finds the evidence of a flagged reply: that of the cache entry made from it,
// else that of an entry whose answer it repeats (it was served from the cache); "" when the
// reply left no entry (a curated answer, a fallback, an answer already withdrawn).
func flaggedEvidence(ctx context.Context, tx *Tx, accountID, messageID int64, body string) (string, error) {
	var ev string
	err := tx.QueryRowContext(ctx, `SELECT evidence FROM answer_cache WHERE account_id = ? AND evidence <> ''
		AND message_id = ?`, accountID, messageID).Scan(&ev)
	if err == sql.ErrNoRows {
		err = tx.QueryRowContext(ctx, `SELECT evidence FROM answer_cache WHERE account_id = ? AND evidence <> ''
			AND answer = ? ORDER BY id DESC LIMIT 1`, accountID, body).Scan(&ev)
	}
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("flagged evidence: %w", err)
	}
	return ev, nil
}

// notFlagged keeps a cache lookup (answer_cache as e) from entries whose evidence a standing
// not_helpful rating of the account flagged (SaveFeedback): open or answered by the owner,
// but not dismissed, since an owner who closes the item without an answer judged the answer
// fine.
var notFlagged = `NOT EXISTS (SELECT 1 FROM feedback f WHERE f.account_id = e.account_id
	AND f.rating = 'not_helpful' AND f.evidence <> '' AND f.evidence = e.evidence
	AND f.resolved <> ` + strconv.Itoa(FeedbackDismissed) + `)`

// flaggedAnswer reports whether a standing not_helpful rating of the account (as notFlagged
// reads one) rates a reply reading answer. It keeps out of the cache an answer that names no
// evidence for a flag to withdraw it by: a product list quotes no sentence, so the rating
// removes its entry (SaveFeedback) and this keeps the same list, composed again, from taking
// its place. The account's ratings are few and indexed; their messages are read by id.
func flaggedAnswer(ctx context.Context, tx *Tx, accountID int64, answer string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM feedback f JOIN messages m ON m.id = f.message_id
		WHERE f.account_id = ? AND f.rating = 'not_helpful' AND f.resolved <> ? AND m.body = ? LIMIT 1`,
		accountID, FeedbackDismissed, answer).Scan(&one)
	switch {
	case err == sql.ErrNoRows:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("flagged answer: %w", err)
	}
	return true, nil
}

// ResolveReview answers a not_helpful rating of the account with a curated Q&A document: in one
// transaction the document is upserted as ImportDocuments would (an updated one withdraws the
// cached answers drawn from it) and the rating is marked resolved.
func (s *Store) ResolveReview(ctx context.Context, accountID, feedbackID int64, doc *store.Document) error {
	if err := checkCurated(doc); err != nil {
		return fmt.Errorf("resolve review %d: %w", feedbackID, err)
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE feedback SET resolved = 1 WHERE id = ? AND account_id = ? AND rating = ?`,
			feedbackID, accountID, "not_helpful")
		if err := OneRow(res, err, fmt.Sprintf("resolve review %d", feedbackID)); err != nil {
			return err
		}
		return s.upsertCurated(ctx, tx, accountID, doc, now, docChanges{})
	})
}

// questionOfReply selects the question of the reply m: the user message just before it in its
// conversation (empty when there is none).
const questionOfReply = `COALESCE((SELECT q.body FROM messages q WHERE q.conversation_id = m.conversation_id
	AND q.id < m.id AND q.role = 'user' ORDER BY q.id DESC LIMIT 1), '')`

// ReviewList returns the answers rated not_helpful with the question asked just before each.
func (s *Store) ReviewList(ctx context.Context, accountID int64) ([]store.ReviewItem, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.id, m.id, `+questionOfReply+`, m.body, m.lang, f.comment, f.created_at, f.resolved
		FROM feedback f JOIN messages m ON m.id = f.message_id
		WHERE f.account_id = ? AND f.rating = 'not_helpful' ORDER BY f.id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("review list: %w", err)
	}
	defer rows.Close()
	out := []store.ReviewItem{}
	for rows.Next() {
		var it store.ReviewItem
		var created string
		var resolved int
		if err := rows.Scan(&it.FeedbackID, &it.MessageID, &it.Question, &it.Answer, &it.Lang, &it.Comment,
			&created, &resolved); err != nil {
			return nil, fmt.Errorf("review list: %w", err)
		}
		it.CreatedAt, it.Resolved = ParseTS(created), resolved != 0
		out = append(out, it)
	}
	return out, rows.Err()
}
