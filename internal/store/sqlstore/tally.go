package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Tally is what the turns of one group commit add to rows that many of them share,
// written once per row at the end of the batch instead of once per turn: the daily totals
// (today's replies of one source, today's events of one type), the conversation's language
// and times, a cached entry's hits and the articles' views. Under load every turn of a batch
// adds to the same few rows, and these were half of a turn's statements. Nothing a turn
// writes reads them, so holding them until the batch's end changes no turn's outcome.
type Tally struct {
	replies map[replyKey]replyCount
	usage   map[usageKey]usageCount
	convs   map[int64]ConvTouch // by conversation id; the batch's last turn wins
	hits    map[[2]int64]int    // by account and cache entry
	views   map[[2]int64]int    // by account and document
}

// ConvTouch is a turn's update of its conversation's language and times.
type ConvTouch struct {
	Account, Conv int64
	Lang          string
	At            time.Time
}

type replyKey struct {
	account          int64
	day, source, via string
}

type replyCount struct{ replies, low, charged int }

type usageKey struct {
	account    int64
	day, event string
}

type usageCount struct {
	events int
	cost   int64
}

func (d *Tally) addReply(k replyKey, n replyCount) {
	if d.replies == nil {
		d.replies = map[replyKey]replyCount{}
	}
	c := d.replies[k]
	d.replies[k] = replyCount{replies: c.replies + n.replies, low: c.low + n.low, charged: c.charged + n.charged}
}

func (d *Tally) addUsage(k usageKey, n usageCount) {
	if d.usage == nil {
		d.usage = map[usageKey]usageCount{}
	}
	c := d.usage[k]
	d.usage[k] = usageCount{events: c.events + n.events, cost: c.cost + n.cost}
}

func (d *Tally) touch(c ConvTouch) {
	if d.convs == nil {
		d.convs = map[int64]ConvTouch{}
	}
	d.convs[c.Conv] = c
}

func addCount(m *map[[2]int64]int, k [2]int64, n int) {
	if *m == nil {
		*m = map[[2]int64]int{}
	}
	(*m)[k] += n
}

// Merge adds o's counts (a turn that committed its savepoint) to d.
func (d *Tally) Merge(o *Tally) {
	for k, n := range o.replies {
		d.addReply(k, n)
	}
	for k, n := range o.usage {
		d.addUsage(k, n)
	}
	for _, c := range o.convs {
		d.touch(c)
	}
	for k, n := range o.hits {
		addCount(&d.hits, k, n)
	}
	for k, n := range o.views {
		addCount(&d.views, k, n)
	}
}

// Write upserts every row of the tally.
func (d *Tally) Write(ctx context.Context, tx *Tx) error {
	for k, n := range d.replies {
		if err := writeReplyCount(ctx, tx, k, n); err != nil {
			return err
		}
	}
	for k, n := range d.usage {
		if err := writeUsageCount(ctx, tx, k, n); err != nil {
			return err
		}
	}
	for _, c := range d.convs {
		if err := writeConvTouch(ctx, tx, c); err != nil {
			return err
		}
	}
	for k, n := range d.hits {
		if err := writeCacheHits(ctx, tx, k[0], k[1], n); err != nil {
			return err
		}
	}
	for k, n := range d.views {
		if _, err := tx.ExecContext(ctx, `UPDATE articles SET view_count = view_count + ?
			WHERE document_id = ? AND account_id = ?`, n, k[1], k[0]); err != nil {
			return fmt.Errorf("count article views: %w", err)
		}
	}
	return nil
}

// TouchConversation moves a turn's conversation to its language and time (in a batch, once
// per conversation at the batch's end).
func TouchConversation(ctx context.Context, tx *Tx, c ConvTouch) error {
	if tx.Tally != nil {
		tx.Tally.touch(c)
		return nil
	}
	return writeConvTouch(ctx, tx, c)
}

func writeConvTouch(ctx context.Context, tx *Tx, c ConvTouch) error {
	if _, err := tx.ExecContext(ctx, `UPDATE conversations SET lang = ?, updated_at = ?, last_message_at = ?
		WHERE id = ? AND account_id = ?`, c.Lang, TS(c.At), TS(c.At), c.Conv, c.Account); err != nil {
		return fmt.Errorf("update conversation: %w", err)
	}
	return nil
}

// CountCacheHit counts a reuse of a cached answer.
func CountCacheHit(ctx context.Context, tx *Tx, accountID, entryID int64) error {
	if tx.Tally != nil {
		addCount(&tx.Tally.hits, [2]int64{accountID, entryID}, 1)
		return nil
	}
	return writeCacheHits(ctx, tx, accountID, entryID, 1)
}

func writeCacheHits(ctx context.Context, tx *Tx, accountID, entryID int64, n int) error {
	if _, err := tx.ExecContext(ctx, `UPDATE answer_cache SET hits = hits + ? WHERE id = ? AND account_id = ?`,
		n, entryID, accountID); err != nil {
		return fmt.Errorf("count cache hit: %w", err)
	}
	return nil
}

// CountArticleViews counts a view of every article among a reply's documents (a document
// that is no article changes nothing).
func CountArticleViews(ctx context.Context, tx *Tx, accountID int64, docIDs []int64) error {
	docIDs = slices.Compact(slices.Sorted(slices.Values(docIDs))) // a document named twice is one view
	if len(docIDs) == 0 {
		return nil
	}
	if tx.Tally != nil {
		for _, id := range docIDs {
			addCount(&tx.Tally.views, [2]int64{accountID, id}, 1)
		}
		return nil
	}
	args := make([]any, 0, len(docIDs)+1)
	args = append(args, accountID)
	for _, id := range docIDs {
		args = append(args, id)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE articles SET view_count = view_count + 1 WHERE account_id = ?
		AND document_id IN (`+Placeholders(len(docIDs))+`)`, args...); err != nil {
		return fmt.Errorf("count article views: %w", err)
	}
	return nil
}
