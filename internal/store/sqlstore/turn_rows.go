package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"svc/internal/store"
)

// maxRowsPerInsert bounds the rows of one multi-row INSERT. Rows are inserted in chunks whose
// sizes are powers of two up to it (a batch of 11 is 8 + 2 + 1), so each table needs at most
// seven statement texts, which the transaction's statement cache keeps prepared.
const maxRowsPerInsert = 64

// rowChunks splits n rows into chunks of powers of two, largest first.
func rowChunks(n int) []int {
	var out []int
	for size := maxRowsPerInsert; n > 0; size /= 2 {
		for n >= size {
			out = append(out, size)
			n -= size
		}
	}
	return out
}

// multiInsert is an INSERT whose VALUES list repeats one row's placeholders; its texts for
// each chunk size are made once.
type multiInsert struct {
	head, row string
	texts     sync.Map // rows -> the statement text
}

func (m *multiInsert) text(rows int) string {
	if q, ok := m.texts.Load(rows); ok {
		return q.(string)
	}
	var b strings.Builder
	b.WriteString(m.head)
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m.row)
	}
	q, _ := m.texts.LoadOrStore(rows, b.String())
	return q.(string)
}

// messageColumns is how many values one messages row binds.
const messageColumns = 12

var insertMessageRows = &multiInsert{
	head: `INSERT INTO messages (conversation_id, account_id, role, body, source, lang, low_confidence, products,
		doc_ids, sources, via, created_at) VALUES `,
	row: `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
}

// usageColumns is how many values one usage_events row binds.
const usageColumns = 8

var insertUsageRows = &multiInsert{
	head: `INSERT INTO usage_events (account_id, event_type, cost_micro, input_tokens, output_tokens, message_id,
		embed_token_id, created_at) VALUES `,
	row: `(?, ?, ?, ?, ?, ?, ?, ?)`,
}

// insertRows inserts rows (each of cols values in args, in order) in chunks and returns
// their ids in the same order.
func (s *Store) insertRows(ctx context.Context, tx *Tx, m *multiInsert, cols int, args []any) ([]int64, error) {
	n := len(args) / cols
	ids := make([]int64, 0, n)
	for _, size := range rowChunks(n) {
		got, err := s.d.InsertIDs(ctx, tx, m.text(size), size, args[:size*cols]...)
		if err != nil {
			return nil, err
		}
		ids = append(ids, got...)
		args = args[size*cols:]
	}
	return ids, nil
}

// insertMessages inserts the turns' questions and replies, each turn's question first, and
// sets their ids. Rows were one statement each, then one per turn; under load a group commit
// holds many turns, and one statement for all of them costs a fraction of one each (the
// statement's setup, and the pages it journals, are shared).
func (s *Store) insertMessages(ctx context.Context, tx *Tx, turns []*store.Turn) error {
	args := make([]any, 0, len(turns)*2*messageColumns)
	for _, t := range turns {
		for _, m := range []*store.Message{&t.User, &t.Reply} {
			products := ""
			if len(m.Products) > 0 {
				b, err := json.Marshal(m.Products)
				if err != nil {
					return fmt.Errorf("encode products: %w", err)
				}
				products = string(b)
			}
			sources, err := FormatSources(m.Sources)
			if err != nil {
				return err
			}
			args = append(args, m.ConversationID, m.AccountID, m.Role, m.Body, m.Source, m.Lang, BoolInt(m.LowConfidence),
				products, FormatIDs(m.DocIDs), sources, m.Via, TS(m.CreatedAt))
		}
	}
	ids, err := s.insertRows(ctx, tx, insertMessageRows, messageColumns, args)
	if err != nil {
		return fmt.Errorf("insert messages: %w", err)
	}
	for i, t := range turns {
		t.User.ID, t.Reply.ID = ids[2*i], ids[2*i+1]
	}
	return nil
}

// FreeTurn is a turn that moves no money and counts against no quota (see MayRefuse), with
// its charges, which WriteFreeTurns settles in place.
type FreeTurn struct {
	T       *store.Turn
	Charges []store.Charge
}

// errFreeTurnCharges is a caller's mistake: a turn that moves money passed as free.
var errFreeTurnCharges = errors.New("save turn: a turn that moves money or counts a quota written as free")

// WriteFreeTurns writes turns that cannot be refused by a rule (small talk, a cached answer)
// in tx, as WriteTurn would one by one, with their messages and their usage events each
// inserted by as few statements as rowChunks allows. Under load these turns are most of a
// group commit, and their two inserts were most of the writer's time. A failure fails them
// all: the caller rolls back and writes them one at a time.
func (s *Store) WriteFreeTurns(ctx context.Context, tx *Tx, turns []FreeTurn, now time.Time) error {
	ts := make([]*store.Turn, len(turns))
	for i, f := range turns {
		if MayRefuse(f.T, f.Charges) {
			return errFreeTurnCharges
		}
		stampMessages(f.T, now)
		ts[i] = f.T
	}
	if err := s.insertMessages(ctx, tx, ts); err != nil {
		return err
	}
	// The usage events, in turn and charge order; a charge without an event type has none.
	var args []any
	var events []*store.Charge
	var accounts []int64
	for _, f := range turns {
		t := f.T
		for i := range f.Charges {
			c := &f.Charges[i]
			if c.EventType == "" {
				continue
			}
			args = append(args, t.AccountID, c.EventType, c.AmountMicro, c.InputTokens, c.OutputTokens,
				NullInt(t.Reply.ID), NullInt(t.EmbedTokenID), TS(now))
			events, accounts = append(events, c), append(accounts, t.AccountID)
		}
	}
	ids, err := s.insertRows(ctx, tx, insertUsageRows, usageColumns, args)
	if err != nil {
		return fmt.Errorf("insert usage: %w", err)
	}
	for i, c := range events {
		c.EventID = ids[i]
		if err := s.recordCalls(ctx, tx, accounts[i], c, now); err != nil {
			return err
		}
	}
	for _, f := range turns {
		if err := afterReply(ctx, tx, f.T, false, now); err != nil {
			return err
		}
	}
	return nil
}
