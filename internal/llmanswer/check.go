package llmanswer

import (
	"context"
	"encoding/json"
	"fmt"

	"svc/internal/llm"
	"svc/internal/prompt"
)

// check asks the small model whether every claim of the reply is supported by the context.
// An unreadable verdict counts as "not supported": the check exists to fail closed.
func (e *Engine) check(ctx context.Context, c *kbContext, body string) (bool, llm.Response, error) {
	user := c.blocks() + prompt.Fence("reply", body)
	resp, err := e.llm.Complete(ctx, llm.Request{Model: e.opts.SmallModel, System: checkSystem(),
		Messages: []llm.Message{{Role: llm.RoleUser, Content: user}}, MaxTokens: e.opts.CheckTokens, JSON: true})
	if err != nil {
		return false, resp, fmt.Errorf("check: %w", err)
	}
	obj, ok := prompt.JSONObject(resp.Text)
	if !ok {
		return false, resp, nil
	}
	var v struct {
		Supported *bool `json:"supported"`
	}
	if json.Unmarshal([]byte(obj), &v) != nil || v.Supported == nil {
		return false, resp, nil
	}
	return *v.Supported, resp, nil
}
