package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"svc/internal/store"
)

// reviewRef is one open review item of a page, before its texts are read.
type reviewRef struct {
	kind string
	id   int64
}

// ReviewQueue pages through the open items newest first. The page is chosen from the two
// small sets of open items alone (fallback_questions by status, feedback by rating and
// resolved), and only its items' texts are read, in the same read transaction.
func (s *Store) ReviewQueue(ctx context.Context, accountID int64, kind string, offset, limit int) ([]store.ReviewQueueItem, int, error) {
	if limit <= 0 {
		limit = 20
	}
	offset = max(offset, 0)
	open, args, err := OpenReviewItems(accountID, kind)
	if err != nil {
		return nil, 0, fmt.Errorf("review queue: %w", err)
	}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("review queue: %w", err)
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+open+`) AS items`, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("review queue: %w", err)
	}
	rows, err := tx.QueryContext(ctx, ReviewPage(open), append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("review queue: %w", err)
	}
	var refs []reviewRef
	for rows.Next() {
		var r reviewRef
		if err := rows.Scan(&r.kind, &r.id); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("review queue: %w", err)
		}
		refs = append(refs, r)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, 0, fmt.Errorf("review queue: %w", err)
	}
	items, err := reviewTexts(ctx, tx, accountID, refs)
	if err != nil {
		return nil, 0, err
	}
	out := make([]store.ReviewQueueItem, 0, len(refs))
	for _, r := range refs {
		if it, ok := items[r]; ok {
			out = append(out, it)
		}
	}
	return out, total, nil
}

// ReviewItem returns one of the account's open items of a kind, read like a queue page.
func (s *Store) ReviewItem(ctx context.Context, accountID int64, kind string, id int64) (store.ReviewQueueItem, error) {
	if kind == "" {
		return store.ReviewQueueItem{}, fmt.Errorf("review item: %w", store.ErrNotFound)
	}
	open, args, err := OpenReviewItems(accountID, kind)
	if err != nil {
		return store.ReviewQueueItem{}, fmt.Errorf("review item %s: %w", kind, store.ErrNotFound)
	}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return store.ReviewQueueItem{}, fmt.Errorf("review item: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+open+`) AS items WHERE id = ?`,
		append(args, id)...).Scan(&n); err != nil {
		return store.ReviewQueueItem{}, fmt.Errorf("review item: %w", err)
	}
	if n == 0 {
		return store.ReviewQueueItem{}, fmt.Errorf("review item %s %d: %w", kind, id, store.ErrNotFound)
	}
	ref := reviewRef{kind: kind, id: id}
	items, err := reviewTexts(ctx, tx, accountID, []reviewRef{ref})
	if err != nil {
		return store.ReviewQueueItem{}, err
	}
	it, ok := items[ref]
	if !ok {
		return store.ReviewQueueItem{}, fmt.Errorf("review item %s %d: %w", kind, id, store.ErrNotFound)
	}
	return it, nil
}

// OpenReviewItems selects the kind, id and time of the account's open items of a kind ("" both).
func OpenReviewItems(accountID int64, kind string) (string, []any, error) {
	var parts []string
	var args []any
	switch kind {
	case "", store.ReviewFallback, store.ReviewNotHelpful:
	default:
		return "", nil, fmt.Errorf("unknown kind %q", kind)
	}
	if kind == "" || kind == store.ReviewFallback {
		parts = append(parts, `SELECT 'fallback' AS kind, message_id AS id, created_at FROM fallback_questions
			WHERE account_id = ? AND status = ?`)
		args = append(args, accountID, FallbackOpen)
	}
	if kind == "" || kind == store.ReviewNotHelpful {
		parts = append(parts, `SELECT 'not_helpful' AS kind, id, created_at FROM feedback
			WHERE account_id = ? AND rating = ? AND resolved = 0`)
		args = append(args, accountID, store.RatingNotHelpful)
	}
	return strings.Join(parts, " UNION ALL "), args, nil
}

// ReviewPage picks a page of the open items, newest first.
func ReviewPage(open string) string {
	return `SELECT kind, id FROM (` + open + `) AS items ORDER BY created_at DESC, id DESC, kind LIMIT ? OFFSET ?`
}

// reviewTexts reads the question, answer and comment of the items of a page.
func reviewTexts(ctx context.Context, tx *Tx, accountID int64, refs []reviewRef) (map[reviewRef]store.ReviewQueueItem, error) {
	out := make(map[reviewRef]store.ReviewQueueItem, len(refs))
	var fallbacks, ratings []any
	for _, r := range refs {
		if r.kind == store.ReviewFallback {
			fallbacks = append(fallbacks, r.id)
		} else {
			ratings = append(ratings, r.id)
		}
	}
	queries := []struct {
		kind string
		ids  []any
		sql  string
	}{
		{store.ReviewFallback, fallbacks, `SELECT q.message_id, q.conversation_id, m.body, r.body, m.lang, '', q.created_at
			FROM fallback_questions q JOIN messages m ON m.id = q.message_id JOIN messages r ON r.id = q.reply_id
			WHERE q.account_id = ? AND q.message_id IN (`},
		// The question of a rated reply is the user message just before it, as in ReviewList.
		{store.ReviewNotHelpful, ratings, `SELECT f.id, m.conversation_id, ` + questionOfReply + `, m.body, m.lang,
			f.comment, f.created_at FROM feedback f JOIN messages m ON m.id = f.message_id
			WHERE f.account_id = ? AND f.id IN (`},
	}
	for _, q := range queries {
		if len(q.ids) == 0 {
			continue
		}
		rows, err := tx.QueryContext(ctx, q.sql+Placeholders(len(q.ids))+`)`, append([]any{accountID}, q.ids...)...)
		if err != nil {
			return nil, fmt.Errorf("review items: %w", err)
		}
		for rows.Next() {
			it := store.ReviewQueueItem{Kind: q.kind}
			var created string
			if err := rows.Scan(&it.ID, &it.ConversationID, &it.Question, &it.Answer, &it.Lang, &it.Comment,
				&created); err != nil {
				rows.Close()
				return nil, fmt.Errorf("review items: %w", err)
			}
			it.CreatedAt = ParseTS(created)
			out[reviewRef{q.kind, it.ID}] = it
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("review items: %w", err)
		}
	}
	return out, nil
}

// DismissReview closes an open item without an answer. The conditional UPDATE is the whole
// check, so of concurrent closes of one item exactly one finds it open.
func (s *Store) DismissReview(ctx context.Context, accountID int64, kind string, id int64) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var res sql.Result
		var err error
		switch kind {
		case store.ReviewFallback:
			res, err = tx.ExecContext(ctx, `UPDATE fallback_questions SET status = ?, closed_at = ?
				WHERE message_id = ? AND account_id = ? AND status = ?`, FallbackDismissed, TS(now), id, accountID, FallbackOpen)
		case store.ReviewNotHelpful:
			res, err = tx.ExecContext(ctx, `UPDATE feedback SET resolved = ?
				WHERE id = ? AND account_id = ? AND rating = ? AND resolved = 0`,
				FeedbackDismissed, id, accountID, store.RatingNotHelpful)
		default:
			return fmt.Errorf("dismiss review: kind %q: %w", kind, store.ErrNotFound)
		}
		return OneRow(res, err, fmt.Sprintf("dismiss %s review %d", kind, id))
	})
}

// ResolveFallback answers a fallback question with a curated Q&A entry and closes every open
// fallback item of the account asking the same question.
func (s *Store) ResolveFallback(ctx context.Context, accountID, messageID int64, doc *store.Document) error {
	if err := checkCurated(doc); err != nil {
		return fmt.Errorf("resolve fallback %d: %w", messageID, err)
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var key string
		err := tx.QueryRowContext(ctx, `SELECT question_key FROM fallback_questions
			WHERE message_id = ? AND account_id = ? AND status = ?`, messageID, accountID, FallbackOpen).Scan(&key)
		if err != nil {
			return NotFound(err, fmt.Sprintf("resolve fallback %d", messageID))
		}
		if err := s.upsertCurated(ctx, tx, accountID, doc, now, docChanges{}); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, CloseQuestionQuery, FallbackResolved, TS(now), doc.ID, accountID, key,
			FallbackOpen); err != nil {
			return fmt.Errorf("resolve fallback: %w", err)
		}
		return nil
	})
}

// CloseQuestionQuery closes the account's open items asking one question.
const CloseQuestionQuery = `UPDATE fallback_questions SET status = ?, closed_at = ?, doc_id = ?
	WHERE account_id = ? AND question_key = ? AND status = ?`

// checkCurated accepts a curated Q&A entry, the only kind of document that answers a review
// item (as ResolveReview requires).
func checkCurated(doc *store.Document) error {
	if doc == nil {
		return fmt.Errorf("no document")
	}
	if doc.Type == "" {
		doc.Type = store.DocQA
	}
	if doc.Type != store.DocQA {
		return fmt.Errorf("a %s document is not a Q&A entry", doc.Type)
	}
	return nil
}
