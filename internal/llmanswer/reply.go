package llmanswer

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/prompt"
)

// replyPrompt is the user message of the reply sub-call.
func (e *Engine) replyPrompt(req engine.Request, pl plan, c *kbContext) string {
	var b strings.Builder
	if s := strings.TrimSpace(req.Summary); s != "" {
		b.WriteString(prompt.Fence("summary", s))
	}
	if h := renderHistory(req.History, e.opts.HistoryMessages, historyClip); h != "" {
		b.WriteString(prompt.Fence("history", h))
	}
	b.WriteString(c.blocks())
	q := req.Question
	if pl.Standalone != "" && pl.Standalone != req.Question {
		q = pl.Standalone
	}
	b.WriteString(prompt.Fence("question", q))
	return b.String()
}

// reply asks the model for the reply; onText, when set, streams it (see release).
func (e *Engine) reply(ctx context.Context, req engine.Request, pl plan, c *kbContext, onText func(string)) (string, llm.Response, error) {
	resp, err := e.llm.Complete(ctx, llm.Request{Model: e.opts.Model,
		System:   replySystem(req.Business, req.Lang, req.Tone, req.ToneCustom, e.canary),
		Messages: []llm.Message{{Role: llm.RoleUser, Content: e.replyPrompt(req, pl, c)}}, MaxTokens: e.opts.ReplyTokens,
		Temperature: 0.2, Stream: onText})
	if err != nil {
		return "", resp, fmt.Errorf("reply: %w", err)
	}
	return resp.Text, resp, nil
}

var citeRe = regexp.MustCompile(`\s*\[(\d{1,2})\]`)
