package extract

import (
	"reflect"
	"testing"
)

// TestMicrodataNesting holds the microdata rule that a property belongs to the nearest
// itemscope around it: names of brands, reviews, authors and offers never leak outward.
func TestMicrodataNesting(t *testing.T) {
	doc := parse(t, `<html itemscope itemtype="https://schema.org/WebPage"><head><title itemprop="name">Page title</title></head><body>
		<div itemscope itemtype="http://schema.org/Product" itemid="https://shop.test/p/kettle">
			<div itemprop="brand" itemscope itemtype="http://schema.org/Brand"><span itemprop="name">Brandname</span></div>
			<div itemprop="review" itemscope itemtype="http://schema.org/Review">
				<span itemprop="name">Review title</span>
				<span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Author</span></span>
			</div>
			<h1><span itemprop="name">Kettle</span></h1>
			<a itemprop="url" href="/p/kettle?ref=list">link</a>
			<div itemprop="offers" itemscope itemtype="http://schema.org/Offer">
				<meta itemprop="url" content="https://shop.test/offer-url">
				<span itemprop="price" content="49.90">49,90 €</span><meta itemprop="priceCurrency" content="EUR">
			</div>
			<img itemprop="image" src="data:image/gif;base64,AAAA" data-src="/img/kettle.jpg">
			<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Unrelated nested item</span></div>
		</div>
	</body></html>`)
	items := readMicrodata(doc)
	var names []string
	for _, it := range items {
		names = append(names, it.types[0]+":"+it.text("name"))
	}
	want := []string{"WebPage:Page title", "Product:Kettle", "Product:Unrelated nested item"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("top-level items %q, want %q", names, want)
	}
	prod := items[1]
	base := mustURL(t, "https://shop.test/c/kettles")
	if got := prod.link("url", base); got != "https://shop.test/p/kettle?ref=list" {
		t.Errorf("url = %q: the offer's url must not be the product's", got)
	}
	if got := prod.link("image", base); got != "https://shop.test/img/kettle.jpg" {
		t.Errorf("image = %q, want the lazy-loaded picture", got)
	}
	if n := len(prod.all("name")); n != 1 {
		t.Errorf("product has %d name properties, want 1", n)
	}
	brand := prod.all("brand")
	if len(brand) != 1 || brand[0].item == nil || brand[0].item.text("name") != "Brandname" {
		t.Errorf("brand not read as a nested item: %+v", brand)
	}
	d := mdProduct(prod, base)
	if d.name != "Kettle" || !d.hasPrice() || d.prices[0].vals[0] != amt(49, 9000) || d.prices[0].cur != "EUR" {
		t.Errorf("product draft = %+v", d)
	}
}

func TestMicrodataProductPlaces(t *testing.T) {
	doc := parse(t, `<body>
		<div itemscope itemtype="https://schema.org/ItemList">
			<div itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
				<div itemprop="item" itemscope itemtype="https://schema.org/Product"><span itemprop="name">Listed</span></div>
			</div>
		</div>
		<div itemscope itemtype="https://schema.org/WebPage">
			<div itemprop="mainEntity" itemscope itemtype="https://schema.org/Product"><span itemprop="name">Main</span>
				<div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product"><span itemprop="name">Related</span></div>
			</div>
			<div itemprop="about" itemscope itemtype="https://schema.org/Product"><span itemprop="name">About</span></div>
		</div>
		<div itemscope itemtype="https://schema.org/Review"><div itemprop="itemReviewed" itemscope itemtype="https://schema.org/Product"><span itemprop="name">Reviewed</span></div></div>
		<div itemprop="mainEntity" itemscope itemtype="https://schema.org/Product"><span itemprop="name">Orphan property</span></div>
	</body>`)
	var got []string
	for _, it := range mdProductItems(readMicrodata(doc)) {
		got = append(got, it.text("name"))
	}
	want := []string{"Listed", "Main", "Orphan property"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("products %q, want %q", got, want)
	}
}
