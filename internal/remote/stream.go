package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
)

// Event is one server-sent event of a streamed answer (the text/event-stream format).
type Event struct {
	Name string // the event: field; "" when the event named none
	Data []byte // its data: lines, joined by "\n"
}

// ErrStreamEnd is what a Stream handler returns when the protocol's last event has arrived:
// the stream is complete, and whatever follows is not read.
var ErrStreamEnd = errors.New("end of stream")

// maxEventLine bounds one line of an event stream: a text delta is a few bytes, and a
// provider's final event a few kilobytes.
const maxEventLine = 1 << 20

// Stream posts payload as JSON asking for an event stream, in one attempt bounded by the
// endpoint's timeout, and hands each event to onEvent as it arrives. onEvent returns
// ErrStreamEnd at the protocol's last event; a stream that ends before it was cut short,
// which, like a broken connection, is Retryable. An error answer is read and reported as
// Post reports it. An *Error that onEvent returns (the provider's error event, a chunk that
// does not decode) is returned as it is; any other failure is an *Error too.
func (e *Endpoint) Stream(ctx context.Context, payload any, onEvent func(Event) error) error {
	attempt, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	res, err := e.send(attempt, payload, "text/event-stream")
	if err != nil {
		return e.fail(ctx, attempt, answer{}, err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		ans, err := readAnswer(res)
		return e.fail(ctx, attempt, ans, err)
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "text/event-stream" {
		return e.Failed(fmt.Errorf("answer is %q, not an event stream", mt))
	}
	err = readEvents(io.LimitReader(res.Body, MaxResponseBytes+1), onEvent)
	if errors.Is(err, ErrStreamEnd) {
		return nil
	}
	var own *Error
	if errors.As(err, &own) && ctx.Err() == nil && attempt.Err() == nil {
		return own
	}
	return e.fail(ctx, attempt, answer{}, err)
}

// readEvents reads events until onEvent returns an error, which it returns, or the body
// ends, which is io.ErrUnexpectedEOF: every protocol we read ends with an event of its own.
func readEvents(body io.Reader, onEvent func(Event) error) error {
	r := bufio.NewReaderSize(body, 4096)
	var ev Event
	var data bytes.Buffer
	hasData := false
	read := 0
	for {
		line, err := readLine(r)
		read += len(line) + 1
		if read > MaxResponseBytes {
			return ErrResponseTooLarge
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		switch {
		case len(line) == 0:
			if hasData {
				ev.Data = data.Bytes()
				if err := onEvent(ev); err != nil {
					return err
				}
			}
			ev, hasData = Event{}, false
			data.Reset()
		case line[0] == ':': // a comment, often a keep-alive
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				ev.Name = string(value)
			case "data":
				if hasData {
					data.WriteByte('\n')
				}
				data.Write(value)
				hasData = true
			}
		}
	}
}

// readLine reads one line without its end (\n, \r\n or a lone \r before \n), refusing a
// line longer than maxEventLine.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(part) > maxEventLine {
			return nil, fmt.Errorf("event stream line longer than %d bytes", maxEventLine)
		}
		line = append(line, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if len(line) > 0 && errors.Is(err, io.EOF) {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}

// EventError is an error the provider reported inside a stream, after its 200 answer:
// judged as an error answer with that status would be (Retryable for 429 and 5xx), its
// message cleaned of the key.
func (e *Endpoint) EventError(status int, message string) *Error {
	return statusError(e.api, e.provider, e.secret, status, nil, message, e.now())
}
