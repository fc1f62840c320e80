package extract

import (
	"reflect"
	"testing"
)

func TestFAQ(t *testing.T) {
	for _, tc := range []struct {
		name, html string
		want       []QA
	}{
		{
			name: "json-ld single question, html answer",
			html: `<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":{"@type":"Question","name":"İade süresi nedir?","acceptedAnswer":{"@type":"Answer","text":"<p>Teslimattan itibaren <b>14&nbsp;gün</b>.</p><p>Kargo ücretsizdir.</p>"}}}</script>`,
			want: []QA{{"İade süresi nedir?", "Teslimattan itibaren 14 gün. Kargo ücretsizdir."}},
		},
		{
			name: "json-ld array, answer array, broken json, graph",
			html: `<script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":["FAQPage"],"mainEntity":[
				{"@type":"Question","name":"Q1","acceptedAnswer":[{"@type":"Answer","text":"A1
line two"}]},
				{"@type":"Question","name":"Q2","acceptedAnswer":{"@type":"Answer","text":""}},
				{"@type":"Question","name":"Q3","suggestedAnswer":{"@type":"Answer","text":"A3"}},
			]}]}</script>`,
			want: []QA{{"Q1", "A1 line two"}, {"Q3", "A3"}},
		},
		{
			name: "questions outside a FAQPage do not count",
			html: `<script type="application/ld+json">{"@type":"QAPage","mainEntity":{"@type":"Question","name":"Q","acceptedAnswer":{"text":"A"}}}</script>`,
		},
		{
			name: "microdata",
			html: `<div itemscope itemtype="https://schema.org/FAQPage">
				<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><h3 itemprop="name">Wie lange dauert der Versand?</h3>
				<div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><div itemprop="text"><p>1–3 Werktage.</p><ul><li>DHL</li><li>DPD</li></ul></div></div></div>
				<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><span itemprop="name">Ohne Antwort?</span></div></div>`,
			want: []QA{{"Wie lange dauert der Versand?", "1–3 Werktage. DHL DPD"}},
		},
		{
			name: "json-ld and microdata of the same FAQ give each question once",
			html: `<script type="application/ld+json">{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Do you ship abroad?","acceptedAnswer":{"@type":"Answer","text":"Yes, to the EU."}}]}</script>
				<div itemscope itemtype="https://schema.org/FAQPage"><div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><span itemprop="name">Do you ship  abroad?</span><div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><span itemprop="text">Yes, to the EU.</span></div></div>
				<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><span itemprop="name">Can I pay by invoice?</span><div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><meta itemprop="text" content="Yes, &lt;b&gt;after&lt;/b&gt; your first order."></div></div></div>`,
			want: []QA{{"Do you ship abroad?", "Yes, to the EU."}, {"Can I pay by invoice?", "Yes, after your first order."}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FAQ(parse(t, "<html><body>"+tc.html+"</body></html>"))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
