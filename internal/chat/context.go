package chat

import (
	"context"

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
