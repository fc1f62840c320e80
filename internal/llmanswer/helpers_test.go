package llmanswer

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/demo/demotest"
	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
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

// subCall, script and usage are the shared script of the fake provider.
var (
	subCall = llmanswertest.SubCall
	usage   = llmanswertest.Usage
)

type script = llmanswertest.Script

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
	if _, err := st.ImportDocuments(context.Background(), a.ID, demotest.Docs(t)); err != nil {
		t.Fatal(err)
	}
	base, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Options{APIKey: "test-key", Script: s.Step})
	cfg := llm.Config{Provider: protocol, APIKey: "test-key", MaxRetries: 0, Timeout: 2 * time.Second}
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
