package kb

import "svc/internal/store"

// CuratedAnswer builds the curated Q&A entry that answers a reviewed question: the
// reviewer's answer attached to the question as the visitor asked it, in lang ("" detects
// it). Every way of answering a review item (the CLI's `review answer`, the dashboard's
// review page) builds the entry here, so that it follows the import format's rules for a qa
// record (trimmed fields, length caps, language) and matches the visitor's question later.
func CuratedAnswer(question, answer, lang string) (store.Document, error) {
	rec := Record{Type: TypeQA, Question: question, Answer: answer, Lang: lang}
	if err := Validate(&rec); err != nil {
		return store.Document{}, lineErrOf(0, err)
	}
	return Build(rec)
}
