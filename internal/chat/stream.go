package chat

import (
	"context"
	"strings"
	"time"

	"svc/internal/engine"
)

// A streamed send (SendStream, VisitorSendStream) hands its caller the reply while it is
// composed. The events come in this order: EventUser once the question is accepted (the
// refusals a send can meet before, such as a rate limit or a spent quota, come as errors
// instead, with nothing streamed), then EventDelta pieces of the reply in order, with an
// EventReplace whenever the reply so far is replaced as a whole (the model's reply became a
// decline, the provider failed and the built-in engine answered, the balance refused the
// charge). The deltas joined, with every replace applied, are the body of the reply the send
// returns: the last pieces are settled after the turn is saved, from the stored reply.
const (
	EventUser    = "user"
	EventDelta   = "delta"
	EventReplace = "replace"
)

// Event is one step of a streamed send.
type Event struct {
	Kind string // EventUser, EventDelta or EventReplace
	// Text is the question as it is stored (EventUser), the text that follows what came
	// before (EventDelta), or the text that stands instead of all of it (EventReplace).
	Text string
}

// Stream receives a streamed send's events, on the send's goroutine, in order. It must not
// block: the send goes on at the pace of the model, whoever reads.
type Stream func(Event)

// streamTimeout bounds a streamed send, which does not end when its client leaves (see
// detach); the provider's own timeouts bound each call within it.
const streamTimeout = 2 * time.Minute

// detach is the context a streamed send runs on: it keeps the request's values but not its
// end, so that a visitor who closes the page mid-reply loses nothing; the reply is saved and
// billed once, as if it had been read, and shows when the conversation is opened again.
func detach(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), streamTimeout)
}

// streamer is the send side of a Stream: it remembers what the caller was shown, so that the
// stored reply can be settled with the fewest events.
type streamer struct {
	sink     Stream
	question string
	begun    bool
	shown    string
}

func newStreamer(sink Stream, question string) *streamer {
	if sink == nil {
		return nil
	}
	return &streamer{sink: sink, question: question}
}

// begin tells the caller that the question was accepted: from here on, a failure is an
// event of the stream rather than a refusal. It is sent once.
func (s *streamer) begin() {
	if s == nil || s.begun {
		return
	}
	s.begun = true
	s.sink(Event{Kind: EventUser, Text: s.question})
}

// piece passes on what the engine released.
func (s *streamer) piece(p engine.Piece) {
	s.begin()
	if p.Replace {
		s.shown = p.Text
		s.sink(Event{Kind: EventReplace, Text: p.Text})
		return
	}
	if p.Text == "" {
		return
	}
	s.shown += p.Text
	s.sink(Event{Kind: EventDelta, Text: p.Text})
}

// settle brings what the caller was shown to body, the stored reply in lang: the rest of it sentence
// by sentence when what was shown begins it (a reply composed at once, a cached one, the
// source line after a model's reply), else a replace.
func (s *streamer) settle(body, lang string) {
	if s == nil {
		return
	}
	s.begin()
	switch {
	case s.shown == body:
	case strings.HasPrefix(body, s.shown):
		for _, p := range engine.Pieces(body[len(s.shown):], lang) {
			s.piece(engine.Piece{Text: p})
		}
	default:
		s.piece(engine.Piece{Text: body, Replace: true})
	}
}
