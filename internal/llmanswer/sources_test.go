package llmanswer

import (
	"strings"
	"testing"

	"svc/internal/llm/llmtest"
)

// A model's reply names what it cited as data, the same document its source line names; a
// rejected reply (the fallback) and a degraded one answered by the built-in engine follow
// the same rule as everything else: sources only for a reply that quotes the KB.
func TestModelReplySourcesAreWhatItCited(t *testing.T) {
	f := newFixture(t, llmtest.ProtocolOpenAI, script{})
	a := f.ask("How long does delivery to Germany take?", "en")
	if !a.Confident || len(a.Sources) == 0 {
		t.Fatalf("confident %v, sources %+v", a.Confident, a.Sources)
	}
	lines := strings.Split(a.Text, "\n")
	last := lines[len(lines)-1]
	if s := a.Sources[0]; s.Title == "" || !strings.Contains(last, s.Title) || s.URL != "" && !strings.Contains(last, s.URL) {
		t.Fatalf("the first source %+v is not the source line %q", s, last)
	}

	rejected := newFixture(t, llmtest.ProtocolOpenAI, script{"check": func(llmtest.Call) llmtest.Step {
		return llmtest.Step{Text: `{"supported": false, "unsupported": ["days"]}`}
	}}).ask("How long does delivery to Germany take?", "en")
	if rejected.Confident || rejected.Sources == nil || len(rejected.Sources) != 0 {
		t.Fatalf("a rejected reply: confident %v, sources %#v", rejected.Confident, rejected.Sources)
	}

	degraded := newFixture(t, llmtest.ProtocolOpenAI, script{"reply": func(llmtest.Call) llmtest.Step {
		return llmtest.Step{Status: 500, Text: "boom"}
	}}).ask("How long does delivery to Germany take?", "en")
	if !degraded.Degraded || len(degraded.Sources) == 0 {
		t.Fatalf("the built-in engine's answer lost its sources: %+v", degraded)
	}
}
