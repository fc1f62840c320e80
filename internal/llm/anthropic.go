package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// anthropicClient speaks the Anthropic Messages API.
type anthropicClient struct {
	messages anthropic.MessageService
	model    string
	apiKey   string
	timeout  time.Duration
	now      func() time.Time
}

func newAnthropic(cfg Config, now func() time.Time) *anthropicClient {
	client := anthropic.NewClient(
		// Without this the SDK also reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, profiles
		// under ~/.config and federation variables: the configuration is Config and
		// nothing else.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(cfg.HTTPClient),
		// Retries are ours, so that the breaker sees a whole call and waits honour our caps.
		option.WithMaxRetries(0),
		// Our context bounds each attempt. Setting the SDK's own request timeout as well
		// stops it from refusing non-streaming calls whose max_tokens it guesses would run
		// past ten minutes.
		option.WithRequestTimeout(cfg.Timeout),
	)
	return &anthropicClient{
		messages: client.Messages,
		model:    cfg.Model,
		apiKey:   cfg.APIKey,
		timeout:  cfg.Timeout,
		now:      now,
	}
}

func (c *anthropicClient) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, invalid(ProviderAnthropic, err)
	}
	params := c.params(req)
	attempt, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	out, err := c.messages.New(attempt, params)
	if err != nil {
		return Response{}, c.fail(ctx, attempt, err)
	}
	var text strings.Builder
	for _, block := range out.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	return Response{
		Text:         text.String(),
		InputTokens:  int(out.Usage.InputTokens),
		OutputTokens: int(out.Usage.OutputTokens),
		Model:        cmp.Or(out.Model, params.Model),
		StopReason:   string(out.StopReason),
	}, nil
}

func (c *anthropicClient) params(req Request) anthropic.MessageNewParams {
	msgs := make([]anthropic.MessageParam, 0, len(req.Messages))
	for _, m := range req.Messages {
		block := anthropic.NewTextBlock(m.Content)
		if m.Role == RoleAssistant {
			msgs = append(msgs, anthropic.NewAssistantMessage(block))
		} else {
			msgs = append(msgs, anthropic.NewUserMessage(block))
		}
	}
	p := anthropic.MessageNewParams{
		Model:       cmp.Or(req.Model, c.model),
		MaxTokens:   int64(req.MaxTokens),
		Messages:    msgs,
		Temperature: anthropic.Float(req.Temperature),
	}
	system := req.System
	if req.JSON {
		system = withJSONInstruction(system)
	}
	if system != "" {
		p.System = []anthropic.TextBlockParam{{Text: system}}
	}
	return p
}

// fail maps an SDK error to *Error.
func (c *anthropicClient) fail(caller, attempt context.Context, err error) error {
	if cerr := contextError(ProviderAnthropic, caller, attempt, c.timeout); cerr != nil {
		return cerr
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		return statusError(ProviderAnthropic, c.apiKey, apiErr.StatusCode, h, anthropicMessage(apiErr.RawJSON()), c.now())
	}
	return otherError(ProviderAnthropic, c.apiKey, err)
}

// anthropicMessage takes the message out of {"type":"error","error":{"type","message"}}. The
// SDK's own Error() is not used: it quotes the URL and the whole body.
func anthropicMessage(raw string) string {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &body) != nil {
		return ""
	}
	if body.Error.Type != "" && body.Error.Message != "" {
		return body.Error.Type + ": " + body.Error.Message
	}
	return body.Error.Message
}
