package insights

type fixtureQuestion struct {
	lang, text string
	outcome    Outcome
	topic      string // the topic's key term it should be in ("" any)
}

// fixture is a shop's questions of a month in three languages, each marked with the topic
// it belongs to as a person would group them.
func fixture() []fixtureQuestion {
	a, d := Answered, Declined
	return []fixtureQuestion{
		{"tr", "Siparişim nerede?", a, "sipar"},
		{"tr", "Siparişimi iptal etmek istiyorum", a, "sipar"},
		{"tr", "Sipariş durumu", a, "sipar"},
		{"tr", "Siparişlerimi nasıl takip ederim", d, "sipar"},
		{"tr", "İade nasıl yapılır?", a, "iade"},
		{"tr", "İadesi ne kadar sürer", a, "iade"},
		{"tr", "Ürünü iade edebilir miyim?", d, "iade"},
		{"tr", "İadeyi nasıl yaparım", a, "iade"},
		{"tr", "Kargo ücreti ne kadar?", a, "kargo"},
		{"tr", "Kargom nerede", d, "kargo"},
		{"tr", "Kargoya verildi mi", a, "kargo"},
		{"tr", "Kapıda ödeme var mı?", a, "odeme"},
		{"tr", "Ödeme seçenekleri neler", a, "odeme"},
		{"tr", "Taksitle ödeyebilir miyim", d, "odeme"},
		{"tr", "Kredi kartı ile ödeme", a, "odeme"},
		{"tr", "Mağazanız İstanbul'da mı?", d, ""},
		{"en", "Where is my order?", a, "order"},
		{"en", "How do I track my order", a, "order"},
		{"en", "Can I cancel my order?", d, "order"},
		{"en", "Orders placed yesterday not shipped", a, ""},
		{"en", "How do I return an item?", a, "return"},
		{"en", "What is your return policy?", a, "return"},
		{"en", "Can I return shoes?", d, "return"},
		{"en", "Returning a gift", a, "return"},
		{"en", "How long does shipping take?", a, "ship"},
		{"en", "Do you ship to Austria?", d, "ship"},
		{"en", "Shipping costs to Germany", a, "ship"},
		{"en", "When will my delivery arrive", a, "deliv"},
		{"en", "Delivery times", a, "deliv"},
		{"en", "Was my package delivered?", d, "deliv"},
		{"en", "I want a refund", a, "refund"},
		{"en", "How do refunds work", a, "refund"},
		{"en", "Refunded yet?", d, "refund"},
		{"en", "Do you have a cardigan in red", d, ""},
		{"en", "Can I pay by card", a, ""},
		{"de", "Wo ist meine Bestellung?", a, "bestell"},
		{"de", "Bestellung stornieren", d, "bestell"},
		{"de", "Ich möchte meine Bestellungen ändern", a, "bestell"},
		{"de", "Wie lange dauert die Lieferung?", a, "liefer"},
		{"de", "Lieferzeit nach Österreich", a, "liefer"},
		{"de", "Wann wird geliefert?", d, "liefer"},
		{"de", "Rücksendung kostenlos?", a, "rucksend"},
		{"de", "Wie funktioniert die Rücksendung", a, "rucksend"},
		{"de", "Rücksendeadresse", d, "rucksend"},
		{"de", "Versandkosten in die Schweiz", a, "versand"},
		{"de", "Wie hoch sind die Versandkosten", d, "versand"},
		{"de", "Versand nach Italien", a, "versand"},
		{"de", "Kann ich mit Kreditkarte bezahlen?", a, "zahlung"},
		{"de", "Zahlung per Rechnung", a, "zahlung"},
		{"de", "Welche Zahlungsarten gibt es", d, "zahlung"},
	}
}
