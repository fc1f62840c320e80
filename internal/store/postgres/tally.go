package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// convTouch moves a turn's conversation to its language and time.
type convTouch struct {
	account, conv int64
	lang          string
	at            time.Time
}

// replyKey and replyCount are a reply's row of the daily reply counts.
type replyKey struct {
	account          int64
	day, source, via string
}

type replyCount struct{ replies, low, charged int }

// usageKey and usageCount are a usage event's row of the daily usage counts.
type usageKey struct {
	account    int64
	day, event string
}

type usageCount struct {
	events int
	cost   int64
}

// touchConversation moves a turn's conversation to its language and time. (The SQLite store
// defers these writes to the end of a group commit; here each turn writes its own.)
func touchConversation(ctx context.Context, tx *dbtx, c convTouch) error {
	if _, err := tx.ExecContext(ctx, `UPDATE conversations SET lang = ?, updated_at = ?, last_message_at = ?
		WHERE id = ? AND account_id = ?`, c.lang, ts(c.at), ts(c.at), c.conv, c.account); err != nil {
		return fmt.Errorf("update conversation: %w", err)
	}
	return nil
}

// countCacheHit counts a reuse of a cached answer.
func countCacheHit(ctx context.Context, tx *dbtx, accountID, entryID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE answer_cache SET hits = hits + 1 WHERE id = ? AND account_id = ?`,
		entryID, accountID); err != nil {
		return fmt.Errorf("count cache hit: %w", err)
	}
	return nil
}

// countArticleViews counts a view of every article among a reply's documents (a document
// that is no article changes nothing).
func countArticleViews(ctx context.Context, tx *dbtx, accountID int64, docIDs []int64) error {
	docIDs = slices.Compact(slices.Sorted(slices.Values(docIDs))) // a document named twice is one view
	if len(docIDs) == 0 {
		return nil
	}
	args := make([]any, 0, len(docIDs)+1)
	args = append(args, accountID)
	for _, id := range docIDs {
		args = append(args, id)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE articles SET view_count = view_count + 1 WHERE account_id = ?
		AND document_id IN (`+placeholders(len(docIDs))+`)`, args...); err != nil {
		return fmt.Errorf("count article views: %w", err)
	}
	return nil
}
