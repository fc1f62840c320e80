package sqlite

import "context"

// dailyTally is the daily totals of the turns of one group commit, written once per row at
// the end of the batch instead of once per turn: under load every turn of a batch adds to
// the same few rows (today's replies of one source, today's events of one type), and those
// upserts were two of a turn's eight statements. Nothing a turn writes reads the daily
// tables, so holding the counts until the batch's end changes no turn's outcome.
type dailyTally struct {
	replies map[replyKey]replyCount
	usage   map[usageKey]usageCount
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

func (d *dailyTally) addReply(k replyKey, n replyCount) {
	if d.replies == nil {
		d.replies = map[replyKey]replyCount{}
	}
	c := d.replies[k]
	d.replies[k] = replyCount{replies: c.replies + n.replies, low: c.low + n.low, charged: c.charged + n.charged}
}

func (d *dailyTally) addUsage(k usageKey, n usageCount) {
	if d.usage == nil {
		d.usage = map[usageKey]usageCount{}
	}
	c := d.usage[k]
	d.usage[k] = usageCount{events: c.events + n.events, cost: c.cost + n.cost}
}

// merge adds o's counts (a turn that committed its savepoint) to d.
func (d *dailyTally) merge(o *dailyTally) {
	for k, n := range o.replies {
		d.addReply(k, n)
	}
	for k, n := range o.usage {
		d.addUsage(k, n)
	}
}

// write upserts every row of the tally.
func (d *dailyTally) write(ctx context.Context, tx *dbtx) error {
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
	return nil
}
