package llmanswer

import (
	"math"

	"svc/internal/engine"
)

// promptOverhead covers the tags, separators and per-message framing a provider adds.
const promptOverhead = 40

// Budget is the most one answer may cost in tokens, summed over the sub-calls it can make,
// plus the summary of fold when one is due: prompts are counted with the o200k tokenizer
// (times TokenMargin, as another provider's tokenizer may count more), the KB context at
// its cap, and outputs at their max_tokens. The caller reserves this before the first
// call, so the real charge, settled afterwards, stays within it.
func (e *Engine) Budget(req engine.Request, fold []engine.Turn) (in, out int) {
	count := e.base.CountTokens
	question := count(req.Question) + count(req.Summary)
	ctxCap := e.opts.ContextTokens + promptOverhead
	if needsPlan(req) {
		in += count(planSystem(req.Lang)) + count(renderHistory(req.History, len(req.History), historyClip)) + question + promptOverhead
		out += e.opts.PlanTokens
		question += maxPlanChars / 2 // the standalone question may be longer than the message
	}
	in += count(replySystem(req.Business, req.Lang, req.Tone, req.ToneCustom, e.canary)) + ctxCap + question +
		count(renderHistory(req.History, e.opts.HistoryMessages, historyClip)) + promptOverhead
	out += e.opts.ReplyTokens
	in += count(checkSystem()) + ctxCap + e.opts.ReplyTokens + promptOverhead
	out += e.opts.CheckTokens
	if len(fold) > 0 {
		in += count(summarySystem(req.Lang)) + count(req.Summary) + count(renderHistory(fold, len(fold), 2*historyClip)) + promptOverhead
		out += e.opts.SummaryTokens
		in += 2 * e.opts.SummaryTokens // the new summary goes into the plan and the reply
	}
	return int(math.Ceil(float64(in) * e.opts.TokenMargin)), out
}
