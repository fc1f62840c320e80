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

// allowed is the guard's verdict on a reply sentence by sentence (see release), for what no
// grounded answer contains. On seen, the reply up to and including the sentence: a secret,
// the system prompt (its canary or rules), an instruction the reply repeats; these may span
// sentences, and a prefix holds a match only if the whole reply does. On the sentence: a
// number or link absent from the context.
func (e *Engine) allowed(seen, sentence string, c *kbContext) bool {
	low := strings.ToLower(seen)
	if secretRe.MatchString(seen) || strings.Contains(seen, e.canary) || strings.Contains(low, strings.ToLower(dataRule[:40])) ||
		instructionLike(seen) {
		return false
	}
	for _, n := range numberRe.FindAllString(sentence, -1) {
		if d := digitsOf(n); d != "" && !c.numbers[d] {
			return false
		}
	}
	for _, l := range linkRe.FindAllString(sentence, -1) {
		if !knownLink(strings.TrimRight(l, ".,;:!?"), c.links) {
			return false
		}
	}
	return true
}

// names keeps a Sales Mode sentence to the cards: what NameGuard leaves of it when it names
// products outside them ("" when nothing is left).
func (e *Engine) names(ctx context.Context, req engine.Request, sentence string, cards []engine.Card) (string, error) {
	named, err := engine.ProductsIn(ctx, e.kb, req.AccountID, sentence, req.Lang)
	if err != nil {
		return "", err
	}
	var others []engine.Card
	for _, n := range named {
		if !slices.ContainsFunc(cards, func(c engine.Card) bool { return c.DocID == n.DocID }) {
			others = append(others, n)
		}
	}
	g := engine.NameGuard{Lang: req.Lang, Max: len(cards), Others: others}
	kept, _ := g.Apply(sentence, cards)
	return strings.TrimSpace(kept), nil
}

func knownLink(l string, known []string) bool {
	for _, k := range known {
		if strings.TrimRight(k, ".,;:!?") == l {
			return true
		}
	}
	return false
}
