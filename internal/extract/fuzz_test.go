package extract

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// FuzzProducts holds every exported function to its promise on any page: no panic, and no
// product without a name, a known source, or a price without a digit. The seeds (the test
// corpus and small broken pages) run as part of `go test`;
// `go test -fuzz FuzzProducts ./internal/extract` explores further.
func FuzzProducts(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "products", "*.html"))
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(string(b))
		}
	}
	for _, seed := range []string{
		"",
		"<",
		`<script type="application/ld+json">`,
		`<script type="application/ld+json">{"@type":"Product","name":"A","offers":{"price":"1.2.3,4","priceCurrency":"€"}}}}</script>`,
		`<script type="application/ld+json">[[[[[[{"@type":"Product","name":"x","offers":[{"offers":{"offers":{"price":1e400}}}]}]]]]]]</script>`,
		`<script type="application/ld+json">{"@id":"a","mainEntity":{"@id":"a"}}{"@id":"a","x":1,"mainEntity":{"@id":"a"}}</script>`,
		`<div itemscope itemtype="Product"><div itemprop="name offers" itemscope><span itemprop="price">₺</span></div></div>`,
		`<meta property="og:type" content="product"><meta property="og:title" content="İ | İ"><meta property="og:site_name" content="i̇"><meta property="product:price:amount" content="9e9999">`,
		`<nav aria-label="breadcrumb"><a href="%zz">x</a> › <a href="javascript:1">y</a></nav>`,
		`<span class="price">US$ TL € 1'2'3 ,– 99999999999999999999,99 TL</span>`,
		"<p>\x00\xff\xfe</p>",
	} {
		f.Add(seed)
	}
	page, _ := url.Parse("https://shop.test/p/x")
	f.Fuzz(func(t *testing.T, in string) {
		doc, err := html.Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, p := range Products(doc, page, "tr") {
			if p.Name == "" {
				t.Errorf("product without a name: %+v", p)
			}
			switch p.Source {
			case "jsonld", "microdata", "opengraph":
			default:
				t.Errorf("unknown source %q", p.Source)
			}
			if p.Price != "" && strings.IndexAny(p.Price, "0123456789") < 0 {
				t.Errorf("price without a digit: %q", p.Price)
			}
			if !strings.HasPrefix(p.URL, "http") {
				t.Errorf("product URL not absolute: %q", p.URL)
			}
			checkProduct(t, in, p)
		}
		Products(doc, nil, "")
		for _, c := range Breadcrumbs(doc, page) {
			if c.Name == "" || c.URL != "" && !absoluteHTTP(c.URL) {
				t.Errorf("crumb %+v without a name or with a link that is not absolute http(s)", c)
			}
		}
		for _, qa := range FAQ(doc) {
			if qa.Question == "" || qa.Answer == "" || qa.Question != collapse(qa.Question) || qa.Answer != collapse(qa.Answer) {
				t.Errorf("FAQ entry %+v empty or not collapsed", qa)
			}
		}
		PageMeta(doc)
	})
}

// FuzzDecodeLenient checks that repair never panics and never changes what valid JSON means.
func FuzzDecodeLenient(f *testing.F) {
	for _, seed := range []string{
		`{"a":1}`, `{"a":"b` + "\n" + `c",}`, `}}{{`, `<!-- {"a":[1,2,]} -->`, `{&quot;a&quot;:1}`,
		`"\u12`, `{"a":"\`, `[1,2}`, `{"a":{"b":1}},"c":2}`, `//`, `/*`, "\ufeff[]",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := decodeLenient(in)
		var strict any
		if !utf8.ValidString(in) || json.Unmarshal([]byte(in), &strict) != nil {
			return
		}
		if s := strings.TrimSpace(in); s == "" || strings.HasPrefix(s, "<!--") || strings.HasPrefix(s, "<![CDATA[") || strings.ContainsRune(in, '\ufeff') {
			return
		}
		// Valid JSON comes back as it was (numbers kept as json.Number).
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			return
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("decodeLenient(%q) = %#v, want %#v", in, got, want)
		}
	})
}

// checkProduct holds one extracted product to what a product card and an answer show: text
// fields valid UTF-8 when the page is, collapsed, the description within its bound, links
// absolute http(s), and a price that reads back as a positive amount.
func checkProduct(t *testing.T, page string, p Product) {
	t.Helper()
	for _, s := range []string{p.Name, p.Price, p.Category, p.Description} {
		if utf8.ValidString(page) && !utf8.ValidString(s) {
			t.Errorf("product text %q is not UTF-8", s)
		}
		if s != collapse(s) {
			t.Errorf("product text %q is not collapsed", s)
		}
	}
	if utf8.RuneCountInString(p.Description) > maxDescription+1 {
		t.Errorf("description of %d characters", utf8.RuneCountInString(p.Description))
	}
	for _, u := range []string{p.URL, p.Image} {
		if u != "" && !absoluteHTTP(u) {
			t.Errorf("product link %q is not absolute http(s)", u)
		}
	}
	if p.Price != "" && !priceText(p.Price).ok() {
		t.Errorf("price %q does not read back as a positive amount", p.Price)
	}
}

func absoluteHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// FuzzJSONLD puts any text into a JSON-LD script of a product page, so the fuzzer works on the
// repair, @id references, @graph, offers and prices rather than on HTML. Whatever the script
// holds, every product keeps checkProduct's promises, and what decodeLenient returns
// round-trips: written back as JSON, it decodes to the same values.
func FuzzJSONLD(f *testing.F) {
	for _, seed := range []string{
		`{"@context":"https://schema.org","@type":"Product","name":"Kaçkar Bot","offers":{"@type":"Offer","price":"2029.00","priceCurrency":"TRY"}}`,
		`{"@graph":[{"@id":"#p","@type":["Product","Thing"],"name":"A","offers":{"@id":"#o"}},{"@id":"#o","price":12.345,"priceCurrency":"EUR"}]}`,
		`{"@type":"ProductGroup","name":"G","hasVariant":[{"@type":"Product","name":"G red","offers":[{"price":"0"},{"price":"19,90"}]}]}`,
		`{"@type":"Product","name":"24" Monitor","description":"<p>Line one<br>two &amp;amp; three</p>","image":["/i.jpg",{"url":"//cdn.test/j.png"}],"offers":{"priceSpecification":{"price":"1.299","priceCurrency":"₺"}}}`,
		`{"@type":"ItemList","itemListElement":[{"@type":"ListItem","position":1,"item":{"@type":"Product","name":"X","url":"javascript:1","offers":{"lowPrice":"5","highPrice":"9"}}}]}`,
		`{"@type":"Product","name":"broken",,"offers":{"price":"1e3",}} // comment`,
		`<!--{"@type":"Product","name":"wrapped","offers":{"price":-5}}-->`,
		`{&quot;@type&quot;:&quot;Product&quot;,&quot;name&quot;:&quot;entities&quot;}`,
		`{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Q?","acceptedAnswer":{"text":"<b>A</b>"}}]}`,
		`{"@type":"BreadcrumbList","itemListElement":[{"position":"2","name":"Boots","item":"/boots"},{"position":1,"name":"Home","item":{"@id":"/"}}]}`,
		`{"@id":"a","mainEntity":{"@id":"a"}}{"@id":"a","x":1,"mainEntity":{"@id":"a"}}`,
		`{"@type":"Product","name":"\ufeff\u200b","offers":{"price":{"@value":"99999999999999999"}}}`,
	} {
		f.Add(seed)
	}
	page, _ := url.Parse("https://shop.test/p/x")
	f.Fuzz(func(t *testing.T, script string) {
		vals := decodeLenient(script)
		if len(vals) > 0 {
			var b strings.Builder
			for _, v := range vals {
				out, err := json.Marshal(v)
				if err != nil {
					t.Fatalf("decodeLenient(%q) gave %#v, which does not encode: %v", script, v, err)
				}
				b.Write(out)
				b.WriteByte('\n')
			}
			// unwrapScript drops every U+FEFF, inside strings too; harmless, since collapse
			// drops it from any text we keep, but it breaks the round trip.
			if !strings.ContainsRune(b.String(), '\ufeff') {
				again := decodeLenient(b.String())
				if !reflect.DeepEqual(again, vals) {
					t.Fatalf("round trip of %q:\n got %#v\nwant %#v", b.String(), again, vals)
				}
			}
		}
		in := `<html><head><script type="application/ld+json">` + script + `</script></head><body><h1>Page</h1><span class="price">2.029,00 TL</span></body></html>`
		doc, err := html.Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, p := range Products(doc, page, "de") {
			if p.Name == "" {
				t.Errorf("product without a name: %+v", p)
			}
			checkProduct(t, in, p)
		}
		for _, qa := range FAQ(doc) {
			if qa.Question == "" || qa.Answer == "" {
				t.Errorf("empty FAQ entry %+v", qa)
			}
		}
		for _, c := range Breadcrumbs(doc, page) {
			if c.Name == "" || c.URL != "" && !absoluteHTTP(c.URL) {
				t.Errorf("crumb %+v", c)
			}
		}
	})
}

// FuzzPrice holds price reading to its promises on any text: every reading is positive and
// within 13 integer digits, a price found in running text is a piece of that text that reads
// back as the same amount, and a price we format (when the page shows none) parses back to
// the same amount (among its readings) and currency in every page language.
func FuzzPrice(f *testing.F) {
	for _, seed := range []string{
		"2.029,00 TL", "₺2.029,00", "$19.99 $24.99", "619,90 €", "CHF 1'299.00", "19,– €", "US$ 5",
		"9,90 € 12,90 €", "A4 € X200 TL", "TLS 100", "1.299", "12.345", "0,0001 €", "99999999999999,99 TL",
		"1.2.3,4 €", "&euro; 5", "£0", "€ 1.000.000", "GBP12", "1e3 USD", "\u00a0₺\u00a012,50",
	} {
		f.Add(seed)
	}
	maxAmount := amount(1e13 * amountScale)
	f.Fuzz(func(t *testing.T, s string) {
		p := priceText(s)
		for _, a := range p.vals {
			if a <= 0 || a >= maxAmount {
				t.Fatalf("priceText(%q) reads %d", s, a)
			}
		}
		if p.cur != "" && !p.ok() {
			t.Fatalf("priceText(%q): currency %q without an amount", s, p.cur)
		}
		text := collapse(s)
		for _, o := range scanPrices(text) {
			if !strings.Contains(text, o.text) || o.cur == "" || len(o.vals) == 0 {
				t.Fatalf("scanPrices(%q) found %+v", text, o)
			}
			// A "0 TL" on the page is kept as seen (no structured price matches it), so
			// only positive readings must read back; the conventions may come in another
			// order, since structured data prefers a decimal dot.
			if slices.ContainsFunc(o.vals, func(a amount) bool { return a < 0 }) {
				t.Fatalf("scanPrices(%q) found a negative amount: %+v", text, o)
			}
			if back := priceText(o.text); o.vals[0] > 0 && !slices.ContainsFunc(back.vals, func(a amount) bool { return slices.Contains(o.vals, a) }) {
				t.Fatalf("price %q found in %q reads %v, then back as %v", o.text, text, o.vals, back.vals)
			}
		}
		if !p.ok() {
			return
		}
		for _, cur := range []string{"TRY", "EUR", "USD", "GBP", "CHF", ""} {
			for _, lang := range []string{"tr", "de", "en"} {
				shown := formatPrice(p.vals[0], cur, lang)
				back := priceText(shown)
				// Three decimals in a comma-decimal currency ("0,125 €") also read as a
				// thousands group; the amount must be one of the readings.
				if !slices.Contains(back.vals, p.vals[0]) || back.cur != cur {
					t.Fatalf("formatPrice(%d, %q, %q) = %q, which reads back as %v %q", p.vals[0], cur, lang, shown, back.vals, back.cur)
				}
			}
		}
	})
}

// FuzzCleanText holds the cleaning of structured-data strings (tags, entities, both encoded
// twice) to its promises: collapsed text, valid UTF-8 when the input is, never much longer
// than the input; and truncation that keeps a prefix within its bound.
func FuzzCleanText(f *testing.F) {
	for _, seed := range []string{
		"&lt;p&gt;Text&amp;nbsp;mit&lt;br/&gt;Umbruch&lt;/p&gt;", "<p>a</p><p>b</p>", "<script>x</script>y<style>z",
		"<<a>b", "a <!-- c --> d <!-- e", "x < y > z", "&nGt;&bne;&#x110000;", "<P CLASS=x>Caps</P>", "\u00ad\u200bgizli",
	} {
		f.Add(seed, 20)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		got := cleanText(s)
		if got != collapse(got) {
			t.Fatalf("cleanText(%q) = %q: not collapsed", s, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("cleanText(%q) = %q: not UTF-8", s, got)
		}
		// "&nGt;" (5 bytes) is 6, an invalid byte becomes U+FFFD (3).
		if len(got) > 3*len(s) {
			t.Fatalf("cleanText grew %d bytes into %d", len(s), len(got))
		}
		if max < 1 || max > 5000 {
			return
		}
		cut := truncateText(got, max)
		if n := utf8.RuneCountInString(cut); n > max+1 {
			t.Fatalf("truncateText(%q, %d) = %q: %d characters", got, max, cut, n)
		}
		if base := strings.TrimSuffix(cut, "…"); !strings.HasPrefix(got, base) {
			t.Fatalf("truncateText(%q, %d) = %q: not a prefix", got, max, cut)
		}
	})
}
