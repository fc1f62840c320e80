package extract

import (
	"reflect"
	"testing"
)

func TestPageMeta(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		want       Meta
	}{
		{
			name: "json-ld types in every form, microdata, og and description",
			html: `<html><head><meta name="Description" content="  Beste   Lampen &amp; Leuchten "><meta property="og:type" content="Product">
				<meta property="og:description" content="ignored while a meta description exists">
				<script type="application/ld+json">[{"@type":"http://schema.org/Product","offers":{"@type":"AggregateOffer"}},{"@graph":[{"@type":["WebPage","ItemPage"]},{"@type":"schema:BreadcrumbList"}]}]</script>
				<script type="application/ld+json">{"@type":"Product"}{"@type":"FAQPage","mainEntity":{"@type":"Question"}}</script>
				</head><body><div itemscope itemtype="https://schema.org/Article http://schema.org/NewsArticle"><span itemprop="author" itemscope itemtype="https://schema.org/Person"></span></div>
				<div itemscope itemtype="http://data-vocabulary.org/Breadcrumb"></div></body></html>`,
			want: Meta{
				Types:       []string{"Product", "AggregateOffer", "WebPage", "ItemPage", "BreadcrumbList", "FAQPage", "Question", "Article", "NewsArticle", "Person"},
				OGType:      "product",
				Description: "Beste Lampen & Leuchten",
			},
		},
		{
			name: "og description as fallback, no types",
			html: `<html><head><meta name="og:description" content="Sipariş ve kargo hakkında"><meta property="og:type" content=" website "></head><body><p>x</p></body></html>`,
			want: Meta{OGType: "website", Description: "Sipariş ve kargo hakkında"},
		},
		{
			name: "nothing declared",
			html: `<html><body><p>plain</p></body></html>`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PageMeta(parse(t, tc.html)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
