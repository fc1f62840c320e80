package grounding

// The kinds of Claim. Callers may count removals by kind; the guard's own finer kinds
// (a bare number, a date, an e-mail address) are reported under the nearest of these.
const (
	KindPrice    = "price"    // an amount of money
	KindPercent  = "percent"  // a percentage
	KindDiscount = "discount" // a discount or promotion, with or without a number
	KindQuantity = "quantity" // a number with a unit, a bare number, a date or a time
	KindProduct  = "product"  // a product name or model token
	KindFeature  = "feature"  // a feature or superlative (free shipping, warranty, "#1")
	KindURL      = "url"      // a link or an e-mail address
)

// Kinds the guard tells apart internally: each is supported by its own part of the index.
const (
	kindNumber = "number" // a number with nothing after it
	kindDate   = "date"
	kindTime   = "time"
	kindEmail  = "email"
	kindFamily = "family" // a concept: discount, free shipping, warranty...
)

// fact is one checkable statement found in a text. In generated text it is a claim that needs
// support; in the sources it is what supports one. The same scanners read both, so a fact is
// supported exactly when the sources state the same fact the same way the guard reads it.
type fact struct {
	kind   string
	text   string    // the words that state it, as written
	values []float64 // the amount; in the base unit for a quantity; several when ambiguous
	cur    string    // price: currency code, "" when not written
	unit   string    // quantity: base unit
	family string    // concept family
	key    string    // url, e-mail, date or time in compared form
}

// claim turns an unsupported fact into what Clean reports.
func (f fact) claim() Claim {
	kind := f.kind
	switch f.kind {
	case kindNumber, kindDate, kindTime:
		kind = KindQuantity
	case kindEmail:
		kind = KindURL
	case kindFamily:
		kind = familyKind(f.family)
	}
	return Claim{Kind: kind, Text: f.text}
}
