package llmanswer

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/kb"
	"svc/internal/llm"
	"svc/internal/llm/llmtest"
	"svc/internal/store/sqlite"
)

// fixture is the model-backed engine on a real store holding the demo KB, writing with a
// fake provider that speaks the real wire protocol over HTTP.
type fixture struct {
	t    *testing.T
	st   *sqlite.Store
	base *engine.Engine
	srv  *llmtest.Server
	eng  *Engine
	acct int64
}

// subCall tells which sub-call a recorded call was, by its system prompt.
func subCall(c llmtest.Call) string {
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

// script answers each sub-call; a nil entry answers like a faithful model.
type script map[string]func(llmtest.Call) llmtest.Step

// Known token counts of the faithful fake, so charges can be checked exactly.
var usage = map[string][2]int{"plan": {310, 42}, "reply": {1210, 88}, "check": {1105, 7}, "summary": {505, 61}}

func (s script) step(c llmtest.Call) llmtest.Step {
	kind := subCall(c)
	if f, ok := s[kind]; ok && f != nil {
		return f(c)
	}
	u := usage[kind]
	st := llmtest.Step{InputTokens: u[0], OutputTokens: u[1]}
	switch kind {
	case "plan":
		st.Text = `{"standalone": "` + lastVisitorQuestion(c) + `", "queries": [], "answerable": true}`
	case "reply":
		st.Text = faithfulReply(c)
	case "check":
		st.Text = `{"supported": true}`
	case "summary":
		st.Text = "Visitor asked about delivery."
	}
	return st
}

var passage1 = regexp.MustCompile(`(?s)\[1\] [^\n]*\n(.*?)(?:\n\[2\] |\n</kb>)`)

// faithfulReply answers with the sentence of passage 1 that shares the most words with the
// question, citing it: what a grounded model does.
func faithfulReply(c llmtest.Call) string {
	m := passage1.FindStringSubmatch(c.Messages[0].Content)
	if m == nil {
		return noAnswer
	}
	q := strings.Fields(strings.ToLower(lastVisitorQuestion(c)))
	best, bestN := "", -1
	for _, p := range regexp.MustCompile(`[.!?]\s+`).Split(m[1], -1) {
		n := 0
		for _, w := range strings.Fields(strings.ToLower(p)) {
			for _, x := range q {
				if strings.Trim(w, ",.?!:") == strings.Trim(x, ",.?!:") {
					n++
				}
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

func lastVisitorQuestion(c llmtest.Call) string {
	body := c.Messages[0].Content
	i := strings.Index(body, "<question>\n")
	j := strings.Index(body, "\n</question>")
	if i < 0 || j < i {
		return ""
	}
	return body[i+len("<question>\n") : j]
}

func newFixture(t *testing.T, protocol string, s script) *fixture {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	name := "Yolcu Outdoor"
	a, _, err := account.New(st, nil).Create(context.Background(), account.Settings{Name: &name})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kb.Import(context.Background(), st, a.ID, 0, demo.Reader()); err != nil {
		t.Fatal(err)
	}
	base, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Options{APIKey: "test-key", Script: s.step})
	cfg := llm.Config{Provider: protocol, APIKey: "test-key", MaxRetries: -1, Timeout: 2 * time.Second}
	if protocol == llmtest.ProtocolOpenAI {
		cfg.BaseURL = srv.OpenAIBaseURL()
	} else {
		cfg.BaseURL = srv.AnthropicBaseURL()
	}
	client, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	eng, err := New(client, base, st, Options{}, log)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, st: st, base: base, srv: srv, eng: eng, acct: a.ID}
}

func (f *fixture) ask(question, lg string, history ...engine.Turn) engine.Answer {
	f.t.Helper()
	a, err := f.eng.Answer(context.Background(), engine.Request{AccountID: f.acct, Question: question, Lang: lg,
		Business: "Yolcu Outdoor", SalesMode: true, History: history})
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// calls lists the sub-calls the fake received, in order.
func (f *fixture) calls() []string {
	var out []string
	for _, c := range f.srv.Calls() {
		out = append(out, subCall(c))
	}
	return out
}

func callNames(a engine.Answer) []string {
	var out []string
	for _, c := range a.Calls {
		out = append(out, c.Name)
	}
	return out
}

var protocols = []string{llmtest.ProtocolOpenAI, llmtest.ProtocolAnthropic}
