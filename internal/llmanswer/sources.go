package llmanswer

import (
	"svc/internal/engine"
	"svc/internal/store"
)

// sources names what the reply quotes, as the built-in engine does: the passages the model
// cited (the first is the one the source line names), then the product cards' pages. A reply
// that cites no passage names only its cards: the passages it was given are not all quoted.
func (c *kbContext) sources(cited []int, cards []engine.Card) []store.Source {
	var ids []int64
	for _, n := range cited {
		if n >= 1 && n <= len(c.passages) {
			ids = append(ids, c.passages[n-1].DocID)
		}
	}
	for _, cd := range cards {
		ids = append(ids, cd.DocID)
	}
	return engine.Sources(ids, c.passages, cards)
}
