package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"svc/internal/remote/remotetest"
)

type openAIRequest struct {
	Model               string        `json:"model"`
	Messages            []wireMessage `json:"messages"`
	MaxTokens           *int          `json:"max_tokens"`
	MaxCompletionTokens *int          `json:"max_completion_tokens"`
	Temperature         *float64      `json:"temperature"`
	ResponseFormat      *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// openAI serves POST /v1/chat/completions.
func (s *Server) openAI(w http.ResponseWriter, r *http.Request) {
	c, err := readCall(r, ProtocolOpenAI)
	var req openAIRequest
	decodeErr := json.Unmarshal(c.Body, &req)
	if err == nil && decodeErr == nil {
		c.Model = req.Model
		c.Temperature = req.Temperature
		c.JSON = req.ResponseFormat != nil && (req.ResponseFormat.Type == "json_object" || req.ResponseFormat.Type == "json_schema")
		c.Stream = req.Stream
		c.IncludeUsage = req.StreamOptions != nil && req.StreamOptions.IncludeUsage
		switch {
		case req.MaxTokens != nil:
			c.MaxTokens = *req.MaxTokens
		case req.MaxCompletionTokens != nil:
			c.MaxTokens = *req.MaxCompletionTokens
		}
		for _, m := range req.Messages {
			content := text(m.Content)
			if m.Role == "system" || m.Role == "developer" {
				if c.System != "" {
					c.System += "\n\n"
				}
				c.System += content
				continue
			}
			c.Messages = append(c.Messages, Message{Role: m.Role, Content: content})
		}
	}
	seq := s.Record(c)

	switch {
	case r.Method != http.MethodPost:
		openAIError(w, http.StatusMethodNotAllowed, "invalid_request_error", "", "method not allowed")
		return
	case s.apiKey != "" && r.Header.Get("Authorization") != "Bearer "+s.apiKey:
		// Like the real service, the message never repeats the key that was sent.
		openAIError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "Incorrect API key provided.")
		return
	case err != nil || decodeErr != nil:
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "", "could not parse the JSON body of your request")
		return
	case req.Model == "":
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "", "you must provide a model parameter")
		return
	case len(req.Messages) == 0:
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "", "'messages' is a required property")
		return
	}

	st := s.Next(c)
	if !s.Wait(r, st.Delay) {
		return
	}
	if st.RetryAfter != "" {
		w.Header().Set("Retry-After", st.RetryAfter)
	}
	if st.Status >= 400 {
		openAIError(w, st.Status, remotetest.OpenAIErrorType(st.Status), "", errorMessage(st, st.Status))
		return
	}
	in, out := promptTokens(c, st.InputTokens), outputTokens(st)
	if req.Stream {
		s.openAIStream(w, r, seq, c, st, req.Model, in, out)
		return
	}
	choices := []any{}
	if !st.NoContent {
		finish := st.StopReason
		if finish == "" {
			finish = "stop"
		}
		choices = append(choices, map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": st.Text, "refusal": nil},
			"logprobs":      nil,
			"finish_reason": finish,
		})
	}
	status := http.StatusOK
	if st.Status != 0 {
		status = st.Status
	}
	writeJSON(w, status, map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake-%d", seq),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   req.Model,
		"choices": choices,
		"usage":   map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out},
	})
}

func openAIError(w http.ResponseWriter, status int, typ, code, message string) {
	var c any
	if code != "" {
		c = code
	}
	writeJSON(w, status, map[string]any{
		"error": map[string]any{"message": message, "type": typ, "param": nil, "code": c},
	})
}

// openAIStream answers a streamed call as Chat Completions does: chunks of
// chat.completion.chunk, the finish reason in the last choice, the usage in a chunk of its
// own when the request asked for it, then "data: [DONE]".
func (s *Server) openAIStream(w http.ResponseWriter, r *http.Request, seq int, c Call, st Step, model string, in, out int) {
	id, created := fmt.Sprintf("chatcmpl-fake-%d", seq), time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
	}
	startStream(w)
	sse(w, "", chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil))
	cutNow, gone := s.streamText(r, seq, st, func(p string) { sse(w, "", chunk(map[string]any{"content": p}, nil)) })
	if gone {
		return
	}
	if cutNow {
		cut(st, func(msg string) {
			sse(w, "", map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "param": nil, "code": nil}})
		})
		return
	}
	finish := st.StopReason
	if finish == "" {
		finish = "stop"
	}
	sse(w, "", chunk(map[string]any{}, finish))
	if c.IncludeUsage && !st.NoUsage {
		sse(w, "", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": []any{},
			"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}})
	}
	sse(w, "", "[DONE]")
}
