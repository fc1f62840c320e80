package extract

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func amt(whole, tenThousandths int64) amount { return amount(whole*amountScale + tenThousandths) }

func TestNumberValues(t *testing.T) {
	for _, tc := range []struct {
		in         string
		dotDecimal bool
		want       []amount
	}{
		{"2029", true, []amount{amt(2029, 0)}},
		{"2029.00", true, []amount{amt(2029, 0)}},
		{"2.029,00", true, []amount{amt(2029, 0)}},
		{"2,029.00", true, []amount{amt(2029, 0)}},
		{"1'299.00", false, []amount{amt(1299, 0)}},
		{"1'299", false, []amount{amt(1299, 0)}},
		{"19.99", false, []amount{amt(19, 9900)}},
		{"619,9", false, []amount{amt(619, 9000)}},
		{"1.299", true, []amount{amt(1, 2990), amt(1299, 0)}},
		{"1.299", false, []amount{amt(1299, 0), amt(1, 2990)}},
		{"1,299", true, []amount{amt(1299, 0), amt(1, 2990)}},
		{"1.234.567", false, []amount{amt(1234567, 0)}},
		{"1.234.567,89", false, []amount{amt(1234567, 8900)}},
		{"1234.567", false, []amount{amt(1234, 5670)}},
		{"0.125", true, []amount{amt(0, 1250), amt(125, 0)}},
		{"12.34.5", false, nil},
		{"12345678901234", false, nil},
	} {
		if got := numberValues(tc.in, tc.dotDecimal); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("numberValues(%q, %v) = %v, want %v", tc.in, tc.dotDecimal, got, tc.want)
		}
	}
}

func TestStructuredPrice(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want amount
		cur  string
	}{
		{json.Number("2029"), amt(2029, 0), ""},
		{json.Number("2029.00"), amt(2029, 0), ""},
		{json.Number("2.029e3"), amt(2029, 0), ""},
		{"2029.00", amt(2029, 0), ""},
		{"2.029,00", amt(2029, 0), ""},
		{"₺2.029,00", amt(2029, 0), "TRY"},
		{"2029 TL", amt(2029, 0), "TRY"},
		{"EUR 619.90", amt(619, 9000), "EUR"},
		{19.99, amt(19, 9900), ""},
		{[]any{"", "5"}, amt(5, 0), ""},
	} {
		p := structuredPrice(tc.in)
		if !p.ok() || p.vals[0] != tc.want || p.cur != tc.cur {
			t.Errorf("structuredPrice(%#v) = %+v, want %v %q", tc.in, p, tc.want, tc.cur)
		}
	}
	for _, in := range []any{json.Number("0"), "0.00", "", "Preis auf Anfrage", json.Number("-5"), nil, true} {
		if p := structuredPrice(in); p.ok() {
			t.Errorf("structuredPrice(%#v) = %+v, want no price", in, p)
		}
	}
}

func TestScanPrices(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"2.029,00 TL", []string{"2.029,00 TL"}},
		{"Fiyat: 2.029,00TL KDV dahil", []string{"2.029,00TL"}},
		{"₺2.029,00", []string{"₺2.029,00"}},
		{"$19.99 $24.99", []string{"$19.99", "$24.99"}},
		{"9,90 € 12,90 €", []string{"9,90 €", "12,90 €"}},
		{"2.499,00 TL2.029,00 TL", []string{"2.499,00 TL", "2.029,00 TL"}},
		{"CHF 1'299.00", []string{"CHF 1'299.00"}},
		{"ab 19,– € *", []string{"19,– €"}},
		{"US$ 49.00", []string{"US$ 49.00"}},
		{"3 x 676,33 TL taksit", []string{"676,33 TL"}},
		{"EUR 619,90", []string{"EUR 619,90"}},
		{"£1,299.00 inc. VAT", []string{"£1,299.00"}},
		{"128 GB, 6.1 inch, 20% off", nil},
		{"TLS 1.3 and A4 €", nil},
		{"Model X200 TL", nil},
	} {
		var got []string
		for _, o := range scanPrices(tc.in) {
			got = append(got, o.text)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("scanPrices(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatPrice(t *testing.T) {
	for _, tc := range []struct {
		a         amount
		cur, lang string
		want      string
	}{
		{amt(2029, 0), "TRY", "en", "2.029,00 TL"},
		{amt(619, 9000), "EUR", "de", "619,90 €"},
		{amt(19, 9900), "USD", "tr", "$19.99"},
		{amt(1299, 0), "USD", "en", "$1,299.00"},
		{amt(19, 9900), "GBP", "en", "£19.99"},
		{amt(1299, 5000), "CHF", "de", "1,299.50 CHF"},
		{amt(2029, 0), "", "tr", "2.029,00"},
		{amt(2029, 0), "", "en", "2,029.00"},
		{amt(0, 1250), "EUR", "de", "0,125 €"},
		{amt(1234567, 0), "TRY", "tr", "1.234.567,00 TL"},
	} {
		if got := formatPrice(tc.a, tc.cur, tc.lang); got != tc.want {
			t.Errorf("formatPrice(%v, %q, %q) = %q, want %q", tc.a, tc.cur, tc.lang, got, tc.want)
		}
	}
}

// TestDisplayPrice holds the rule that a price is shown as the page shows it: the same
// amount in a compatible currency, the price-labelled element first, the structured
// currency's convention only when the page shows no such text.
func TestDisplayPrice(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		price      priceInfo
		lang, want string
	}{
		{"turkish text", `<div class="product-price">2.029,00&nbsp;TL</div>`,
			priceInfo{vals: []amount{amt(2029, 0)}, cur: "TRY"}, "tr", "2.029,00 TL"},
		{"split markup", `<span class="fiyat">2.029<sup>,00</sup> <small>TL</small></span>`,
			priceInfo{vals: []amount{amt(2029, 0)}, cur: "TRY"}, "tr", "2.029,00 TL"},
		{"symbol in sibling span", `<div><span>₺</span><span>849,90</span></div>`,
			priceInfo{vals: []amount{amt(849, 9000)}, cur: "TRY"}, "tr", "₺849,90"},
		{"sale: old and new", `<del>1.899,90 TL</del> <ins>1.499,90 TL</ins>`,
			priceInfo{vals: []amount{amt(1499, 9000)}, cur: "TRY"}, "tr", "1.499,90 TL"},
		{"price class before body text", `<p>Vorher 619,90€ gespart</p><span class="preis">619,90 €*</span>`,
			priceInfo{vals: []amount{amt(619, 9000)}, cur: "EUR"}, "de", "619,90 €"},
		{"currency must agree", `<span class="price">19,99 €</span>`,
			priceInfo{vals: []amount{amt(19, 9900)}, cur: "USD"}, "en", "$19.99"},
		{"unknown currency accepts page's", `<span class="price">19,99 €</span>`,
			priceInfo{vals: []amount{amt(19, 9900)}}, "de", "19,99 €"},
		{"not shown: formatted", `<p>Contact us</p>`,
			priceInfo{vals: []amount{amt(2029, 0)}, cur: "TRY"}, "en", "2.029,00 TL"},
		{"script text is not shown", `<script>var p = "2.029,00 TL";</script>`,
			priceInfo{vals: []amount{amt(2029, 0)}, cur: "TRY"}, "tr", "2.029,00 TL"},
		{"ambiguous thousands", `<b>1.299 TL</b>`,
			priceInfo{vals: []amount{amt(1299, 0)}, cur: "TRY"}, "tr", "1.299 TL"},
		{"no amount", `<b>1.299 TL</b>`, priceInfo{}, "tr", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<html><body>" + tc.body + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			if got := displayPrice([]priceInfo{tc.price}, visiblePrices(doc), tc.lang); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
