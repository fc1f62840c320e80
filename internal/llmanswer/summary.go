package llmanswer

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/prompt"
)

// Summarize folds the turns leaving the context window into the conversation's summary with
// the small model. A provider failure falls back to the built-in extractive summary, which
// is charged like the built-in engine's reading, so the conversation never loses its
// memory to an outage.
func (e *Engine) Summarize(ctx context.Context, req engine.SummaryRequest) (engine.Summary, error) {
	var user strings.Builder
	if p := strings.TrimSpace(req.Previous); p != "" {
		user.WriteString(prompt.Fence("previous", p))
	}
	user.WriteString(prompt.Fence("turns", renderHistory(req.Turns, len(req.Turns), 2*historyClip)))
	resp, err := e.llm.Complete(ctx, llm.Request{Model: e.opts.SmallModel, System: summarySystem(req.Lang),
		Messages: []llm.Message{{Role: llm.RoleUser, Content: user.String()}}, MaxTokens: e.opts.SummaryTokens})
	if err != nil {
		if ctx.Err() != nil {
			return engine.Summary{}, fmt.Errorf("summary: %w", err)
		}
		e.log.Warn("model summary failed; extractive summary instead", "account", req.AccountID, "err", err)
		return e.base.Summarize(ctx, req)
	}
	text := strings.TrimSpace(resp.Text)
	if text == "" || secretRe.MatchString(text) || strings.Contains(text, e.canary) {
		return e.base.Summarize(ctx, req)
	}
	return engine.Summary{Text: engine.Clip(text, 2000), Calls: []engine.Call{{Name: "summary", Model: resp.Model,
		InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens}}}, nil
}
