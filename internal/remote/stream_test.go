package remote

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// The event reader follows the text/event-stream format: fields, comments, data lines
// joined, CRLF, and an end the protocol must say; a runaway line is refused.
func TestReadEvents(t *testing.T) {
	t.Parallel()
	body := ": keep-alive\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\n\ndata: {\"x\":1}\n\nevent: end\ndata: .\n\nevent: after\ndata: never\n\n"
	var got []string
	err := readEvents(strings.NewReader(body), func(e Event) error {
		got = append(got, e.Name+"="+string(e.Data))
		if e.Name == "end" {
			return ErrStreamEnd
		}
		return nil
	})
	if !errors.Is(err, ErrStreamEnd) || strings.Join(got, "|") != "a=one\ntwo|={\"x\":1}|end=." {
		t.Fatalf("%v: %q", err, got)
	}

	err = readEvents(strings.NewReader("data: cut\n\ndata: sh"), func(Event) error { return nil })
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a stream cut short: %v", err)
	}
	err = readEvents(strings.NewReader("data: "+strings.Repeat("x", maxEventLine+1)+"\n\n"), func(Event) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("a runaway line: %v", err)
	}
}
