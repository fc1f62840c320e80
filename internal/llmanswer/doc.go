// Package llmanswer is the model-backed answer engine: the answer path SERVICE.md describes,
// with a planning sub-call (a follow-up turned into a standalone question and search queries,
// and whether the knowledge base can answer it at all), the main reply grounded only in the
// retrieved passages and product cards, a quality check of the reply against them, and the
// context summary.
//
// Retrieval, Sales Mode's product cards and the offline answer come from the built-in engine:
// the model writes and checks, it never searches. When the provider fails, the reply is the
// built-in engine's and nothing is charged (Answer.Degraded).
//
// Everything that reaches a prompt from a web page, a product or a visitor is data: it is
// fenced in tags the text itself cannot close, sentences of KB text that read as instructions
// to an assistant are dropped before they are sent, and the reply is checked for what an
// obeyed injection would produce (a secret, the system prompt, a link or number from nowhere)
// before the model check sees it.
package llmanswer
