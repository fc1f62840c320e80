package grounding

import (
	"svc/internal/store"
	"svc/internal/variant"
)

// productPrice is one source product's name and the amounts its price is written as.
type productPrice struct {
	name   string
	values map[string]bool
}

// addProductPrice records what a product costs, for misattributed.
func (ix *index) addProductPrice(p store.Product) {
	pp := productPrice{name: p.Name, values: map[string]bool{}}
	for _, f := range scanAmounts(p.Price, ix.lang) {
		for _, v := range f.values {
			pp.values[key(v)] = true
		}
	}
	ix.products = append(ix.products, pp)
	ix.productNames = append(ix.productNames, p.Name)
}

// misattributed returns the prices of a sentence that are another product's: the sentence
// names products (variant.Named, so "Nova 12 Lite" names the Lite and not the Pro) and
// states a price that a product it does not name costs and none it names does. Each amount
// is in the sources, so the price check alone passes it; attached to the wrong variant it
// is still false ("The Nova 12 Lite costs 24.999 TL" when the Pro does).
func (g *Guard) misattributed(sentence string, facts []fact) []Claim {
	if len(g.ix.products) < 2 {
		return nil
	}
	named := variant.Named(sentence, g.ix.productNames)
	anyNamed := false
	for _, n := range named {
		anyNamed = anyNamed || n
	}
	if !anyNamed {
		return nil
	}
	var out []Claim
	for _, f := range facts {
		if f.kind != KindPrice {
			continue
		}
		mine, other := false, false
		for i, p := range g.ix.products {
			for _, v := range f.values {
				if p.values[key(v)] {
					mine = mine || named[i]
					other = other || !named[i]
				}
			}
		}
		if other && !mine {
			out = append(out, f.claim())
		}
	}
	return out
}
