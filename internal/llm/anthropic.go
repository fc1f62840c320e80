package llm

import (
	"cmp"
	"context"
	"encoding/json"
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
	return b
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
