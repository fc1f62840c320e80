package engine

import (
	"strings"
	"testing"
)

// A question that asks two things, a price and a time ("how much … how long"), is answered
// by two sections of a page: the second window goes to the section that holds the kind of
// answer the first one lacks, not to a later section that repeats the first one's words.
func TestTwoPartQuestionQuotesBothSections(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, title, body, question, want string
	}{
		{"tr", "Gönderim ve teslimat",
			"Hafta içi saat 15:00'e kadar gelen siparişler aynı gün paketlenir.\n\n" +
				"## Yurt içi teslimat\n\nYurt içinde her adrese teslimat 2–4 iş günü sürer. Büyük şehirlerde çoğu paket ertesi gün teslim edilir.\n\n" +
				"## Gönderim ücreti\n\nYurt içi gönderim ücreti 79,90 TL'dir. 1.200 TL ve üzeri siparişlerde gönderim ücretsizdir.\n\n" +
				"## Yurt dışı\n\n" +
				"- Fransa: teslimat 6–8 iş günü, gönderim ücreti 12,90 €.\n" +
				"- İsviçre: teslimat 8–11 iş günü, gönderim ücreti 19,90 €.\n" +
				"- Diğer ülkeler: teslimat 9–14 iş günü, gönderim ücreti 29,90 €.\n",
			"Gönderim ücreti ne kadar, kaç günde gelir?", "2–4 iş günü"},
		{"en", "Shipping and delivery",
			"Orders placed before 3 pm on a weekday are packed the same day.\n\n" +
				"## Domestic delivery\n\nDelivery to any address in the country takes 2–4 business days. In large cities most parcels arrive the next day.\n\n" +
				"## Shipping cost\n\nDomestic shipping costs $7.90. Orders of $120 or more ship free.\n\n" +
				"## Abroad\n\n" +
				"- France: delivery in 6–8 business days, shipping cost €12.90.\n" +
				"- Switzerland: delivery in 8–11 business days, shipping cost €19.90.\n" +
				"- Other countries: delivery in 9–14 business days, shipping cost €29.90.\n",
			"How much does shipping cost, and how long is delivery?", "2–4 business days"},
		{"de", "Versand und Lieferung",
			"Bestellungen bis 15 Uhr an Werktagen werden am selben Tag verpackt.\n\n" +
				"## Lieferung im Inland\n\nDie Lieferung an jede Adresse im Inland dauert 2–4 Werktage. In Großstädten kommen die meisten Pakete am nächsten Tag an.\n\n" +
				"## Versandkosten\n\nDer Versand im Inland kostet 6,90 €. Ab 120 € Bestellwert ist der Versand kostenlos.\n\n" +
				"## Ausland\n\n" +
				"- Frankreich: Lieferung in 6–8 Werktagen, Versand kostet 12,90 €.\n" +
				"- Schweiz: Lieferung in 8–11 Werktagen, Versand kostet 19,90 €.\n" +
				"- Andere Länder: Lieferung in 9–14 Werktagen, Versand kostet 29,90 €.\n",
			"Wie hoch sind die Versandkosten, und wie lange dauert die Lieferung?", "2–4 Werktage"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			e, acct := docsKB(t, Options{}, [3]string{c.title, c.body, c.lang})
			a := ask(t, e, acct, c.lang, c.question)
			if !strings.Contains(a.Text, c.want) {
				t.Errorf("%q: reply lacks %q:\n%s", c.question, c.want, a.Text)
			}
		})
	}
}

func TestSecondKind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, question string
		want           qtype
	}{
		{"tr", "Kargo ücreti ne kadar, kaç günde gelir?", askNumber},
		{"en", "How much does shipping cost, and how long is delivery?", askDuration},
		{"de", "Was kostet der Versand und wie lange dauert die Lieferung?", askNumber},
		{"en", "Who founded the company and when?", askPerson},              // "when" sets the first kind
		{"en", "How many people lived there when the war began?", askOther}, // a relative "when"
		{"tr", "Kargo ücreti ne kadar?", askOther},
		{"de", "Wie viele Tage und Stunden dauert es?", askOther}, // one question
	}
	for _, c := range cases {
		q := analyzeQuestion(c.question, c.lang)
		if q.kind2 != c.want {
			t.Errorf("%q: second kind %d, want %d (first %d)", c.question, q.kind2, c.want, q.kind)
		}
	}
}
