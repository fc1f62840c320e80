package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// maxBody bounds what the fake reads, so a runaway test fails instead of eating memory.
const maxBody = 4 << 20

// wireMessage is a prompt message in either protocol: the content is a string or an array of
// content blocks, of which the text blocks are kept.
type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text flattens a string or an array of {"type":"text","text":...} blocks.
func text(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "")
}

// readCall reads the body into a Call with the fields both protocols share.
func readCall(r *http.Request, protocol string) (Call, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	return Call{Protocol: protocol, Header: r.Header.Clone(), Body: body}, err
}

// promptTokens counts the prompt when the step does not say.
func promptTokens(c Call, given int) int {
	if given > 0 {
		return given
	}
	texts := []string{c.System}
	for _, m := range c.Messages {
		texts = append(texts, m.Content)
	}
	return max(1, tokens(texts...))
}

// outputTokens counts the reply when the step does not say.
func outputTokens(st Step) int {
	if st.OutputTokens > 0 {
		return st.OutputTokens
	}
	return tokens(st.Text)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// errorMessage is the message of a scripted error: the step's text or the status text.
func errorMessage(st Step, status int) string {
	if st.Text != "" {
		return st.Text
	}
	return http.StatusText(status)
}
