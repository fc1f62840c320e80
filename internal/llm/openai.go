package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"svc/internal/nultext"
	"svc/internal/remote"
)

// openAIClient speaks Chat Completions, the one protocol that OpenAI, Ollama, vLLM,
// llama.cpp and most gateways share; the newer Responses API is OpenAI's alone.
type openAIClient struct {
	post  *remote.Endpoint
	model string
}

func newOpenAI(cfg Config, now func() time.Time) *openAIClient {
	header := http.Header{}
	// Local servers (Ollama, llama.cpp) want no key, and get no Authorization header.
	if cfg.APIKey != "" {
		header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	return &openAIClient{post: endpoint(cfg, ProviderOpenAI, "chat/completions", header, remote.JSONErrorMessage, now), model: cfg.Model}
}

// openAIRequest is the body of POST /chat/completions.
type openAIRequest struct {
	Model    string          `json:"model"`
	Messages []openAIMessage `json:"messages"`
	// max_tokens, not max_completion_tokens: the servers that copy the protocol know the
	// older name, and the default model still accepts it.
	MaxTokens int `json:"max_tokens"`
	// Always sent, 0 included, so that no server's own default decides.
	Temperature    float64               `json:"temperature"`
	ResponseFormat *openAIResponseFormat `json:"response_format,omitempty"`
	// Stream asks for chunks; StreamOptions then asks for the usage in a last chunk, which
	// the account is charged by.
	Stream        bool                 `json:"stream,omitempty"`
	StreamOptions *openAIStreamOptions `json:"stream_options,omitempty"`
}

type openAIStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIResponseFormat struct {
	Type string `json:"type"`
}

// openAIResponse is the part of a chat completion that is read.
type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"` // null (a refusal, a tool call) reads as ""
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func (c *openAIClient) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, c.post.Failed(err)
	}
	body := c.body(req)
	if req.Stream != nil {
		return c.stream(ctx, req, body)
	}
	var out openAIResponse
	if err := c.post.Post(ctx, body, &out); err != nil {
		return Response{}, err
	}
	if len(out.Choices) == 0 {
		return Response{}, c.post.Failed(errors.New("response has no choices"))
	}
	choice := out.Choices[0]
	return Response{
		Text:         nultext.Strip(choice.Message.Content), // a stored reply holds no NUL (nultext)
		InputTokens:  out.Usage.PromptTokens,
		OutputTokens: out.Usage.CompletionTokens,
		Model:        cmp.Or(out.Model, body.Model),
		StopReason:   choice.FinishReason,
	}, nil
}

func (c *openAIClient) body(req Request) openAIRequest {
	system := req.System
	if req.JSON && !mentionsJSON(req) {
		system = withJSONInstruction(system)
	}
	msgs := make([]openAIMessage, 0, len(req.Messages)+1)
	if system != "" {
		msgs = append(msgs, openAIMessage{Role: "system", Content: system})
	}
	for _, m := range req.Messages {
		role := RoleUser
		if m.Role == RoleAssistant {
			role = RoleAssistant
		}
		msgs = append(msgs, openAIMessage{Role: role, Content: m.Content})
	}
	b := openAIRequest{
		Model:       cmp.Or(req.Model, c.model),
		Messages:    msgs,
		MaxTokens:   req.MaxTokens,
		Temperature: req.Temperature,
	}
	if req.JSON {
		b.ResponseFormat = &openAIResponseFormat{Type: "json_object"}
	}
	if req.Stream != nil {
		b.Stream, b.StreamOptions = true, &openAIStreamOptions{IncludeUsage: true}
	}
	return b
}

// openAIChunk is the part of a chat.completion.chunk that is read.
type openAIChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	// Error is what OpenAI and the servers copying it send when a stream fails after its
	// 200 answer.
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	} `json:"error"`
}

// stream reads a streamed completion: data chunks until "data: [DONE]", the usage in the
// last chunk before it.
func (c *openAIClient) stream(ctx context.Context, req Request, body openAIRequest) (Response, error) {
	var text strings.Builder
	out := Response{Model: body.Model}
	usage := false
	err := c.post.Stream(ctx, body, func(ev remote.Event) error {
		if string(ev.Data) == "[DONE]" {
			return remote.ErrStreamEnd
		}
		var ch openAIChunk
		if err := json.Unmarshal(ev.Data, &ch); err != nil {
			return c.post.Failed(fmt.Errorf("decode stream chunk: %w", err))
		}
		if ch.Error != nil {
			status := http.StatusBadRequest
			if ch.Error.Type == "server_error" || ch.Error.Type == "" {
				status = http.StatusInternalServerError
			}
			return c.post.EventError(status, ch.Error.Message)
		}
		out.Model = cmp.Or(ch.Model, out.Model)
		if ch.Usage != nil {
			usage = true
			out.InputTokens, out.OutputTokens = ch.Usage.PromptTokens, ch.Usage.CompletionTokens
		}
		for _, choice := range ch.Choices[:min(len(ch.Choices), 1)] {
			out.StopReason = cmp.Or(choice.FinishReason, out.StopReason)
			if piece := nultext.Strip(choice.Delta.Content); piece != "" {
				text.WriteString(piece)
				req.Stream(piece)
			}
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	out.Text = text.String()
	if !usage {
		countUsage(&out, req)
	}
	return out, nil
}
