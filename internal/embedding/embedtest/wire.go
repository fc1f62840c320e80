package embedtest

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
)

// texts reads a JSON string or array of strings (OpenAI's and Ollama's input); Cohere's
// documents may also be objects with a text field.
func texts(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("input is required")
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var many []json.RawMessage
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, errors.New("input must be a string or an array of strings")
	}
	out := make([]string, 0, len(many))
	for _, m := range many {
		var s string
		if json.Unmarshal(m, &s) != nil {
			var doc struct {
				Text *string `json:"text"`
			}
			if json.Unmarshal(m, &doc) != nil || doc.Text == nil {
				return nil, errors.New("input must be a string or an array of strings")
			}
			s = *doc.Text
		}
		out = append(out, s)
	}
	return out, nil
}

// vectors embeds each text, shaped by the fault.
func (s *Server) vectors(inputs []string, f Fault) [][]float32 {
	out := make([][]float32, 0, len(inputs))
	for i, text := range inputs {
		v := s.concepts.Vector(text)
		if f.Dim > 0 {
			v = append(v, make([]float32, max(0, f.Dim-len(v)))...)[:f.Dim]
		}
		if f.ZeroVector && i == 0 {
			v = make([]float32, len(v))
		}
		out = append(out, v)
	}
	if f.Missing && len(out) > 0 {
		out = out[:len(out)-1]
	}
	return out
}

// usage approximates the tokens of inputs deterministically: a token per 4 bytes, rounded
// up, at least one.
func usage(inputs []string) int {
	n := 0
	for _, t := range inputs {
		n += len(t)
	}
	return max(1, (n+3)/4)
}

// ranked is one scored document.
type ranked struct {
	Index int
	Score float64
}

// rank scores docs against query by cosine, best first (ties by index), the last left out
// for a Missing fault.
func (s *Server) rank(query string, docs []string, f Fault) []ranked {
	q := s.concepts.Vector(query)
	out := make([]ranked, len(docs))
	for i, d := range docs {
		out[i] = ranked{Index: i, Score: Cosine(q, s.concepts.Vector(d))}
	}
	slices.SortStableFunc(out, func(a, b ranked) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return a.Index - b.Index
	})
	if f.Missing && len(out) > 0 {
		out = out[:len(out)-1]
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// blank reports whether any text is empty or only white space.
func blank(ts []string) bool {
	return slices.ContainsFunc(ts, func(t string) bool { return strings.TrimSpace(t) == "" })
}
