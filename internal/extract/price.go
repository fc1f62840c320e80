package extract

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// amount is a price in ten-thousandths of a currency unit: exact for every price a shop
// shows, and comparable without float rounding.
type amount int64

const amountScale = 10000

// priceInfo is a price as structured data states it: a number, possibly read in more than
// one way ("1.299" is 1299 in Turkish but 1.299 by schema.org's rule), and a currency.
type priceInfo struct {
	vals []amount // the readings of the number, the likeliest first
	cur  string   // ISO 4217 code, "" when the data does not say
}

func (p priceInfo) ok() bool { return len(p.vals) > 0 }

// priceOcc is a price a reader can see on the page: its text and how it reads.
type priceOcc struct {
	text string
	vals []amount
	cur  string
}

// structuredPrice reads a price value from JSON-LD: a number, a numeric string in either
// decimal convention, or a string with a currency in it ("₺2.029,00").
func structuredPrice(v any) priceInfo {
	switch t := v.(type) {
	case json.Number:
		return priceInfo{vals: jsonNumberValues(string(t))}
	case float64:
		return priceInfo{vals: jsonNumberValues(strconv.FormatFloat(t, 'f', -1, 64))}
	case string:
		return priceText(t)
	case []any:
		for _, e := range t {
			if p := structuredPrice(e); p.ok() {
				return p
			}
		}
	case map[string]any:
		return structuredPrice(t["@value"])
	}
	return priceInfo{}
}

// jsonNumberValues reads a JSON number, exponent forms included; zero and negative prices
// are no price ("0" is how shops mark "ask for a price").
func jsonNumberValues(s string) []amount {
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || f <= 0 || f >= 1e13 {
			return nil
		}
		s = strconv.FormatFloat(f, 'f', 4, 64)
	}
	return positive(numberValues(s, true))
}

// priceText reads a price written as text (a microdata content attribute, a string in
// JSON-LD, an OpenGraph amount): the first number in it and any currency marker.
func priceText(s string) priceInfo {
	s = collapse(html.UnescapeString(s))
	var p priceInfo
	for i := 0; i < len(s); i++ {
		if p.cur == "" {
			if code, n := markerAt(s, i); n > 0 && !letterBefore(s, i) {
				p.cur = code
			}
		}
		if !p.ok() && isDigit(s[i]) && (i == 0 || !isDigit(s[i-1])) {
			end := numberEnd(s, i)
			p.vals = positive(numberValues(s[i:end], true))
			i = end - 1
		}
	}
	if !p.ok() {
		p.cur = ""
	}
	return p
}

func positive(vals []amount) []amount {
	out := vals[:0]
	for _, v := range vals {
		if v > 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isSep(c byte) bool { return c == '.' || c == ',' || c == '\'' }

// numberEnd returns the end of the number starting at s[i]: digits, and separators that are
// followed by a digit ("2.029,00", "1'299.00", "19.99").
func numberEnd(s string, i int) int {
	for i < len(s) {
		switch {
		case isDigit(s[i]):
			i++
		case isSep(s[i]) && i+1 < len(s) && isDigit(s[i+1]):
			i++
		default:
			return i
		}
	}
	return i
}

// numberValues reads a number written with thousands and decimal separators in any of the
// conventions shops use ("2.029,00", "2,029.00", "1'299.00", "2029.00", "1.299"). The last
// separator is the decimal one unless it repeats, is an apostrophe, or is the only separator
// with exactly three digits after it: then both readings are returned, the decimal reading
// first when dotDecimal and the separator is a dot (schema.org writes decimals with a dot).
func numberValues(run string, dotDecimal bool) []amount {
	if run == "" {
		return nil
	}
	last := strings.LastIndexAny(run, ".,'")
	if last < 0 {
		if a, ok := makeAmount(run, ""); ok {
			return []amount{a}
		}
		return nil
	}
	sep := run[last]
	intPart, frac := run[:last], run[last+1:]
	thousands := func() (amount, bool) {
		if !grouped(run) {
			return 0, false
		}
		return makeAmount(digitsOnly(run), "")
	}
	decimal := func() (amount, bool) {
		if strings.ContainsRune(intPart, rune(sep)) || (strings.IndexAny(intPart, ".,'") >= 0 && !grouped(intPart)) {
			return 0, false
		}
		return makeAmount(digitsOnly(intPart), frac)
	}
	var out []amount
	add := func(a amount, ok bool) {
		if ok {
			out = append(out, a)
		}
	}
	switch {
	case sep == '\'' || strings.Count(run, string(sep)) > 1:
		add(thousands())
	case len(frac) == 3 && strings.IndexAny(intPart, ".,'") < 0:
		if dotDecimal && sep == '.' {
			add(decimal())
			add(thousands())
		} else {
			add(thousands())
			add(decimal())
		}
	default:
		add(decimal())
	}
	return out
}

// grouped reports whether separators split run into thousands groups: 1–3 digits, then
// groups of exactly three.
func grouped(run string) bool {
	groups := strings.FieldsFunc(run, func(r rune) bool { return r == '.' || r == ',' || r == '\'' })
	if len(groups) < 2 || len(groups[0]) > 3 {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return strings.Count(run, ".")+strings.Count(run, ",")+strings.Count(run, "'") == len(groups)-1
}

func digitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// makeAmount builds an amount from its integer and fraction digits; prices beyond 13 integer
// digits are not prices.
func makeAmount(intDigits, frac string) (amount, bool) {
	if intDigits == "" && frac == "" {
		return 0, false
	}
	intDigits = strings.TrimLeft(intDigits, "0")
	if len(intDigits) > 13 {
		return 0, false
	}
	var a int64
	for i := 0; i < len(intDigits); i++ {
		if !isDigit(intDigits[i]) {
			return 0, false
		}
		a = a*10 + int64(intDigits[i]-'0')
	}
	var f int64
	for i := 0; i < 4; i++ {
		d := int64(0)
		if i < len(frac) {
			if !isDigit(frac[i]) {
				return 0, false
			}
			d = int64(frac[i] - '0')
		}
		f = f*10 + d
	}
	return amount(a*amountScale + f), true
}

// normCurrency maps what a shop writes in priceCurrency ("TRY", "TL", "₺", "eur") to an
// ISO 4217 code, or "" when it is not a currency.
func normCurrency(s string) string {
	s = strings.TrimSpace(s)
	switch strings.ToUpper(s) {
	case "TL", "YTL", "₺", "TRY":
		return "TRY"
	case "€", "EURO", "EUR":
		return "EUR"
	case "$", "US$", "USD":
		return "USD"
	case "£", "GBP":
		return "GBP"
	}
	if len(s) == 3 && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) || r > unicode.MaxASCII }) < 0 {
		return strings.ToUpper(s)
	}
	return ""
}

// markerAt recognises a currency marker starting at s[i]: the symbols and codes of the
// currencies the service's markets show (TL, ₺, TRY, €, EUR, $, USD, £, GBP, CHF). Letter
// markers must not run on into a word ("TLS" is no lira).
func markerAt(s string, i int) (code string, n int) {
	r := s[i:]
	for _, m := range [...]struct{ text, code string }{
		{"US$", "USD"}, {"USD", "USD"}, {"TRY", "TRY"}, {"EUR", "EUR"}, {"GBP", "GBP"},
		{"CHF", "CHF"}, {"TL", "TRY"}, {"₺", "TRY"}, {"€", "EUR"}, {"$", "USD"}, {"£", "GBP"},
	} {
		if !strings.HasPrefix(r, m.text) {
			continue
		}
		if isLetterByte(m.text[0]) && letterAt(r, len(m.text)) {
			continue
		}
		return m.code, len(m.text)
	}
	return "", 0
}

// markerBefore recognises a currency marker ending at s[j], returning where it starts; the
// longest marker wins ("US$" over "$").
func markerBefore(s string, j int) (code string, start int) {
	for k := max(0, j-3); k < j; k++ {
		if code, n := markerAt(s[:j], k); n > 0 && k+n == j {
			if isLetterByte(s[k]) && letterBefore(s, k) {
				continue
			}
			return code, k
		}
	}
	return "", -1
}

func isLetterByte(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

func letterBefore(s string, i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r)
}

// scanPrices finds every "number with a currency marker" in a collapsed text, before or
// after the number, with or without a space ("2.029,00 TL", "₺2.029,00", "$19.99",
// "619,90 €", "CHF 1'299.00", "19,– €"). When a number has a marker on both sides the
// adjacent one wins, then the side its currency is usually written on, so "$19.99 $24.99"
// reads as two dollar prices and "9,90 € 12,90 €" as two euro prices.
func scanPrices(s string) []priceOcc {
	var out []priceOcc
	used := 0 // text before this belongs to a price already found
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && isDigit(s[i-1])) {
			continue
		}
		start := i
		end := numberEnd(s, i)
		i = end - 1
		vals := numberValues(s[start:end], false)
		if len(vals) == 0 {
			continue
		}
		tail := end // German "19,–" and Swiss "19.-" mean whole units
		for _, d := range [...]string{",–", ",-", ".–", ".-"} {
			if strings.HasPrefix(s[end:], d) {
				tail = end + len(d)
				break
			}
		}
		sufCode, sufEnd, sufGap := "", -1, 0
		k := tail
		if k < len(s) && s[k] == ' ' {
			k, sufGap = k+1, 1
		}
		if k < len(s) {
			if code, n := markerAt(s, k); n > 0 {
				sufCode, sufEnd = code, k+n
			}
		}
		preCode, preStart, preGap := "", -1, 0
		k = start
		if k > 0 && s[k-1] == ' ' {
			k, preGap = k-1, 1
		}
		if code, at := markerBefore(s, k); at >= used {
			preCode, preStart = code, at
		}
		usePrefix := false
		switch {
		case preCode == "" && sufCode == "":
			continue
		case sufCode == "":
			usePrefix = true
		case preCode == "":
		case preGap != sufGap:
			usePrefix = preGap < sufGap
		default:
			usePrefix = preCode == "USD" || preCode == "GBP"
		}
		o := priceOcc{vals: vals}
		if usePrefix {
			o.text, o.cur = s[preStart:tail], preCode
			used = tail
		} else {
			if start > used && letterBefore(s, start) {
				continue // a number glued to a word ("A4 €", "X200 TL") is a code, not a price
			}
			o.text, o.cur = s[start:sufEnd], sufCode
			used = sufEnd
			i = sufEnd - 1
		}
		out = append(out, o)
	}
	return out
}

// priceIndex holds the prices a reader sees on a page, the ones inside price-labelled
// elements first so that a product's own price wins over a lookalike elsewhere, with an
// index by amount so a listing of many products does not rescan the page for each.
type priceIndex struct {
	occs     []priceOcc
	byAmount map[amount][]int // positions in occs, ascending
}

func newPriceIndex(occs []priceOcc) priceIndex {
	ix := priceIndex{occs: occs, byAmount: map[amount][]int{}}
	for i, o := range occs {
		for _, a := range o.vals {
			if list := ix.byAmount[a]; len(list) == 0 || list[len(list)-1] != i {
				ix.byAmount[a] = append(list, i)
			}
		}
	}
	return ix
}

// visiblePrices reads the page's prices in three passes: whole price-labelled elements (so a
// price split by markup, "2.029<sup>,00</sup> TL", reads as one), every text node, and every
// short element (for "<span>₺</span><span>2.029,00</span>" without a price class).
func visiblePrices(doc *html.Node) priceIndex {
	root := body(doc)
	var out []priceOcc
	walk(root, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		if unseen(n) {
			return false
		}
		if priceLabelled(n) {
			out = append(out, scanPrices(NodeText(n, 600))...)
		}
		return true
	})
	walk(root, func(n *html.Node) bool {
		if unseen(n) {
			return false
		}
		if n.Type == html.TextNode {
			out = append(out, scanPrices(collapse(n.Data))...)
		}
		return true
	})
	last := ""
	shortTexts(root, 60, func(t string) {
		if t != last {
			out = append(out, scanPrices(t)...)
			last = t
		}
	})
	return newPriceIndex(out)
}

// priceLabelled reports elements a theme marks as holding a price.
func priceLabelled(n *html.Node) bool {
	if strings.Contains(strings.ToLower(attr(n, "itemprop")), "price") {
		return true
	}
	return hasClassPart(n, "price", "fiyat", "preis")
}

// shortTexts calls fn with the text of every element whose whole text is at most limit
// bytes, bottom-up in one pass (so the cost stays linear however deep the page nests). It
// returns n's text and whether it fit.
func shortTexts(n *html.Node, limit int, fn func(string)) (string, bool) {
	var b strings.Builder
	fits := true
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if fits {
				b.WriteString(c.Data)
			}
		case html.ElementNode:
			if unseen(c) {
				continue
			}
			t, ok := shortTexts(c, limit, fn)
			if !ok {
				fits = false
			} else if fits {
				if blockLevel(c.DataAtom) {
					b.WriteByte(' ')
				}
				b.WriteString(t)
			}
		}
		if b.Len() > limit*4 {
			fits = false
		}
	}
	if !fits {
		return "", false
	}
	t := collapse(b.String())
	if len(t) > limit {
		return "", false
	}
	if n.Type == html.ElementNode && strings.IndexAny(t, "0123456789") >= 0 {
		fn(t)
	}
	return t, true
}

// find returns the page's text for a structured price: the first visible price that reads
// as the same amount in a compatible currency.
func (ix priceIndex) find(p priceInfo) (string, bool) {
	best := -1
	for _, a := range p.vals {
		for _, i := range ix.byAmount[a] {
			if best >= 0 && i >= best {
				break
			}
			if p.cur == "" || ix.occs[i].cur == p.cur {
				best = i
				break
			}
		}
	}
	if best < 0 {
		return "", false
	}
	return ix.occs[best].text, true
}

// displayPrice is the price text for a product: the page's own text when it shows the
// amount, else the amount formatted by its currency's convention (see formatPrice).
// Options come in order of preference; the first one the page shows wins.
func displayPrice(options []priceInfo, ix priceIndex, lang string) string {
	for _, p := range options {
		if !p.ok() {
			continue
		}
		if t, ok := ix.find(p); ok {
			return t
		}
	}
	for _, p := range options {
		if p.ok() {
			return formatPrice(p.vals[0], p.cur, lang)
		}
	}
	return ""
}

// formatPrice writes an amount the way shops in its currency do: TRY "2.029,00 TL", EUR
// "619,90 €", USD "$19.99", GBP "£19.99", other "19.99 CODE". Without a currency it writes
// the bare number in the page language's convention and adds none: a currency the page did
// not state would be invented.
func formatPrice(a amount, cur, lang string) string {
	switch cur {
	case "TRY":
		return formatNumber(a, '.', ',') + " TL"
	case "EUR":
		return formatNumber(a, '.', ',') + " €"
	case "USD":
		return "$" + formatNumber(a, ',', '.')
	case "GBP":
		return "£" + formatNumber(a, ',', '.')
	case "":
		if lang == "tr" || lang == "de" {
			return formatNumber(a, '.', ',')
		}
		return formatNumber(a, ',', '.')
	}
	return formatNumber(a, ',', '.') + " " + cur
}

// formatNumber writes two decimals, or up to four when the amount needs them.
func formatNumber(a amount, thousands, decimal byte) string {
	whole, frac := int64(a)/amountScale, int64(a)%amountScale
	digits := strconv.FormatInt(whole, 10)
	var b strings.Builder
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(thousands)
		}
		b.WriteByte(digits[i])
	}
	b.WriteByte(decimal)
	f := strconv.FormatInt(frac+amountScale, 10)[1:] // four digits, zero-padded
	if strings.HasSuffix(f, "00") {
		f = f[:2]
	} else {
		f = strings.TrimRight(f, "0")
	}
	b.WriteString(f)
	return b.String()
}
