package llmanswer

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
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

func (e *Engine) reply(ctx context.Context, req engine.Request, pl plan, c *kbContext) (string, llm.Response, error) {
	resp, err := e.llm.Complete(ctx, llm.Request{Model: e.opts.Model,
		System:   replySystem(req.Business, req.Lang, req.Tone, req.ToneCustom, e.canary),
		Messages: []llm.Message{{Role: llm.RoleUser, Content: e.replyPrompt(req, pl, c)}}, MaxTokens: e.opts.ReplyTokens,
		Temperature: 0.2})
	if err != nil {
		return "", resp, fmt.Errorf("reply: %w", err)
	}
	return resp.Text, resp, nil
}

var citeRe = regexp.MustCompile(`\s*\[(\d{1,2})\]`)

// parseReply takes the citations off the reply and reports whether it is an answer at all
// (not NO_ANSWER, not empty).
func parseReply(text string) (body string, cited []int, ok bool) {
	text = strings.TrimSpace(text)
	if text == "" || strings.Contains(text, noAnswer) {
		return "", nil, false
	}
	for _, m := range citeRe.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(cited, n) {
			cited = append(cited, n)
		}
	}
	body = strings.TrimSpace(citeRe.ReplaceAllString(text, ""))
	return body, cited, body != ""
}
