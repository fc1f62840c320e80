package extract

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const shopPage = "https://shop.test/p/lamp"

func TestProductsCases(t *testing.T) {
	for _, tc := range []struct {
		name, page, lang string
		want             []Product
	}{
		{
			name: "review before the product name stays the review's",
			page: `<div itemscope itemtype="https://schema.org/Product">
				<div itemprop="review" itemscope itemtype="https://schema.org/Review"><span itemprop="name">Love it</span></div>
				<div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Lumo</span></div>
				<h1 itemprop="name">Desk Lamp</h1>
				<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="39.00">$39.00</span><meta itemprop="priceCurrency" content="USD"></div>
			</div>`,
			lang: "en",
			want: []Product{{Name: "Desk Lamp", URL: shopPage, Price: "$39.00", Source: "microdata"}},
		},
		{
			name: "organisation and website only",
			page: `<script type="application/ld+json">{"@type":"Organization","name":"Lumo GmbH","url":"https://shop.test"}</script>
				<script type="application/ld+json">{"@type":"WebSite","name":"Lumo","url":"https://shop.test"}</script>`,
			lang: "de",
		},
		{
			name: "carousel without structured data",
			page: `<ul class="carousel"><li><a href="/p/a">Lamp A</a><span class="price">19,99 €</span></li><li><a href="/p/b">Lamp B</a><span class="price">29,99 €</span></li></ul>`,
			lang: "de",
		},
		{
			name: "og product without a price is not enough",
			page: `<meta property="og:type" content="product"><meta property="og:title" content="Desk Lamp">`,
			lang: "en",
		},
		{
			name: "og product with product tags but no price",
			page: `<meta property="og:type" content="product"><meta property="og:title" content="Desk Lamp"><meta property="product:availability" content="in stock">`,
			lang: "en",
			want: []Product{{Name: "Desk Lamp", URL: shopPage, Source: "opengraph"}},
		},
		{
			name: "jsonld and microdata with different url forms are one card",
			page: `<script type="application/ld+json">{"@type":"Product","name":"Desk Lamp","url":"https://www.shop.test/p/lamp/","offers":{"price":"39","priceCurrency":"EUR"}}</script>
				<div itemscope itemtype="http://schema.org/Product"><a itemprop="url" href="https://shop.test/p/lamp"><span itemprop="name">Desk  Lamp</span></a><span itemprop="category">Lampen</span></div>`,
			lang: "de",
			want: []Product{{Name: "Desk Lamp", URL: "https://www.shop.test/p/lamp/", Price: "39,00 €", Category: "Lampen", Source: "jsonld"}},
		},
		{
			name: "nameless product is dropped",
			page: `<script type="application/ld+json">{"@type":"Product","offers":{"price":"39","priceCurrency":"EUR"}}</script>`,
			lang: "de",
		},
		{
			name: "price without currency is formatted, not given a currency",
			page: `<script type="application/ld+json">{"@type":"Product","name":"Lamba","offers":{"price":"2029"}}</script>`,
			lang: "tr",
			want: []Product{{Name: "Lamba", URL: shopPage, Price: "2.029,00", Source: "jsonld"}},
		},
		{
			name: "zero price is no price",
			page: `<script type="application/ld+json">{"@type":"Product","name":"Lamba","offers":{"price":"0.00","priceCurrency":"TRY"}}</script><p>0,00 TL</p>`,
			lang: "tr",
			want: []Product{{Name: "Lamba", URL: shopPage, Source: "jsonld"}},
		},
		{
			name: "og does not fill a product of another name",
			page: `<meta property="og:type" content="product"><meta property="og:title" content="Floor Lamp"><meta property="product:price:amount" content="99"><meta property="product:price:currency" content="USD"><meta property="og:image" content="/f.jpg">
				<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Bulb E27</span></div>`,
			lang: "en",
			want: []Product{{Name: "Bulb E27", URL: shopPage, Source: "microdata"}},
		},
		{
			name: "same name, different urls: two cards",
			page: `<div itemscope itemtype="https://schema.org/Product"><a itemprop="url" href="/p/tee-white"><span itemprop="name">Tee</span></a></div>
				<div itemscope itemtype="https://schema.org/Product"><a itemprop="url" href="/p/tee-black"><span itemprop="name">Tee</span></a></div>`,
			lang: "en",
			want: []Product{
				{Name: "Tee", URL: "https://shop.test/p/tee-white", Source: "microdata"},
				{Name: "Tee", URL: "https://shop.test/p/tee-black", Source: "microdata"},
			},
		},
		{
			name: "page order across sources",
			page: `<div itemscope itemtype="https://schema.org/Product"><a itemprop="url" href="/p/first"><span itemprop="name">First</span></a></div>
				<script type="application/ld+json">{"@type":"Product","name":"Second","url":"/p/second"}</script>`,
			lang: "en",
			want: []Product{
				{Name: "First", URL: "https://shop.test/p/first", Source: "microdata"},
				{Name: "Second", URL: "https://shop.test/p/second", Source: "jsonld"},
			},
		},
		{
			name: "offer with itemOffered, entities and tags in the name",
			page: `<script type="application/ld+json">{"@type":"Offer","price":"19.90","priceCurrency":"EUR","itemOffered":{"@type":"Product","name":"<b>Tisch&shy;lampe</b> &amp; Schirm"}}</script><span class="preis">19,90&nbsp;€</span>`,
			lang: "de",
			want: []Product{{Name: "Tischlampe & Schirm", URL: shopPage, Price: "19,90 €", Source: "jsonld"}},
		},
		{
			name: "review page's itemReviewed is not on sale here",
			page: `<script type="application/ld+json">{"@type":"Review","name":"Great lamp","itemReviewed":{"@type":"Product","name":"Desk Lamp","offers":{"price":"39","priceCurrency":"USD"}}}</script>`,
			lang: "en",
		},
		{
			name: "breadcrumb category skips home and the product crumb",
			page: `<script type="application/ld+json">{"@type":"Product","name":"Desk Lamp","offers":{"price":"39","priceCurrency":"GBP"}}</script>
				<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/lighting">Lighting</a></li><li><a href="/lighting/desk">Desk Lamps</a></li><li>Desk Lamp</li></ol>`,
			lang: "en",
			want: []Product{{Name: "Desk Lamp", URL: shopPage, Price: "£39.00", Category: "Desk Lamps", Source: "jsonld"}},
		},
		{
			name: "a breadcrumb of only home gives no category",
			page: `<script type="application/ld+json">{"@type":"Product","name":"Desk Lamp"}</script>
				<nav aria-label="Breadcrumb"><a href="/">Startseite</a> › <span>Desk Lamp</span></nav>`,
			lang: "de",
			want: []Product{{Name: "Desk Lamp", URL: shopPage, Source: "jsonld"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Products(parse(t, "<html><body>"+tc.page+"</body></html>"), mustURL(t, shopPage), tc.lang)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestProductsDescription(t *testing.T) {
	long := strings.Repeat("Çok güzel bir lamba. ", 200)
	doc := parse(t, `<script type="application/ld+json">{"@type":"Product","name":"Lamba","description":"<p>`+long+`</p>"}</script>`)
	got := Products(doc, mustURL(t, shopPage), "tr")
	if len(got) != 1 {
		t.Fatalf("got %d products", len(got))
	}
	d := got[0].Description
	if n := len([]rune(d)); n > maxDescription+1 || n < maxDescription-200 {
		t.Errorf("description has %d runes, want about %d", n, maxDescription)
	}
	if strings.ContainsAny(d, "<>") || !strings.HasSuffix(d, "…") || !strings.HasPrefix(d, "Çok güzel") {
		t.Errorf("description not cleaned and cut: %q…%q", d[:40], d[len(d)-20:])
	}
}

func TestProductsNoPageURL(t *testing.T) {
	doc := parse(t, `<script type="application/ld+json">{"@type":"Product","name":"Lamp","url":"/p/lamp","image":"https://cdn.test/l.jpg"}</script>`)
	got := Products(doc, nil, "")
	want := []Product{{Name: "Lamp", URL: "/p/lamp", Image: "https://cdn.test/l.jpg", Source: "jsonld"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if Products(nil, nil, "") != nil || Breadcrumbs(nil, nil) != nil || FAQ(nil) != nil {
		t.Error("a nil document must give nothing")
	}
	if m := PageMeta(nil); m.OGType != "" || m.Types != nil {
		t.Error("a nil document must give empty metadata")
	}
}

// TestProductsReferenceGraph guards against @id references that would make the walk over
// JSON-LD exponential: every object refers to every other one, many levels deep.
func TestProductsReferenceGraph(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<script type="application/ld+json">{"@graph":[`)
	for i := 0; i < 20; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"@id":"#n` + string(rune('a'+i)) + `","@type":"WebPage","hasPart":[`)
		for j := 0; j < 20; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"@id":"#n` + string(rune('a'+j)) + `"}`)
		}
		b.WriteString(`],"mainEntity":{"@id":"#p"}}`)
	}
	refs := make([]string, 20)
	for i := range refs {
		refs[i] = `{"@id":"#o` + string(rune('a'+i)) + `"}`
	}
	list := "[" + strings.Join(refs, ",") + "]"
	for i := range refs {
		b.WriteString(`,{"@id":"#o` + string(rune('a'+i)) + `","@type":"AggregateOffer","offers":` + list + `}`)
	}
	b.WriteString(`,{"@id":"#p","@type":"Product","name":"Lamp","offers":` + list + `}]}</script>`)
	done := make(chan []Product, 1)
	go func() { done <- Products(parse(t, b.String()), mustURL(t, shopPage), "en") }()
	select {
	case got := <-done:
		if len(got) != 1 || got[0].Name != "Lamp" {
			t.Errorf("got %+v, want the one product", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Products did not finish: references are walked more than once")
	}
}

// TestCorpusJSONLD checks that the repair step reads every JSON-LD block of the corpus that
// a person can read: only the unrendered template in unrecoverable_en.html is given up.
func TestCorpusJSONLD(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "products", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := parse(t, string(b))
		scripts := 0
		walkScripts(doc, func() { scripts++ })
		decoded := len(readLD(doc).blocks)
		want := scripts
		if filepath.Base(path) == "unrecoverable_en.html" {
			want = scripts - 1
		}
		if decoded != want {
			t.Errorf("%s: %d of %d JSON-LD blocks decoded, want %d", filepath.Base(path), decoded, scripts, want)
		}
	}
}
