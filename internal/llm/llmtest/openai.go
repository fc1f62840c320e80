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
