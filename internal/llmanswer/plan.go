package llmanswer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/prompt"
)

// plan is the planner's reading of a message.
type plan struct {
	Standalone string   `json:"standalone"`
	Queries    []string `json:"queries"`
	Answerable bool     `json:"answerable"`
}

// Limits on what the planner may hand on: its output drives searches and the reply's
// question, so it is bounded like a visitor's message.
const (
	maxQueries    = 3
	maxQueryChars = 200
	maxPlanChars  = 600
	historyClip   = 300 // characters of one earlier message shown to the planner
)

// plan shows the planner the whole history the caller chose as the context window.
func (e *Engine) plan(ctx context.Context, req engine.Request) (plan, llm.Response, error) {
	var user strings.Builder
	if s := strings.TrimSpace(req.Summary); s != "" {
		user.WriteString(prompt.Fence("summary", s))
	}
	user.WriteString(prompt.Fence("history", renderHistory(req.History, len(req.History), historyClip)))
	user.WriteString(prompt.Fence("question", req.Question))
	resp, err := e.llm.Complete(ctx, llm.Request{Model: e.opts.SmallModel, System: planSystem(req.Lang),
		Messages: []llm.Message{{Role: llm.RoleUser, Content: user.String()}}, MaxTokens: e.opts.PlanTokens, JSON: true})
	if err != nil {
		return plan{}, resp, fmt.Errorf("plan: %w", err)
	}
	p, ok := readPlan(resp.Text, req.Question)
	if !ok {
		// An unreadable plan is not worth a second call: the raw message is a usable question.
		e.log.Info("planner output unreadable; using the message as is", "account", req.AccountID)
	}
	return p, resp, nil
}

// readPlan parses the planner's JSON leniently (a fenced or prefixed object is accepted) and
// bounds it. It falls back to the message itself.
func readPlan(text, question string) (plan, bool) {
	p := plan{Standalone: question, Answerable: true}
	obj, ok := prompt.JSONObject(text)
	if !ok {
		return p, false
	}
	var raw struct {
		Standalone string   `json:"standalone"`
		Queries    []string `json:"queries"`
		Answerable *bool    `json:"answerable"`
	}
	if err := json.Unmarshal([]byte(obj), &raw); err != nil {
		return p, false
	}
	if s := strings.TrimSpace(raw.Standalone); s != "" && utf8.RuneCountInString(s) <= maxPlanChars {
		p.Standalone = s
	}
	for _, q := range raw.Queries {
		q = strings.TrimSpace(q)
		if q != "" && utf8.RuneCountInString(q) <= maxQueryChars && len(p.Queries) < maxQueries {
			p.Queries = append(p.Queries, q)
		}
	}
	if raw.Answerable != nil {
		p.Answerable = *raw.Answerable
	}
	return p, true
}

// renderHistory lists the last n messages, each clipped, as "visitor:"/"assistant:" lines.
func renderHistory(h []engine.Turn, n, clip int) string {
	if len(h) > n {
		h = h[len(h)-n:]
	}
	var b strings.Builder
	for _, t := range h {
		who := "visitor"
		if t.Role == "assistant" {
			who = "assistant"
		}
		b.WriteString(who + ": " + engine.Clip(strings.Join(strings.Fields(t.Text), " "), clip) + "\n")
	}
	return b.String()
}
