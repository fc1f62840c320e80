package extract

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
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
		}
		Products(doc, nil, "")
		Breadcrumbs(doc, page)
		FAQ(doc)
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
