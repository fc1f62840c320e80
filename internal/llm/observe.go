package llm

import (
	"cmp"
	"context"
	"time"

	"svc/internal/remote"
)

// Observer is told of every completion (the service's metrics); the llm package knows
// nothing of how it is recorded.
type Observer interface {
	// ProviderCall reports one Complete: its time (retries and their waits included), the
	// tokens the provider reported, and ErrorKind of its error ("" on success).
	ProviderCall(provider, model string, d time.Duration, inputTokens, outputTokens int, errKind string)
}

// Observe wraps c so that every Complete is reported to o under provider and the request's
// model, or model (the client's default, filled in for the provider when empty) when the
// request names none. The labels are the configured names, never the provider's reply, so
// their number stays what the configuration says.
func Observe(c Client, provider, model string, o Observer) Client {
	if o == nil {
		return c
	}
	if model == "" {
		switch provider {
		case ProviderOpenAI:
			model = DefaultOpenAIModel
		case ProviderAnthropic:
			model = DefaultAnthropicModel
		}
	}
	return &observed{next: c, provider: provider, model: model, obs: o}
}

type observed struct {
	next            Client
	provider, model string
	obs             Observer
}

func (c *observed) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	resp, err := c.next.Complete(ctx, req)
	c.obs.ProviderCall(c.provider, cmp.Or(req.Model, c.model), time.Since(start), resp.InputTokens, resp.OutputTokens,
		remote.ErrorKind(err))
	return resp, err
}
