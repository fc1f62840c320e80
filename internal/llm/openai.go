package llm

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openAIClient speaks Chat Completions, the one protocol that OpenAI, Ollama, vLLM,
// llama.cpp and most gateways share; the newer Responses API is OpenAI's alone.
type openAIClient struct {
	chat    openai.ChatCompletionService
	model   string
	apiKey  string
	timeout time.Duration
	now     func() time.Time
}

func newOpenAI(cfg Config, now func() time.Time) *openAIClient {
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithHTTPClient(cfg.HTTPClient),
		// Retries are ours, so that the breaker sees a whole call and waits honour our caps.
		option.WithMaxRetries(0),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &openAIClient{
		// The service is built directly rather than through openai.NewClient, which would
		// also read OPENAI_API_KEY, OPENAI_ORG_ID, OPENAI_CUSTOM_HEADERS and friends from the
		// environment: the configuration is Config and nothing else.
		chat:    openai.NewChatCompletionService(opts...),
		model:   cfg.Model,
		apiKey:  cfg.APIKey,
		timeout: cfg.Timeout,
		now:     now,
	}
}

func (c *openAIClient) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, invalid(ProviderOpenAI, err)
	}
	params := c.params(req)
	attempt, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var seen lastResponse
	out, err := c.chat.New(attempt, params, option.WithMiddleware(seen.record))
	if err != nil {
		return Response{}, c.fail(ctx, attempt, err, &seen)
	}
	if len(out.Choices) == 0 {
		return Response{}, &Error{Provider: ProviderOpenAI, Err: errors.New("response has no choices")}
	}
	choice := out.Choices[0]
	return Response{
		Text:         choice.Message.Content,
		InputTokens:  int(out.Usage.PromptTokens),
		OutputTokens: int(out.Usage.CompletionTokens),
		Model:        cmp.Or(out.Model, params.Model),
		StopReason:   choice.FinishReason,
	}, nil
}

func (c *openAIClient) params(req Request) openai.ChatCompletionNewParams {
	system := req.System
	if req.JSON && !mentionsJSON(req) {
		system = withJSONInstruction(system)
	}
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages)+1)
	if system != "" {
		msgs = append(msgs, openai.SystemMessage(system))
	}
	for _, m := range req.Messages {
		if m.Role == RoleAssistant {
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		} else {
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	p := openai.ChatCompletionNewParams{
		Model:    cmp.Or(req.Model, c.model),
		Messages: msgs,
		// max_tokens, not max_completion_tokens: the servers that copy the protocol know the
		// older name, and the default model still accepts it.
		MaxTokens:   openai.Int(int64(req.MaxTokens)),
		Temperature: openai.Float(req.Temperature),
	}
	if req.JSON {
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONObject: &shared.ResponseFormatJSONObjectParam{},
		}
	}
	return p
}

// fail maps an SDK error to *Error.
func (c *openAIClient) fail(caller, attempt context.Context, err error, seen *lastResponse) error {
	if cerr := contextError(ProviderOpenAI, caller, attempt, c.timeout); cerr != nil {
		return cerr
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		return statusError(ProviderOpenAI, c.apiKey, apiErr.StatusCode, h, apiErr.Message, c.now())
	}
	// Some OpenAI-compatible servers answer errors as {"error":"text"}; the SDK then fails
	// to decode the body and returns a JSON error without the status. The status and the
	// headers we saw go by still tell what happened.
	if seen.status >= 400 {
		return statusError(ProviderOpenAI, c.apiKey, seen.status, seen.header, "", c.now())
	}
	return otherError(ProviderOpenAI, c.apiKey, err)
}

// lastResponse remembers the status and headers of the last HTTP answer of one call.
type lastResponse struct {
	status int
	header http.Header
}

func (l *lastResponse) record(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if res != nil {
		l.status, l.header = res.StatusCode, res.Header
	}
	return res, err
}
