package engine

import (
	"context"
	"strings"

	"svc/internal/kb"
)

// salesAnswer is Answer with Sales Mode on. A question that is not about products gets the
// plain reply and no cards. A question about products gets the products that match it as
// cards (see shelf). One with product wording (a listing, comparison, recommendation, price
// or stock question) is answered with those products and their prices, followed by the
// extracted sentences when they name no other product and say more than the cards; one
// without ("is the Kaçkar boot waterproof?") gets the extractive reply. Either way the text
// keeps only sentences that name carded products (NameGuard). When the pages hold no
// confident answer to a question with product wording but products fit, the products are
// the answer; a question without such wording ("is the tent waterproof?") then falls back
// as usual, since a list of products would not answer it.
func (e *Engine) salesAnswer(ctx context.Context, req Request, lg string, ph tonePhrases, r *retrieval,
	cands []candidate, ex extract) (Answer, error) {
	intent, strip, weak := readIntent(req.Question, lg)
	sh, err := e.shelf(ctx, req.AccountID, req.Question, lg, intent, weak, strip, r)
	if err != nil {
		return Answer{}, err
	}
	if ex.text != "" {
		sh.cite(r.ranked[0].hit, e.opts.MaxCards)
	}
	if len(sh.cards) == 0 || intent == 0 && ex.text == "" {
		if ex.text == "" {
			return e.fallback(req.Question, ph), nil
		}
		// No cards: a window's neighbour that names a product the shelf saw ("like our
		// Erciyes -5") leaves, so the reply names no product it does not card. The products
		// are the shelf's own, so this costs no search; when the guard would leave nothing,
		// the quote is the product's own page and stays.
		if seen := append(append([]Card(nil), sh.spare...), sh.others...); len(seen) > 0 {
			plain := NameGuard{Lang: lg, Others: seen}
			if body, _ := plain.Apply(ex.text, nil); body != "" && body != ex.text {
				ex.text = body
			}
		}
		return e.extractive(req.Question, lg, ph, r.ranked, cands, ex), nil
	}
	if ex.text != "" {
		named, err := ProductsIn(ctx, e.kb, req.AccountID, ex.text+"\n"+r.ranked[0].hit.Title, lg)
		if err != nil {
			return Answer{}, err
		}
		for _, c := range named {
			if !sh.known(c.DocID) {
				sh.others = append(sh.others, c)
			}
		}
	}
	guard := NameGuard{Lang: lg, Max: e.opts.MaxCards, Addable: sh.spare, Others: sh.others}
	cards := sh.cards
	var body, source string
	var docIDs []int64
	in := e.textTokens(req.Question)
	if ex.text != "" {
		in = e.readTokens(req.Question, r.ranked, ex)
	}
	switch {
	case ex.text != "" && intent == 0:
		body, cards = guard.Apply(ex.text, cards)
		if body != "" {
			body = ph.leadFor(req.Question, body) + " " + body
			source = sourceLine(lg, &r.ranked[0].hit)
			docIDs = append(docIDs, ex.docID)
		}
	case ex.text != "":
		strict := NameGuard{Lang: lg, Max: len(cards), Others: append(append([]Card(nil), sh.spare...), sh.others...)}
		if support, _ := strict.Apply(sh.support(ex, &r.ranked[0], e.rank.Soft), cards); support != "" {
			body = ListProducts(lg, listIntent(req.Question, lg, intent), cards) + "\n" + support
			source = sourceLine(lg, &r.ranked[0].hit)
			docIDs = append(docIDs, ex.docID)
		}
	}
	if body == "" {
		body = ListProducts(lg, listIntent(req.Question, lg, intent), cards)
	}
	text := body
	if source != "" {
		text += "\n" + source
	}
	text, cards = guard.Apply(text, cards)
	for _, c := range cards {
		if !containsID(docIDs, c.DocID) {
			docIDs = append(docIDs, c.DocID)
		}
		in += e.CountTokens(sh.texts[c.DocID])
	}
	return Answer{
		Text:         text,
		Confident:    true,
		DocIDs:       docIDs,
		Passages:     passages(cands),
		Cards:        cards,
		InputTokens:  in,
		OutputTokens: e.textTokens(text),
	}, nil
}

// ListProducts is the sentence that presents the cards: an opening in the question's
// language for what was asked, then every carded product with its price when known.
func ListProducts(lg string, intent Intent, cards []Card) string {
	intro, ok := productIntros[lg]
	if !ok {
		intro = productIntros["en"]
	}
	var open string
	switch {
	case intent.Has(IntentCompare):
		open = intro.compare
	case intent.Has(IntentRecommend):
		open = intro.recommend
	case intent.Has(IntentPrice) && pricedCards(cards):
		open = intro.price
	case intent.Has(IntentStock):
		open = intro.stock // says the shop carries them, not how many are left: it cannot know
	default:
		open = intro.list
	}
	items := make([]string, len(cards))
	for i, c := range cards {
		items[i] = c.Product.Name
		if c.Product.Price != "" {
			items[i] += " (" + c.Product.Price + ")"
		}
	}
	return open + " " + strings.Join(items, ", ") + "."
}

// pricedCards reports whether a card of the list has a price, so that "Here are the prices"
// is followed by one. A card's price is the product's own price field, no reading of text.
func pricedCards(cards []Card) bool {
	for _, c := range cards {
		if c.Product.Price != "" {
			return true
		}
	}
	return false
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// support returns the extracted sentences that may follow the list of products: only when
// the question had a subject, and they come from a carded product or from a passage that
// holds cardCoverage of the subject; a sentence that only repeats a card's facts (its name,
// category or price line) is left out, since the card shows them.
func (sh *shelf) support(ex extract, top *candidate, soft float64) string {
	if sh.catalog {
		return ""
	}
	if !hasDoc(sh.cards, ex.docID) {
		_, strength := sh.subject.termFreqs(strings.Fields(top.hit.Terms), soft)
		if sh.subject.total == 0 || sh.subject.strengthWeight(strength)/sh.subject.total < cardCoverage {
			return ""
		}
	}
	var kept []string
	for _, line := range strings.Split(ex.text, "\n") {
		if !sh.factLine(line) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// factLine reports whether a line of text is one a card already shows: a carded product's
// name or its price standing alone (a crawled product page shows the price on a line of its
// own, and the list before the support already says it), or a category or price line of the
// import's facts.
func (sh *shelf) factLine(line string) bool {
	line = strings.TrimSpace(line)
	for _, c := range sh.cards {
		if line == c.Product.Name || line != "" && line == strings.TrimSpace(c.Product.Price) {
			return true
		}
	}
	return kb.IsFactLine(line)
}
