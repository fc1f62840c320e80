package chat

import (
	"context"
	"errors"
	"fmt"

	"svc/internal/engine"
	"svc/internal/store"
)

// docSource names a document a reply is served from whole (a curated Q&A entry): its title,
// or its URL when it has none.
func docSource(d store.Document) []store.Source {
	return engine.Sources([]int64{d.ID}, []engine.Passage{{DocID: d.ID, Title: d.Title, URL: d.URL}}, nil)
}

// addCardSources appends the pages of the product cards attachCards gave a reply served
// from the cache or a curated entry, after the sources it already names, deduplicated and
// capped as engine.Sources does for a composed reply.
func addCardSources(reply *store.Message) {
	if len(reply.Products) == 0 {
		return
	}
	ids := make([]int64, 0, len(reply.Sources)+len(reply.Products))
	passages := make([]engine.Passage, 0, len(reply.Sources))
	cards := make([]engine.Card, 0, len(reply.Products))
	// Synthetic ids: the sources carry no document ids, and only their order matters here.
	for i, s := range reply.Sources {
		ids = append(ids, int64(i+1))
		passages = append(passages, engine.Passage{DocID: int64(i + 1), Title: s.Title, URL: s.URL})
	}
	for i, pr := range reply.Products {
		id := int64(len(reply.Sources) + i + 1)
		ids = append(ids, id)
		cards = append(cards, engine.Card{DocID: id, Product: pr})
	}
	reply.Sources = engine.Sources(ids, passages, cards)
}

// cachedSources are a cache entry's sources. An entry cached before sources were kept has
// none but its documents: they are named from the KB as it is now (at most MaxSources
// reads, once per such hit, until the question is answered anew); a document removed since
// is left out.
func (p *pending) cachedSources(ctx context.Context, e store.CacheEntry) ([]store.Source, error) {
	if len(e.Sources) > 0 || len(e.DocIDs) == 0 {
		return e.Sources, nil
	}
	var passages []engine.Passage
	for _, id := range e.DocIDs {
		if len(passages) == engine.MaxSources {
			break
		}
		d, err := p.svc.st.GetDocument(ctx, p.acct.ID, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("cached answer's sources: %w", err)
		}
		passages = append(passages, engine.Passage{DocID: d.ID, Title: d.Title, URL: d.URL})
	}
	return engine.Sources(e.DocIDs, passages, nil), nil
}
