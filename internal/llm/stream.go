package llm

import (
	"sync"

	"svc/internal/tokencount"
)

// counter counts the tokens of a stream whose provider reported no usage.
var counter = sync.OnceValues(tokencount.O200kBase)

// countUsage fills in the usage of a streamed reply that came without one: a server that
// copies the OpenAI protocol may ignore stream_options.include_usage, and an answer charged
// by zero tokens would be free. The prompt and the reply are counted with o200k_base, the
// unit budgets are reserved in, as the engine counts its prompts.
func countUsage(r *Response, req Request) {
	c, err := counter()
	if err != nil {
		return // the embedded vocabulary always loads (tokencount's tests)
	}
	count := func(s string) int {
		n, _ := c.Count(s)
		return n
	}
	in := count(req.System)
	for _, m := range req.Messages {
		in += count(m.Content)
	}
	r.InputTokens, r.OutputTokens = in, count(r.Text)
}
