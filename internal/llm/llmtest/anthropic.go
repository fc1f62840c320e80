package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

type anthropicRequest struct {
	Model        string          `json:"model"`
	MaxTokens    *int            `json:"max_tokens"`
	Messages     []wireMessage   `json:"messages"`
	System       json.RawMessage `json:"system"`
	Temperature  *float64        `json:"temperature"`
	Stream       bool            `json:"stream"`
	OutputConfig *struct {
		Format *struct {
			Type string `json:"type"`
		} `json:"format"`
	} `json:"output_config"`
}

// anthropic serves POST /v1/messages.
func (s *Server) anthropic(w http.ResponseWriter, r *http.Request) {
	c, err := readCall(r, ProtocolAnthropic)
	var req anthropicRequest
	decodeErr := json.Unmarshal(c.Body, &req)
	if err == nil && decodeErr == nil {
		c.Model = req.Model
		c.System = text(req.System)
		c.Temperature = req.Temperature
		c.JSON = req.OutputConfig != nil && req.OutputConfig.Format != nil && req.OutputConfig.Format.Type != ""
		c.Stream = req.Stream
		if req.MaxTokens != nil {
			c.MaxTokens = *req.MaxTokens
		}
		for _, m := range req.Messages {
			c.Messages = append(c.Messages, Message{Role: m.Role, Content: text(m.Content)})
		}
	}
	seq := s.Record(c)

	key := r.Header.Get("X-Api-Key")
	switch {
	case r.Method != http.MethodPost:
		anthropicError(w, http.StatusMethodNotAllowed, "Method not allowed")
		return
	case key == "" || (s.apiKey != "" && key != s.apiKey):
		anthropicError(w, http.StatusUnauthorized, "invalid x-api-key")
		return
	case r.Header.Get("Anthropic-Version") == "":
		anthropicError(w, http.StatusBadRequest, "anthropic-version: header is required")
		return
	case err != nil || decodeErr != nil:
		anthropicError(w, http.StatusBadRequest, "invalid request body")
		return
	case req.Model == "":
		anthropicError(w, http.StatusBadRequest, "model: Field required")
		return
	case req.MaxTokens == nil:
		anthropicError(w, http.StatusBadRequest, "max_tokens: Field required")
		return
	case *req.MaxTokens < 1:
		anthropicError(w, http.StatusBadRequest, "max_tokens: must be greater than or equal to 1")
		return
	case len(req.Messages) == 0:
		anthropicError(w, http.StatusBadRequest, "messages: Field required")
		return
	}
	for _, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			anthropicError(w, http.StatusBadRequest, fmt.Sprintf("messages: unexpected role %q", m.Role))
			return
		}
	}

	st := s.Next(c)
	if !s.Wait(r, st.Delay) {
		return
	}
	if st.RetryAfter != "" {
		w.Header().Set("Retry-After", st.RetryAfter)
	}
	if st.Status >= 400 {
		anthropicError(w, st.Status, errorMessage(st, st.Status))
		return
	}
	if req.Stream {
		s.anthropicStream(w, r, seq, st, req.Model, promptTokens(c, st.InputTokens), outputTokens(st))
		return
	}
	content := []any{}
	if !st.NoContent {
		content = append(content, map[string]any{"type": "text", "text": st.Text})
	}
	stop := st.StopReason
	if stop == "" {
		stop = "end_turn"
	}
	status := http.StatusOK
	if st.Status != 0 {
		status = st.Status
	}
	writeJSON(w, status, map[string]any{
		"id":            fmt.Sprintf("msg_fake_%d", seq),
		"type":          "message",
		"role":          "assistant",
		"model":         req.Model,
		"content":       content,
		"stop_reason":   stop,
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": promptTokens(c, st.InputTokens), "output_tokens": outputTokens(st)},
	})
}

func anthropicError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": anthropicErrorType(status), "message": message},
	})
}

func anthropicErrorType(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusMethodNotAllowed:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	default:
		return "api_error"
	}
}

// anthropicStream answers a streamed call as the Messages API does: message_start with the
// input tokens, a text block of content_block_delta events, message_delta with the stop
// reason and the output tokens, message_stop.
func (s *Server) anthropicStream(w http.ResponseWriter, r *http.Request, seq int, st Step, model string, in, out int) {
	startStream(w)
	usage := map[string]any{"input_tokens": in, "output_tokens": 1}
	if st.NoUsage {
		usage = map[string]any{"input_tokens": 0, "output_tokens": 0}
	}
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_fake_%d", seq), "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if !st.NoContent {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
	}
	sse(w, "ping", map[string]any{"type": "ping"})
	cutNow, gone := s.streamText(r, seq, st, func(p string) {
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": p}})
	})
	if gone {
		return
	}
	if cutNow {
		cut(st, func(msg string) {
			sse(w, "error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": msg}})
		})
		return
	}
	if !st.NoContent {
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	}
	stop := st.StopReason
	if stop == "" {
		stop = "end_turn"
	}
	final := map[string]any{"output_tokens": out}
	if st.NoUsage {
		final["output_tokens"] = 0
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": final})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}
