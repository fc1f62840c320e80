package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"svc/internal/chat"
)

// A send asked for with Accept: text/event-stream is answered as an event stream
// (DECISIONS.md, Streaming replies): "user" (the accepted question), "delta" pieces of the
// reply, "replace" when the reply so far is replaced as a whole, then "done" with exactly the
// data object the JSON send returns, or "error" with the envelope's error and message. A
// refusal before the stream started (400, 401, 429, …) is the usual JSON envelope.
//
// The send runs on the handler's goroutine and never waits for the client: its events go
// through a bounded buffer to a writer goroutine, which flushes each one under a write
// deadline. A client that reads too slowly (the buffer fills, or a write passes its
// deadline) or has gone is dropped; the send goes on, and its reply is saved and billed
// once, as for a client that read it (chat.SendStream).
const (
	// streamBuffer is how many events may wait for the client. A reply is at most a few
	// dozen sentences; a client this far behind is not reading.
	streamBuffer = 64
	// streamWriteTimeout is how long one event may take to reach the client's connection.
	streamWriteTimeout = 10 * time.Second
	// streamMaxDuration bounds a whole stream, whatever the pace of its client.
	streamMaxDuration = 3 * time.Minute
)

// wantsStream reports whether the request's Accept header names text/event-stream (with a
// q above 0).
func wantsStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || mt != "text/event-stream" {
				continue
			}
			if q, err := strconv.ParseFloat(params["q"], 64); err == nil && q <= 0 {
				continue
			}
			return true
		}
	}
	return false
}

// sseEvent is one event waiting to be written.
type sseEvent struct {
	name string
	data []byte
}

// eventStream is one streamed send's response.
type eventStream struct {
	s    *Server
	w    http.ResponseWriter
	r    *http.Request
	rc   *http.ResponseController
	ch   chan sseEvent
	done chan struct{}
	end  time.Time
	// writeTimeout is streamWriteTimeout (a test shortens it).
	writeTimeout time.Duration
	begun        bool        // touched only by the send's goroutine
	gone         atomic.Bool // the client was dropped: nothing more is written
}

func (s *Server) newEventStream(w http.ResponseWriter, r *http.Request) *eventStream {
	return &eventStream{s: s, w: w, r: r, rc: http.NewResponseController(w), ch: make(chan sseEvent, streamBuffer),
		done: make(chan struct{}), end: time.Now().Add(streamMaxDuration), writeTimeout: streamWriteTimeout}
}

// streamUser is the data of the "user" event: the question as it will be stored. Its id,
// source and time come with "done", because the question is stored with its reply and the
// charge in one transaction (ARCHITECTURE.md, Invariants: Money).
type streamUser struct {
	Role string `json:"role"`
	Body string `json:"body"`
}

// streamText is the data of "delta" and "replace".
type streamText struct {
	Text string `json:"text"`
}

// event is the send's chat.Stream.
func (es *eventStream) event(ev chat.Event) {
	switch ev.Kind {
	case chat.EventUser:
		es.push("user", streamUser{Role: "user", Body: ev.Text})
	case chat.EventDelta, chat.EventReplace:
		es.push(ev.Kind, streamText{Text: ev.Text})
	}
}

// push queues an event without waiting; the first one starts the response.
func (es *eventStream) push(name string, v any) {
	if !es.begun {
		es.begun = true
		h := es.w.Header()
		h.Set("Content-Type", "text/event-stream; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no") // nginx and the proxies that copy it: pass each event on
		go es.write()
	}
	if es.gone.Load() {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		es.drop("encode event", err)
		return
	}
	select {
	case es.ch <- sseEvent{name: name, data: data}:
	default:
		es.drop("the client reads too slowly: its buffer is full", nil)
	}
}

// finish sends the last event, ends the stream and waits for the writer, which every
// write's deadline bounds.
func (es *eventStream) finish(name string, v any) {
	es.push(name, v)
	close(es.ch)
	<-es.done
}

// fail ends the stream with the error event of err, logged as writeError logs it.
func (es *eventStream) fail(err error) {
	_, env, _ := es.s.describeError(es.r, err)
	es.finish("error", struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}{env.Error, env.Message})
}

func (es *eventStream) drop(why string, err error) {
	if es.gone.Swap(true) {
		return
	}
	es.s.log.DebugContext(es.r.Context(), "stream client dropped; the send goes on", slog.String("request_id", requestID(es.r.Context())),
		slog.String("why", why), slog.Any("error", err))
}

// write writes the events as they come: headers first, then each event flushed under its
// deadline. After a failed write it only drains the buffer.
func (es *eventStream) write() {
	defer close(es.done)
	write := func(b []byte, status int) error {
		deadline := time.Now().Add(es.writeTimeout)
		if deadline.After(es.end) {
			deadline = es.end
		}
		if err := es.rc.SetWriteDeadline(deadline); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		if status != 0 {
			es.w.WriteHeader(status)
		}
		if len(b) > 0 {
			if _, err := es.w.Write(b); err != nil {
				return err
			}
		}
		return es.rc.Flush()
	}
	if err := write(nil, http.StatusOK); err != nil {
		es.drop("write headers", err)
	}
	for ev := range es.ch {
		if es.gone.Load() {
			continue
		}
		if err := write(fmt.Appendf(nil, "event: %s\ndata: %s\n\n", ev.name, ev.data), 0); err != nil {
			es.drop("write event", err)
		}
	}
}

// run runs a streamed send and ends its stream: a refusal before the stream began is
// returned, for the usual JSON answer; a failure after it is the error event; a success is
// "done" with view's data. Should the send panic, the stream is closed and its writer waited
// for before the panic goes on to the middleware's recovery.
func (es *eventStream) run(send func(chat.Stream) (chat.SendResult, error), view func(chat.SendResult) any) error {
	ended := false
	defer func() {
		if !ended && es.begun {
			close(es.ch)
			<-es.done
		}
	}()
	res, err := send(es.event)
	ended = true
	switch {
	case err != nil && !es.begun:
		return err
	case err != nil:
		es.fail(err)
	default:
		es.finish("done", view(res))
	}
	return nil
}
