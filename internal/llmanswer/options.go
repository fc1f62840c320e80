package llmanswer

// Options tune the engine. The zero value gives the defaults.
type Options struct {
	// Model writes the reply; SmallModel plans, checks and summarises. "" uses the client's
	// default model; SmallModel defaults to Model.
	Model, SmallModel string
	// ContextTokens caps the KB passages and product lines of one prompt. Default 1400.
	ContextTokens int
	// Passages is how many passages (one per document) a search for a planner's query, or
	// for a question the built-in engine found no answer to, offers. Default 4. A question it
	// answers brings the built-in answer's own passages (engine.Options.AnswerPassages).
	Passages int
	// Output caps per sub-call. Defaults: reply 300, plan 120, check 60, summary 220.
	ReplyTokens, PlanTokens, CheckTokens, SummaryTokens int
	// HistoryMessages is how many of the context's most recent messages the reply sees
	// verbatim; the planner sees the whole context window. Default 4.
	HistoryMessages int
	// TokenMargin multiplies counted prompt tokens in Budget, because a provider's tokenizer
	// may count more than o200k does. Default 1.25.
	TokenMargin float64
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.ContextTokens, 1400)
	def(&o.Passages, 4)
	def(&o.ReplyTokens, 300)
	def(&o.PlanTokens, 120)
	def(&o.CheckTokens, 60)
	def(&o.SummaryTokens, 220)
	def(&o.HistoryMessages, 4)
	if o.TokenMargin < 1 {
		o.TokenMargin = 1.25
	}
	if o.SmallModel == "" {
		o.SmallModel = o.Model
	}
	return o
}
