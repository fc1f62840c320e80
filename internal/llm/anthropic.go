package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"svc/internal/nultext"
	"svc/internal/remote"
)

// anthropicVersion is the Messages API version asked for; the official SDKs send it too.
const anthropicVersion = "2023-06-01"

// anthropicClient speaks the Anthropic Messages API.
type anthropicClient struct {
	post  *remote.Endpoint
	model string
}

func newAnthropic(cfg Config, now func() time.Time) *anthropicClient {
	header := http.Header{}
	header.Set("X-Api-Key", cfg.APIKey)
	header.Set("Anthropic-Version", anthropicVersion)
	return &anthropicClient{post: endpoint(cfg, ProviderAnthropic, "v1/messages", header, anthropicMessage, now), model: cfg.Model}
}

// anthropicRequest is the body of POST /v1/messages.
type anthropicRequest struct {
	Model     string          `json:"model"`
	MaxTokens int             `json:"max_tokens"`
	System    []anthropicText `json:"system,omitempty"`
	Messages  []anthropicTurn `json:"messages"`
	// Always sent, 0 included, so that the provider's default does not decide.
	Temperature float64 `json:"temperature"`
	Stream      bool    `json:"stream,omitempty"`
}

type anthropicTurn struct {
	Role    string          `json:"role"`
	Content []anthropicText `json:"content"`
}

type anthropicText struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

// anthropicResponse is the part of a message that is read.
type anthropicResponse struct {
	Model      string          `json:"model"`
	Content    []anthropicText `json:"content"` // other block types (thinking, tool use) are skipped
	StopReason string          `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

func (c *anthropicClient) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, c.post.Failed(err)
	}
	body := c.body(req)
	if req.Stream != nil {
		return c.stream(ctx, req, body)
	}
	var out anthropicResponse
	if err := c.post.Post(ctx, body, &out); err != nil {
		return Response{}, err
	}
	var text strings.Builder
	for _, block := range out.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	return Response{
		Text:         nultext.Strip(text.String()), // a stored reply holds no NUL (nultext)
		InputTokens:  out.Usage.InputTokens,
		OutputTokens: out.Usage.OutputTokens,
		Model:        cmp.Or(out.Model, body.Model),
		StopReason:   out.StopReason,
	}, nil
}

func (c *anthropicClient) body(req Request) anthropicRequest {
	turns := make([]anthropicTurn, 0, len(req.Messages))
	for _, m := range req.Messages {
		role := RoleUser
		if m.Role == RoleAssistant {
			role = RoleAssistant
		}
		turns = append(turns, anthropicTurn{Role: role, Content: []anthropicText{{Type: "text", Text: m.Content}}})
	}
	b := anthropicRequest{
		Model:       cmp.Or(req.Model, c.model),
		MaxTokens:   req.MaxTokens,
		Messages:    turns,
		Temperature: req.Temperature,
	}
	system := req.System
	if req.JSON {
		system = withJSONInstruction(system)
	}
	if system != "" {
		b.System = []anthropicText{{Type: "text", Text: system}}
	}
	b.Stream = req.Stream != nil
	return b
}

// anthropicEvent is the part of a Messages stream event that is read: message_start
// carries the model and the input tokens, content_block_delta the text, message_delta the
// stop reason and the output tokens so far, message_stop ends the stream, error fails it.
type anthropicEvent struct {
	Type    string `json:"type"`
	Message struct {
		Model string         `json:"model"`
		Usage anthropicUsage `json:"usage"`
	} `json:"message"`
	Delta struct {
		Type       string `json:"type"`
		Text       string `json:"text"`
		StopReason string `json:"stop_reason"`
	} `json:"delta"`
	Usage anthropicUsage `json:"usage"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type anthropicUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// stream reads a streamed message: its text deltas until message_stop.
func (c *anthropicClient) stream(ctx context.Context, req Request, body anthropicRequest) (Response, error) {
	var text strings.Builder
	out := Response{Model: body.Model}
	err := c.post.Stream(ctx, body, func(e remote.Event) error {
		var ev anthropicEvent
		if err := json.Unmarshal(e.Data, &ev); err != nil {
			return c.post.Failed(fmt.Errorf("decode stream event: %w", err))
		}
		switch ev.Type {
		case "message_start":
			out.Model = cmp.Or(ev.Message.Model, out.Model)
			out.InputTokens = ev.Message.Usage.InputTokens
			out.OutputTokens = ev.Message.Usage.OutputTokens
		case "content_block_delta":
			if ev.Delta.Type != "text_delta" {
				return nil // thinking and tool input are not the reply
			}
			if piece := nultext.Strip(ev.Delta.Text); piece != "" {
				text.WriteString(piece)
				req.Stream(piece)
			}
		case "message_delta":
			out.StopReason = cmp.Or(ev.Delta.StopReason, out.StopReason)
			// The counts are cumulative; input_tokens is repeated there by newer versions.
			out.InputTokens = max(out.InputTokens, ev.Usage.InputTokens)
			out.OutputTokens = max(out.OutputTokens, ev.Usage.OutputTokens)
		case "message_stop":
			return remote.ErrStreamEnd
		case "error":
			return c.post.EventError(anthropicStatus(ev.Error.Type), anthropicMessage(e.Data))
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	out.Text = text.String()
	if out.InputTokens == 0 && out.OutputTokens == 0 {
		countUsage(&out, req)
	}
	return out, nil
}

// anthropicStatus is the HTTP status an error type of the Messages API is answered with,
// for an error that arrives inside a stream.
func anthropicStatus(errType string) int {
	switch errType {
	case "invalid_request_error":
		return http.StatusBadRequest
	case "authentication_error":
		return http.StatusUnauthorized
	case "permission_error":
		return http.StatusForbidden
	case "not_found_error":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "overloaded_error":
		return 529
	default: // api_error and any type added later
		return http.StatusInternalServerError
	}
}

// anthropicMessage takes the message out of {"type":"error","error":{"type","message"}},
// with the error's type in front: "overloaded_error: Overloaded".
func anthropicMessage(raw []byte) string {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return ""
	}
	if body.Error.Type != "" && body.Error.Message != "" {
		return body.Error.Type + ": " + body.Error.Message
	}
	return body.Error.Message
}
