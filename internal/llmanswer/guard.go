package llmanswer

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"svc/internal/engine"
)

// secretRe matches what must never leave in a reply whatever the KB says: our own key and
// token forms, common provider key forms and private keys.
var secretRe = regexp.MustCompile(`svc_(pk|emb)_[A-Za-z0-9]{4,}|\bsk-[A-Za-z0-9_-]{16,}|-----BEGIN [A-Z ]*PRIVATE KEY-----`)

// guard checks a reply before the model check sees it, for what no grounded answer
// contains: a secret, the system prompt (its canary or rules), an instruction the reply
// repeats, a number or link absent from the context, and (Sales Mode) a product outside
// the cards. It may shorten the reply by sentences naming other products; ok is false when
// the reply must not be shown.
func (e *Engine) guard(ctx context.Context, req engine.Request, body string, c *kbContext) (string, []engine.Card, bool, error) {
	low := strings.ToLower(body)
	if secretRe.MatchString(body) || strings.Contains(body, e.canary) || strings.Contains(low, strings.ToLower(dataRule[:40])) ||
		instructionLike(body) {
		return "", nil, false, nil
	}
	for _, n := range numberRe.FindAllString(body, -1) {
		if d := digitsOf(n); d != "" && !c.numbers[d] {
			return "", nil, false, nil
		}
	}
	for _, l := range linkRe.FindAllString(body, -1) {
		if !knownLink(strings.TrimRight(l, ".,;:!?"), c.links) {
			return "", nil, false, nil
		}
	}
	cards := c.cards
	if req.SalesMode && len(cards) > 0 {
		named, err := engine.ProductsIn(ctx, e.kb, req.AccountID, body, req.Lang)
		if err != nil {
			return "", nil, false, err
		}
		var others []engine.Card
		for _, n := range named {
			if !slices.ContainsFunc(cards, func(c engine.Card) bool { return c.DocID == n.DocID }) {
				others = append(others, n)
			}
		}
		g := engine.NameGuard{Lang: req.Lang, Max: len(cards), Others: others}
		body, cards = g.Apply(body, cards)
		if strings.TrimSpace(body) == "" {
			return "", nil, false, nil
		}
	}
	return body, cards, true, nil
}

func knownLink(l string, known []string) bool {
	for _, k := range known {
		if strings.TrimRight(k, ".,;:!?") == l {
			return true
		}
	}
	return false
}
