package extract

import (
	"reflect"
	"testing"
)

func TestBreadcrumbs(t *testing.T) {
	const page = "https://shop.test/c/lamps/desk-lamp"
	for _, tc := range []struct {
		name, html string
		want       []Crumb
	}{
		{
			name: "json-ld out of order, item as string, object and missing",
			html: `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[
				{"@type":"ListItem","position":3,"name":"Desk Lamp"},
				{"@type":"ListItem","position":1,"name":"Home","item":"https://shop.test/"},
				{"@type":"ListItem","position":2,"item":{"@id":"/c/lamps","name":"Lamps &amp; Lights"}}]}</script>`,
			want: []Crumb{{"Home", "https://shop.test/"}, {"Lamps & Lights", "https://shop.test/c/lamps"}, {"Desk Lamp", ""}},
		},
		{
			name: "json-ld inside a graph wins over html",
			html: `<script type="application/ld+json">{"@graph":[{"@type":"WebPage","breadcrumb":{"@type":"BreadcrumbList","itemListElement":{"@type":"ListItem","position":1,"name":"Only","item":"/only"}}}]}</script>
				<ol class="breadcrumb"><li><a href="/">Home</a></li></ol>`,
			want: []Crumb{{"Only", "https://shop.test/only"}},
		},
		{
			name: "microdata with item links and nested things",
			html: `<ol itemscope itemtype="https://schema.org/BreadcrumbList">
				<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="/"><span itemprop="name">Startseite</span></a><meta itemprop="position" content="1"></li>
				<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" itemscope itemtype="https://schema.org/Thing" href="/c/lamps"><span itemprop="name">Lampen</span></a><meta itemprop="position" content="2"></li>
				<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><span itemprop="name">Schreibtischlampe</span><meta itemprop="position" content="3"></li></ol>`,
			want: []Crumb{{"Startseite", "https://shop.test/"}, {"Lampen", "https://shop.test/c/lamps"}, {"Schreibtischlampe", ""}},
		},
		{
			name: "nav aria-label with inline links and separators",
			html: `<nav aria-label="Breadcrumb"><span class="sr-only">You are here:</span><a href="/">Home</a> &raquo; <a href="/c/lamps">Lamps</a> <span aria-hidden="true">/</span> Desk Lamp</nav>`,
			want: []Crumb{{"Home", "https://shop.test/"}, {"Lamps", "https://shop.test/c/lamps"}, {"Desk Lamp", ""}},
		},
		{
			name: "bootstrap list with separator items and a label",
			html: `<div class="breadcrumbs"><ul><li>Buradasınız:</li><li><a href="/">Ana Sayfa</a></li><li class="separator">›</li><li><a href="#">Aydınlatma</a></li><li>/</li><li class="active">Masa Lambası</li></ul></div>`,
			want: []Crumb{{"Ana Sayfa", "https://shop.test/"}, {"Aydınlatma", ""}, {"Masa Lambası", ""}},
		},
		{
			name: "ol with class containing breadcrumb",
			html: `<ol class="c-breadcrumb-list"><li><a href="/">Start</a></li><li><a href="javascript:void(0)">Lampen</a></li></ol>`,
			want: []Crumb{{"Start", "https://shop.test/"}, {"Lampen", ""}},
		},
		{
			name: "a scheme without a host is no link",
			html: `<ol class="breadcrumb"><li><a href="http:">Start</a></li><li><a href="https:/c/lamps">Lampen</a></li></ol>`,
			want: []Crumb{{"Start", ""}, {"Lampen", ""}},
		},
		{
			name: "empty placeholder is skipped for the next trail",
			html: `<div class="breadcrumb"></div><nav aria-label="breadcrumbs"><a href="/">Home</a> / Lamp</nav>`,
			want: []Crumb{{"Home", "https://shop.test/"}, {"Lamp", ""}},
		},
		{
			name: "breadcrumb-item classes alone are not a trail",
			html: `<span class="breadcrumb-item">Loose</span><li class="breadcrumb">x</li>`,
		},
		{
			name: "no trail",
			html: `<nav aria-label="Main"><a href="/a">A</a></nav>`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Breadcrumbs(parse(t, "<html><body>"+tc.html+"</body></html>"), mustURL(t, page))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestCrumbCategory(t *testing.T) {
	p := draft{name: "Desk Lamp Aurora with USB Port", url: "https://shop.test/p/aurora"}
	const page = "https://shop.test/p/aurora?utm=x"
	for _, tc := range []struct {
		crumbs []Crumb
		want   string
	}{
		{[]Crumb{{"Home", "https://shop.test/"}, {"Lamps", "https://shop.test/c/lamps"}, {"Desk Lamp Aurora with USB Port", ""}}, "Lamps"},
		{[]Crumb{{"Home", "https://shop.test/"}, {"Lamps", "https://shop.test/c/lamps"}, {"Desk Lamp Aurora with…", "https://shop.test/x"}}, "Lamps"},
		{[]Crumb{{"Start", "https://shop.test/"}, {"Lamps", "https://shop.test/c/lamps"}, {"Aurora", "https://shop.test/p/aurora/"}}, "Lamps"},
		{[]Crumb{{"Lampen", "https://shop.test/c/lampen"}, {"Schreibtischlampen", "https://shop.test/c/lampen/schreib"}}, "Schreibtischlampen"},
		{[]Crumb{{"Ana Sayfa", "https://shop.test/"}, {"Desk Lamp Aurora with USB Port", ""}}, ""},
		{[]Crumb{{"Home", ""}}, ""},
		{nil, ""},
	} {
		if got := crumbCategory(tc.crumbs, p, page); got != tc.want {
			t.Errorf("crumbCategory(%q) = %q, want %q", tc.crumbs, got, tc.want)
		}
	}
}
