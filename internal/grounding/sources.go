// Package grounding holds what generated text may be built from (Sources) and the guard that
// checks every generated field against it: a marketing brief or an Intelligence request
// describes intent only, so no price, discount, percentage, number with a unit, product
// name or feature may reach the output unless the knowledge-base passages or product data
// used say it.
//
// The guard reads generated text and the sources with the same scanners, so a claim is
// supported exactly when the sources state the same fact: amounts by value (1.299,90 TL is
// 1299.90 TL; 2 yıl is 24 months), features and promotions by concept family across tr, en
// and de (an English "discount" is supported by a Turkish "indirim"), product names by the
// names the sources give. It removes what it cannot support a sentence at a time, never
// patching one, so the rest reads as written. It knows words, not meaning: a negated or
// conditional statement in the sources ("no discount", "free shipping over 1.000 TL") still
// supports the concept.
package grounding

import "svc/internal/store"

// Passage is one piece of the knowledge base used for a generation.
type Passage struct {
	DocID int64
	Type  string // store.DocPage, DocQA, DocProduct, DocArticle
	Title string
	URL   string
	Text  string
	Lang  string
}

// Sources are the facts a generation may use: the passages retrieved for it and the
// products it may feature, all from the caller's own account (and site, when one was given).
type Sources struct {
	Business string // the account's name
	Passages []Passage
	Products []store.Product
	// ProductText holds, per product name, the description text of its document, so that a
	// feature of a product counts as supported.
	ProductText map[string]string
}

// Empty reports whether there is nothing to ground on.
func (s Sources) Empty() bool { return len(s.Passages) == 0 && len(s.Products) == 0 }

// Claim is something a guard removed: its kind (price, percent, discount, quantity,
// product, feature, url) and the words that made it.
type Claim struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}
