package chat

import (
	"context"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"svc/internal/engine"
	"svc/internal/store"
)

// Context window (SERVICE.md: the last 30 messages are the context; older turns are
// summarised automatically).
const (
	// ContextMessages is the window, counting the new question: it sees the 29 messages
	// before it verbatim.
	ContextMessages = 30
	// summaryBatch is how many messages may wait outside the window before the summary
	// takes them in. The first summary is written as soon as one message leaves the window;
	// after that, folding a few at a time saves a summary call on most turns, and the waiting
	// messages stay in the context verbatim meanwhile, so nothing is ever out of sight.
	summaryBatch = 10
)

// contextWindow is the conversation as the next answer sees it.
type contextWindow struct {
	history     []engine.Turn // earlier messages, oldest first
	fold        []engine.Turn // messages to fold into the summary now; empty when none is due
	foldThrough int64         // id of the newest message in fold
}

// loadContext reads the messages after the summary and decides whether a summary is due.
func (p *pending) loadContext(ctx context.Context) (contextWindow, error) {
	msgs, err := p.svc.st.LastMessages(ctx, p.acct.ID, p.conv.ID, ContextMessages-1+summaryBatch)
	if err != nil {
		return contextWindow{}, err
	}
	kept := msgs[:0]
	for _, m := range msgs {
		if m.ID > p.conv.SummarizedThrough {
			kept = append(kept, m)
		}
	}
	msgs = kept
	var w contextWindow
	older := 0
	if n := len(msgs) - (ContextMessages - 1); n > 0 {
		older = n
	}
	if older > 0 && (p.conv.Summary == "" || older >= summaryBatch) {
		w.fold = turns(msgs[:older])
		w.foldThrough = msgs[older-1].ID
		msgs = msgs[older:]
	}
	w.history = turns(msgs)
	return w, nil
}

// turns keeps the visitor's and the assistant's messages; system notices say nothing about
// the subject.
func turns(msgs []store.Message) []engine.Turn {
	out := make([]engine.Turn, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == store.RoleUser || m.Role == store.RoleAssistant {
			out = append(out, engine.Turn{Role: m.Role, Text: m.Body})
		}
	}
	return out
}

// folding tells a send whether to write its conversation's summary. The sends of one API
// integration run in parallel in one conversation, and each found the same turns outside its
// window: every one of them folded, and billed, the same summary, and the last to commit won.
// Now one send at a time folds a conversation, and a send that read the conversation before
// the last fold committed does not fold those turns again; the others leave the turns in
// their context verbatim, as they stay before a fold is due.
type folding struct {
	mu      sync.Mutex
	running map[int64]bool
	// done remembers, for recent conversations, the newest message a committed fold took in.
	done *lru.Cache[int64, int64]
}

// foldsKept bounds the conversations whose last fold is remembered.
const foldsKept = 4096

func newFolding() *folding {
	done, _ := lru.New[int64, int64](foldsKept)
	return &folding{running: map[int64]bool{}, done: done}
}

// begin claims the fold of conversation id from the summary the send read (through message
// from) to message through; false means another send is folding it, or a fold committed
// since the send read the conversation (its summary and window are out of date).
func (f *folding) begin(id, from, through int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if last, ok := f.done.Get(id); f.running[id] || (ok && (last > from || last >= through)) {
		return false
	}
	f.running[id] = true
	return true
}

// end releases conversation id's fold once its turn has committed (committed true) or
// failed.
func (f *folding) end(id, through int64, committed bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.running, id)
	if last, ok := f.done.Get(id); committed && (!ok || through > last) {
		f.done.Add(id, through)
	}
}

// keepVerbatim gives up the fold of w: its turns go back in front of the history.
func (w *contextWindow) keepVerbatim() {
	w.history = append(w.fold, w.history...)
	w.fold, w.foldThrough = nil, 0
}
