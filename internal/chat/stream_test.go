package chat

import (
	"context"
	"strings"
	"testing"

	"svc/internal/engine"
	"svc/internal/errs"
)

// events collects a streamed send's events and the text they make.
type events struct {
	list []Event
	text string
}

func (e *events) take(ev Event) {
	e.list = append(e.list, ev)
	switch ev.Kind {
	case EventDelta:
		e.text += ev.Text
	case EventReplace:
		e.text = ev.Text
	}
}

func (e *events) kinds() string {
	var k []string
	for _, ev := range e.list {
		k = append(k, ev.Kind)
	}
	return strings.Join(k, ",")
}

// Every kind of reply streams: the built-in engine's answer, the cached answer to the same
// question and small talk, each as the question then its sentences, joined into the reply.
func TestStreamedSendJoinsToTheReply(t *testing.T) {
	svc, acct, _ := salesChat(t)
	for _, q := range []string{"How long does delivery to Germany take?", "How long does delivery to Germany take?", "Hello!"} {
		var ev events
		res, err := svc.SendStream(context.Background(), acct, 1, q, ev.take)
		if err != nil {
			t.Fatal(err)
		}
		if ev.list[0] != (Event{Kind: EventUser, Text: q}) || ev.text != res.Reply.Body || strings.Contains(ev.kinds(), EventReplace) {
			t.Fatalf("%q (%s): events %+v, reply %q", q, res.Reply.Source, ev.list, res.Reply.Body)
		}
		if strings.Count(res.Reply.Body, ". ") > 0 && len(ev.list) < 3 {
			t.Errorf("%q: not cut into sentences: %+v", q, ev.list)
		}
	}
}

// stubAnswerer releases pieces and then answers text, as a model engine whose reply changed.
type stubAnswerer struct {
	Answerer
	pieces []engine.Piece
	text   string
}

func (s stubAnswerer) Answer(ctx context.Context, req engine.Request) (engine.Answer, error) {
	for _, p := range s.pieces {
		req.Stream(p)
	}
	a, err := s.Answerer.Answer(ctx, req)
	a.Text = s.text
	return a, err
}

// What the engine released is settled against the stored reply: continued when the reply
// goes on from it, replaced when it does not.
func TestStreamSettlesOnTheStoredReply(t *testing.T) {
	tests := []struct {
		name   string
		pieces []engine.Piece
		text   string
		kinds  string
	}{
		{"continued", []engine.Piece{{Text: "Delivery takes 5 days."}}, "Delivery takes 5 days.\nSource: Shipping", "user,delta,delta"},
		{"replaced", []engine.Piece{{Text: "Delivery takes"}, {Text: " 5 days."}}, "Something else entirely.", "user,delta,delta,replace"},
		{"declined", []engine.Piece{{Text: "Delivery takes 5 days."}, {Text: "No answer.", Replace: true}}, "No answer.", "user,delta,replace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc, acct, _ := salesChat(t)
			svc.engine = stubAnswerer{Answerer: svc.engine, pieces: tc.pieces, text: tc.text}
			var ev events
			res, err := svc.SendStream(context.Background(), acct, 1, "How long does delivery to Germany take?", ev.take)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reply.Body != tc.text || ev.text != tc.text || ev.kinds() != tc.kinds {
				t.Fatalf("reply %q, events %+v", res.Reply.Body, ev.list)
			}
		})
	}
}

// A refusal comes before the stream: nothing is streamed, and the error is the usual one.
func TestStreamRefusalStreamsNothing(t *testing.T) {
	svc, acct, _ := salesChat(t)
	acct.SendRatePerMin = 1
	var ev events
	if _, err := svc.SendStream(context.Background(), acct, 7, "How long does delivery to Germany take?", ev.take); err != nil {
		t.Fatal(err)
	}
	var refused events
	_, err := svc.SendStream(context.Background(), acct, 7, "And to Austria?", refused.take)
	if errs.KindOf(err) != errs.RateLimited || len(refused.list) != 0 {
		t.Fatalf("err %v, events %+v", err, refused.list)
	}
}

// A streamed send does not end with its caller: a visitor who left still gets the reply
// saved, where the conversation shows it.
func TestStreamedSendOutlivesItsCaller(t *testing.T) {
	svc, acct, _ := salesChat(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := svc.Send(ctx, acct, 1, "How long does delivery to Germany take?"); err == nil {
		t.Fatal("an unstreamed send ran on a cancelled context")
	}
	var ev events
	res, err := svc.SendStream(ctx, acct, 1, "How long does delivery to Germany take?", ev.take)
	if err != nil {
		t.Fatal(err)
	}
	v, err := svc.Sync(context.Background(), acct, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(v.Messages); n != 2 || v.Messages[1].ID != res.Reply.ID || v.Messages[1].Body != ev.text {
		t.Fatalf("conversation %+v", v.Messages)
	}
}
