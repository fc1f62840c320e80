package chat

import (
	"context"
	"fmt"
	"slices"

	"svc/internal/engine"
	"svc/internal/store"
	"svc/internal/variant"
)

// attachCards gives a reply served from this account's cache or its curated Q&A the product
// cards that Sales Mode asks for, without composing anything: the cards are the product
// documents the reply was drawn from (an engine answer lists its cards among its DocIDs),
// plus the stored products the reply's text names, so that a curated "we recommend the
// Kaçkar boot" carries that boot. A sentence naming a product that finds no room is removed
// (engine.NameGuard). Nothing happens with Sales Mode off, in a KB without products, or for a
// question that is not about products: one with product wording (engine.StrongIntent: "the
// best way to …" alone is none), or one that names the product the reply was drawn from
// first, in the variant the question writes (fitVariants).
func (p *pending) attachCards(ctx context.Context, reply *store.Message) error {
	if !p.acct.SalesMode {
		return nil
	}
	if ok, err := p.has(ctx, store.DocProduct); err != nil || !ok {
		return err
	}
	intent := engine.StrongIntent(p.text, p.lang)
	if len(reply.DocIDs) == 0 && intent == 0 {
		return nil
	}
	cards, err := p.storedCards(ctx, reply.DocIDs)
	if err != nil {
		return err
	}
	if intent == 0 {
		first := len(cards) > 0 && cards[0].DocID == reply.DocIDs[0]
		if !first || !engine.NamesProduct(p.text, p.lang, cards[0].Product) {
			return nil
		}
	}
	addable, others, err := p.namedProducts(ctx, reply.Body)
	if err != nil {
		return err
	}
	cards, addable, others = fitVariants(p.text, cards, addable, others)
	guard := engine.NameGuard{Lang: p.lang, Max: MaxProductCards, Addable: addable, Others: others}
	body, cards := guard.Apply(reply.Body, cards)
	if body == "" && len(cards) > 0 {
		body = engine.ListProducts(p.lang, engine.IntentList, cards)
	}
	if body != "" {
		reply.Body = body
	}
	reply.Products = productCards(cards)
	for _, c := range cards {
		if !containsID(reply.DocIDs, c.DocID) {
			reply.DocIDs = append(reply.DocIDs, c.DocID)
		}
	}
	return nil
}

// storedCards returns the product documents among docIDs, in their order, at most
// MaxProductCards, read in one query. A document removed since the answer was made is
// skipped.
func (p *pending) storedCards(ctx context.Context, docIDs []int64) ([]engine.Card, error) {
	if len(docIDs) == 0 {
		return nil, nil // an empty id list would select by language instead
	}
	hits, err := p.svc.st.Products(ctx, p.acct.ID, store.ProductQuery{DocIDs: docIDs, Limit: len(docIDs)})
	if err != nil {
		return nil, fmt.Errorf("product cards: %w", err)
	}
	byDoc := make(map[int64]store.ChunkHit, len(hits))
	for _, h := range hits {
		byDoc[h.DocID] = h
	}
	var cards []engine.Card
	for _, id := range docIDs {
		if h, ok := byDoc[id]; ok && len(cards) < MaxProductCards {
			cards = append(cards, engine.Card{DocID: id, Lang: h.Lang, Product: *h.Product})
		}
	}
	return cards, nil
}

// namedProducts returns the stored products the reply's text may name (engine.ProductsIn):
// those in the question's language may join the cards, the others may not, unless no
// product is in the question's language.
func (p *pending) namedProducts(ctx context.Context, body string) (addable, others []engine.Card, err error) {
	found, err := engine.ProductsIn(ctx, p.svc.st, p.acct.ID, body, p.lang)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range found {
		if c.Lang == p.lang || c.Lang == "" {
			addable = append(addable, c)
		} else {
			others = append(others, c)
		}
	}
	if len(addable) == 0 {
		return others, nil, nil
	}
	return addable, others, nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// fitVariants keeps the question's variant: products whose names its variant tokens exclude
// (variant.Fit over every product in play, so siblings are weighed together) leave the cards
// and the addable products for others, so that a reply carded with the Lite never shows the
// Pro, and a sentence naming the Pro is removed.
func fitVariants(question string, cards, addable, others []engine.Card) (c, a, o []engine.Card) {
	all := append(append(slices.Clip(cards), addable...), others...)
	names := make([]string, len(all))
	for i, x := range all {
		names[i] = x.Product.Name
	}
	fit := variant.Fit(question, names)
	o = slices.Clone(others)
	for i, x := range all[:len(cards)+len(addable)] {
		switch {
		case !fit[i]:
			o = append(o, x)
		case i < len(cards):
			c = append(c, x)
		default:
			a = append(a, x)
		}
	}
	return c, a, o
}
