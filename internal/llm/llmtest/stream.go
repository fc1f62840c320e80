package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode"
	"unicode/utf8"
)

// Pieces cuts text the way the fake streams it: runs of up to 4 bytes of a word (a token is
// about 4 bytes), each followed by the white space after it. Joined, they are text.
func Pieces(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && j-i < 4 {
			r, n := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) || (j > i && j-i+n > 4) {
				break
			}
			j += n
		}
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsSpace(r) {
				break
			}
			j += n
		}
		out = append(out, text[i:j])
		i = j
	}
	return out
}

// sse writes one server-sent event and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	var b []byte
	if s, ok := data.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(data)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// streamText writes st.Text piece by piece with write, pausing TokenInterval between
// pieces. cutNow reports that st.CutAfter pieces were written and the stream must be cut
// (see cut); gone that the client left or the server closed, and nothing more is written.
func (s *Server) streamText(r *http.Request, seq int, st Step, write func(string)) (cutNow, gone bool) {
	if st.NoContent {
		return false, false
	}
	for i, p := range Pieces(st.Text) {
		if st.CutAfter > 0 && i >= st.CutAfter {
			return true, false
		}
		if i > 0 && !s.Wait(r, st.TokenInterval) {
			return false, true
		}
		write(p)
		if s.onPiece != nil {
			s.onPiece(seq, p, time.Now())
		}
	}
	return st.CutAfter > 0, false
}

// cut ends a stream that st cuts short: the protocol's error event when the step names one,
// else a dropped connection, which the client reads as a stream ended before its end.
func cut(st Step, errorEvent func(string)) {
	if st.StreamError != "" {
		errorEvent(st.StreamError)
		return
	}
	panic(http.ErrAbortHandler)
}

func startStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
