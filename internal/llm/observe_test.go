package llm

import (
	"context"
	"testing"
	"time"
)

type recorded struct {
	provider, model string
	in, out         int
	kind            string
}

type recorder struct{ calls []recorded }

func (r *recorder) ProviderCall(provider, model string, _ time.Duration, in, out int, kind string) {
	r.calls = append(r.calls, recorded{provider, model, in, out, kind})
}

type stubClient struct {
	resp Response
	err  error
}

func (s stubClient) Complete(context.Context, Request) (Response, error) { return s.resp, s.err }

func TestObserveReportsEveryCall(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	ok := Observe(stubClient{resp: Response{Text: "hi", InputTokens: 12, OutputTokens: 3, Model: "gpt-4o-mini-2024-07-18"}},
		ProviderOpenAI, "", rec)
	if _, err := ok.Complete(context.Background(), Request{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ok.Complete(context.Background(), Request{Model: "small"}); err != nil {
		t.Fatal(err)
	}
	bad := Observe(stubClient{err: &Error{Provider: ProviderAnthropic, Status: 503}}, ProviderAnthropic, "claude-x", rec)
	if _, err := bad.Complete(context.Background(), Request{}); err == nil {
		t.Fatal("the error was swallowed")
	}
	want := []recorded{
		// The configured name, never the provider's dated one: labels stay bounded.
		{ProviderOpenAI, DefaultOpenAIModel, 12, 3, ""},
		{ProviderOpenAI, "small", 12, 3, ""},
		{ProviderAnthropic, "claude-x", 0, 0, "server_error"},
	}
	if len(rec.calls) != len(want) {
		t.Fatalf("calls %+v", rec.calls)
	}
	for i := range want {
		if rec.calls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, rec.calls[i], want[i])
		}
	}
	if c := Observe(ok, ProviderOpenAI, "", nil); c != ok {
		t.Fatal("a nil observer wrapped the client")
	}
}
