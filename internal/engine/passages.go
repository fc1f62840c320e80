package engine

import "context"

// Passages retrieves the n best passages for text (a marketing brief, a topic, a question)
// without composing anything, one per document, best first. The marketing generator and the
// Intelligence API ground their output on them.
func (e *Engine) Passages(ctx context.Context, accountID int64, text, lang string, n int) ([]Passage, error) {
	lang = questionLang(lang, text)
	r, err := e.retrieve(ctx, accountID, text, lang, semWants{})
	if err != nil {
		return nil, err
	}
	return passages(bestPerDoc(r.ranked, n)), nil
}
