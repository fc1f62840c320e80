package embedtest

import (
	"encoding/json"
	"net/http"
	"slices"
)

// maxOpenAIInputs is OpenAI's bound on inputs per request.
const maxOpenAIInputs = 2048

// embedRequest is the body both embedding protocols share the shape of.
type embedRequest struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	EncodingFormat string          `json:"encoding_format"`
}

// readEmbed reads an embedding call; a body that does not parse is reported by check.
func readEmbed(r *http.Request, protocol string) (Call, embedRequest, func() (string, bool)) {
	c, readErr := readBody(r, protocol)
	var req embedRequest
	decodeErr := json.Unmarshal(c.Body, &req)
	inputs, inputErr := texts(req.Input)
	if decodeErr == nil {
		c.Model, c.Input, c.EncodingFormat = req.Model, inputs, req.EncodingFormat
	}
	check := func() (string, bool) {
		switch {
		case readErr != nil || decodeErr != nil:
			return "could not parse the JSON body of your request", false
		case req.Model == "":
			return "you must provide a model parameter", false
		case inputErr != nil:
			return inputErr.Error(), false
		case len(inputs) == 0 || blank(inputs):
			return "'$.input' is invalid: empty text", false
		}
		return "", true
	}
	return c, req, check
}

// openAI serves POST /v1/embeddings.
func (s *Server) openAI(w http.ResponseWriter, r *http.Request) {
	c, req, check := readEmbed(r, ProtocolOpenAI)
	refuse := func(status int, msg string) {
		writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": openAIErrorType(status), "param": nil, "code": nil}})
	}
	f, ok := s.accept(w, r, c, refuse)
	if !ok {
		return
	}
	if msg, valid := check(); !valid {
		refuse(http.StatusBadRequest, msg)
		return
	}
	if len(c.Input) > maxOpenAIInputs {
		refuse(http.StatusBadRequest, "too many inputs")
		return
	}
	if req.EncodingFormat != "" && req.EncodingFormat != "float" {
		refuse(http.StatusBadRequest, "this fake answers encoding_format float only")
		return
	}
	data := []any{}
	for i, v := range s.vectors(c.Input, f) {
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
	}
	if f.Reverse {
		slices.Reverse(data)
	}
	body := map[string]any{"object": "list", "data": data, "model": req.Model}
	if !f.NoUsage {
		n := usage(c.Input)
		body["usage"] = map[string]any{"prompt_tokens": n, "total_tokens": n}
	}
	writeJSON(w, http.StatusOK, body)
}

func openAIErrorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

// ollama serves POST /api/embed.
func (s *Server) ollama(w http.ResponseWriter, r *http.Request) {
	c, req, check := readEmbed(r, ProtocolOllama)
	refuse := func(status int, msg string) { writeJSON(w, status, map[string]any{"error": msg}) }
	f, ok := s.accept(w, r, c, refuse)
	if !ok {
		return
	}
	if msg, valid := check(); !valid {
		refuse(http.StatusBadRequest, msg)
		return
	}
	body := map[string]any{
		"model":          req.Model,
		"embeddings":     s.vectors(c.Input, f),
		"total_duration": 1_000_000,
		"load_duration":  100_000,
	}
	if !f.NoUsage {
		body["prompt_eval_count"] = usage(c.Input)
	}
	writeJSON(w, http.StatusOK, body)
}
