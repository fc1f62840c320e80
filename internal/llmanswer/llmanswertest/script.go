// Package llmanswertest scripts the fake provider (llm/llmtest) for the answer pipeline's
// prompts: it tells the sub-calls apart and answers each like a well-behaved model, with
// known token counts, unless a test overrides a sub-call. Tests of llmanswer, of the HTTP
// API and the cost benchmark share it.
package llmanswertest

import (
	"regexp"
	"strings"

	"svc/internal/llm/llmtest"
)

// SubCall tells which sub-call a recorded call was, by its system prompt: "plan", "reply",
// "check", "summary", or "?".
func SubCall(c llmtest.Call) string {
	switch {
	case strings.HasPrefix(c.System, "You prepare"):
		return "plan"
	case strings.HasPrefix(c.System, "You are the customer assistant"):
		return "reply"
	case strings.HasPrefix(c.System, "You check"):
		return "check"
	case strings.HasPrefix(c.System, "Update the running summary"):
		return "summary"
	}
	return "?"
}

// Usage is the token usage the script reports per sub-call: {input, output}.
var Usage = map[string][2]int{"plan": {310, 42}, "reply": {1210, 88}, "check": {1105, 7}, "summary": {505, 61}}

// Script answers each sub-call; an override replaces the well-behaved answer of its
// sub-call.
type Script map[string]func(llmtest.Call) llmtest.Step

// Step is the llmtest script function.
func (s Script) Step(c llmtest.Call) llmtest.Step {
	kind := SubCall(c)
	if f, ok := s[kind]; ok && f != nil {
		return f(c)
	}
	u := Usage[kind]
	st := llmtest.Step{InputTokens: u[0], OutputTokens: u[1]}
	switch kind {
	case "plan":
		st.Text = `{"standalone": "` + strings.ReplaceAll(Question(c), `"`, `'`) + `", "queries": [], "answerable": true}`
	case "reply":
		st.Text = Faithful(c)
	case "check":
		st.Text = `{"supported": true}`
	case "summary":
		st.Text = "Visitor asked about delivery."
	}
	return st
}

// Question is the text of the prompt's <question> fence.
func Question(c llmtest.Call) string {
	if len(c.Messages) == 0 {
		return ""
	}
	body := c.Messages[0].Content
	i := strings.Index(body, "<question>\n")
	j := strings.Index(body, "\n</question>")
	if i < 0 || j < i {
		return ""
	}
	return body[i+len("<question>\n") : j]
}

var (
	passage1 = regexp.MustCompile(`(?s)\[1\] [^\n]*\n(.*?)(?:\n\[2\] |\n</kb>)`)
	sentence = regexp.MustCompile(`[.!?]\s+`)
)

// Faithful answers like a grounded model: the sentence of passage 1 that holds a figure and
// shares the most words with the question, citing it; NO_ANSWER without passages.
func Faithful(c llmtest.Call) string {
	if len(c.Messages) == 0 {
		return "NO_ANSWER"
	}
	m := passage1.FindStringSubmatch(c.Messages[0].Content)
	if m == nil {
		return "NO_ANSWER"
	}
	q := words(Question(c))
	best, bestN := "", -1
	for _, p := range sentence.Split(m[1], -1) {
		n := 0
		for w := range words(p) {
			if q[w] {
				n++
			}
		}
		if strings.ContainsAny(p, "0123456789") {
			n += 100 // a fact beats a restated question
		}
		if n > bestN {
			best, bestN = p, n
		}
	}
	return strings.TrimRight(best, ".") + ". [1]"
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(s)) {
		out[strings.Trim(w, ",.?!:;")] = true
	}
	return out
}
