package engine

import (
	"context"
	"strings"
	"testing"

	"svc/internal/store"
)

// TestLeadInNamesOnlyWhatTheQuoteHolds: a lead-in that names a kind of answer ("As for the
// timing:", "Zu den Kosten:", "Konumla ilgili bilgi şöyle:") stands only before a quote that
// holds an answer of that kind; the same question over a quote without one gets the general
// lead-in. The cases are those seen on sites the engine had never seen, each with a quote
// that holds the kind and one that does not.
func TestLeadInNamesOnlyWhatTheQuoteHolds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, question, quote string
		want                  leadKind
	}{
		// "Who started it, and when?" once got "As for the timing:" before an FAQ heading.
		{"en", "Who started it, and when?", "FAQ - General: Our team answers questions about orders and returns.", leadGeneral},
		{"en", "Who started it, and when?", "Kuzey Patika was founded in 2009 by two climbers.", leadWhen},
		// The Istanbul store's hours answer no question about the Ankara store.
		{"en", "When is the Ankara store open?", "Our Istanbul store is open Monday to Saturday 10:00–20:00.", leadGeneral},
		{"en", "When is the Istanbul store open?", "Our Istanbul store is open Monday to Saturday 10:00–20:00.", leadWhen},
		{"en", "When can I pick up my order?", "You can pick it up from 10:00 on the next working day.", leadWhen},
		{"en", "How much does shipping cost?", "Shipping costs 4.90 € within Germany.", leadPrice},
		{"en", "How much does shipping cost?", "Shipping is free on every order.", leadGeneral},
		{"en", "How long does delivery take?", "Delivery takes 2–4 business days.", leadDuration},
		{"en", "How long does delivery take?", "We ship every order with a tracking number.", leadGeneral},
		{"en", "Where is your store?", "Our store is on Moda Caddesi in Kadıköy.", leadPlace},
		{"en", "Where is your store?", "Our store welcomes you every day of the week.", leadGeneral},
		// A question of two parts names the part the quote answers.
		{"en", "How much is shipping, and how long does it take?", "Delivery takes 2 days.", leadDuration},
		{"en", "How much is shipping, and how long does it take?", "Shipping is $5.00 per order.", leadPrice},
		{"en", "How much is shipping, and how long does it take?", "We ship with a tracking number.", leadGeneral},

		{"de", "Was kostet der Versand?", "Der Versand kostet 4,90 €.", leadPrice},
		{"de", "Was kostet der Versand?", "Der Versand ist ab 50 Euro kostenlos.", leadPrice},
		{"de", "Was kostet der Versand?", "Der Versand ist kostenlos.", leadGeneral},
		{"de", "Wer hat die Firma gegründet, und wann?", "Die Firma wurde 2009 gegründet.", leadWhen},
		{"de", "Wer hat die Firma gegründet, und wann?", "Wir beantworten gern Fragen rund um Bestellungen.", leadGeneral},
		{"de", "Wo ist Ihr Geschäft?", "Unser Geschäft finden Sie in der Moda Caddesi.", leadPlace},
		{"de", "Wo ist Ihr Geschäft?", "Unser Geschäft hat täglich geöffnet.", leadGeneral},
		{"de", "Wie lange dauert der Versand und was kostet er?", "Der Versand kostet 4,90 €.", leadPrice},
		{"de", "Wie lange dauert der Versand und was kostet er?", "Der Versand dauert 3 Werktage.", leadDuration},

		// "Kim kurdu, hangi yılda?" once got "Gün ve saat bilgisi şöyle:" before no date.
		{"tr", "Şirketi kim kurdu, hangi yılda?", "Şirketimiz 2009 yılında kuruldu.", leadWhen},
		{"tr", "Şirketi kim kurdu, hangi yılda?", "Sık sorulan sorular: sipariş ve iade hakkında her şey.", leadGeneral},
		// "Konumla ilgili bilgi şöyle:" once stood before a passage that names no place.
		{"tr", "Mağazanız nerede?", "Mağazamız Kadıköy'de, Moda Caddesi üzerindedir.", leadPlace},
		{"tr", "Mağazanız nerede?", "mağazamız her gün hizmetinizdedir.", leadGeneral},
		{"tr", "Kargo ücreti ne kadar?", "Kargo ücreti 49,90 TL'dir.", leadPrice},
		{"tr", "Kargo ücreti ne kadar?", "Kargo ücretsizdir.", leadGeneral},
		{"tr", "Teslimat kaç gün sürer?", "Teslimat 2-4 iş günü sürer.", leadDuration},
		{"tr", "Teslimat kaç gün sürer?", "Teslimatı anlaşmalı kargo firmamız yapar.", leadGeneral},
	}
	for _, tc := range tests {
		if got := leadKindFor(tc.question, tc.quote, tc.lang); got != tc.want {
			t.Errorf("%s %q before %q: lead-in kind %s, want %s", tc.lang, tc.question, tc.quote, leadNames[got], leadNames[tc.want])
		}
		// What the visitor reads: a wording of that kind, in every tone.
		for _, tone := range []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic} {
			lead := phrasesFor(tc.lang, tone).leadFor(tc.question, tc.quote)
			if !endsWithOneOf(lead, replies.leads[tc.lang][tc.want]) {
				t.Errorf("%s %s %q before %q: lead-in %q is not of kind %s", tc.lang, tone, tc.question, tc.quote, lead, leadNames[tc.want])
			}
		}
	}
}

func endsWithOneOf(s string, ends []string) bool {
	for _, e := range ends {
		if s == e || strings.HasSuffix(s, " "+e) {
			return true
		}
	}
	return false
}

// TestReplyLeadInIsHonest asks a tiny KB in each language the observed questions and reads
// the whole reply: the kind its lead-in names is held by the quote after it, and the general
// lead-in stands where the quote holds no answer of the kind asked.
func TestReplyLeadInIsHonest(t *testing.T) {
	t.Parallel()
	e, acct, _ := salesKB(t, strings.Join([]string{
		`{"type":"page","url":"https://honest.example/en/stores","title":"Our stores","lang":"en","body":"Our Istanbul store is in Kadıköy, at Moda Caddesi 48. The Istanbul store is open Monday to Saturday from 10:00 to 20:00."}`,
		`{"type":"page","url":"https://honest.example/en/faq","title":"FAQ - General","lang":"en","body":"FAQ - General. Our team started answering questions about orders, returns and shipping by e-mail and phone."}`,
		`{"type":"page","url":"https://honest.example/de/versand","title":"Versand","lang":"de","body":"Der Versand innerhalb Deutschlands kostet 4,90 €. Ab einem Bestellwert von 50 € ist der Versand kostenlos."}`,
		`{"type":"page","url":"https://honest.example/de/kontakt","title":"Kontakt","lang":"de","body":"Unser Kundenservice beantwortet Fragen zu Bestellung und Rücksendung per E-Mail."}`,
		`{"type":"page","url":"https://honest.example/tr/hakkimizda","title":"Hakkımızda","lang":"tr","body":"Şirketimizi iki dağcı kurdu. Amacımız doğada güvenle yürümenizi sağlamak."}`,
		`{"type":"page","url":"https://honest.example/tr/magaza","title":"Mağazamız","lang":"tr","body":"Mağazamız hafta içi her gün müşterilerimizi ağırlar. Ürünleri mağazamızda deneyebilirsiniz."}`,
	}, "\n")+"\n")
	tests := []struct {
		lang, question string
		want           leadKind
	}{
		{"en", "When is the Istanbul store open?", leadWhen},
		{"en", "When is the Istanbul store in Ankara open?", leadGeneral},
		{"en", "Who started answering questions, and when?", leadGeneral},
		{"de", "Was kostet der Versand innerhalb Deutschlands?", leadPrice},
		{"de", "Was kostet der Kundenservice per E-Mail?", leadGeneral},
		{"tr", "Şirketinizi kim kurdu, hangi yılda?", leadGeneral},
		{"tr", "Mağazanız nerede?", leadGeneral},
	}
	for _, tc := range tests {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tc.question, Lang: tc.lang})
		if err != nil {
			t.Fatalf("Answer: %v", err)
		}
		if !a.Confident {
			t.Errorf("%s %q: not answered (%q); the test needs a quote to read", tc.lang, tc.question, a.Text)
			continue
		}
		if !startsWithOneOf(a.Text, replies.leads[tc.lang][tc.want]) {
			t.Errorf("%s %q: reply %q does not open with a lead-in of kind %s", tc.lang, tc.question, a.Text, leadNames[tc.want])
		}
	}
}

func startsWithOneOf(s string, starts []string) bool {
	for _, p := range starts {
		if strings.HasPrefix(s, p+" ") {
			return true
		}
	}
	return false
}

// TestProductListNamesPricesOnlyWhenAsked: a Sales Mode list opens with "Here are the
// prices" only for a question about money; "how warm does it keep?" has the product intent
// of a price ("ne kadar") but its list is no list of prices.
func TestProductListNamesPricesOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	e, acct, _ := demoSalesKB(t)
	for _, tc := range []struct {
		lang, question, prefix string
	}{
		{"tr", "Erciyes -5 uyku tulumu ne kadar sıcak tutar?", replies.products["tr"].list},
		{"tr", "Erciyes -5 uyku tulumunun fiyatı ne kadar?", replies.products["tr"].price},
		{"en", "How much does the Uludağ 2 tent cost?", replies.products["en"].price},
	} {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tc.question, Lang: tc.lang, SalesMode: true})
		if err != nil {
			t.Fatalf("Answer: %v", err)
		}
		if len(a.Cards) == 0 || !strings.HasPrefix(a.Text, tc.prefix+" ") {
			t.Errorf("%s %q: %d cards, reply %q, want it to open with %q", tc.lang, tc.question, len(a.Cards), a.Text, tc.prefix)
		}
	}
	if got := ListProducts("tr", IntentPrice, []Card{{Product: store.Product{Name: "Fener"}}}); strings.HasPrefix(got, replies.products["tr"].price) {
		t.Errorf("a list without a price opens with the prices: %q", got)
	}
}

// TestReplyTextsComplete: every reply text the engine reads is in the catalog of every
// language (the catalog's own test proves the languages have the same keys), with two
// wordings of each lead-in so that questions of one kind do not all read alike.
func TestReplyTextsComplete(t *testing.T) {
	t.Parallel()
	for _, lg := range []string{"en", "de", "tr"} {
		for k := range leadKinds {
			if n := len(replies.leads[lg][k]); n < 2 {
				t.Errorf("%s: %d wordings of the %s lead-in", lg, n, leadNames[k])
			}
		}
		for _, tone := range []string{store.ToneWarm, store.ToneEnergetic} {
			if len(replies.openers[lg][tone]) == 0 {
				t.Errorf("%s: no opener for the %s tone", lg, tone)
			}
		}
		if len(replies.openers[lg][store.ToneProfessional]) != 0 {
			t.Errorf("%s: the professional tone has an opener", lg)
		}
		if SourceLabel(lg) == "" || replies.products[lg].price == "" {
			t.Errorf("%s: a reply text is empty", lg)
		}
	}
	if SourceLabel("fr") != SourceLabel("en") {
		t.Errorf("an unknown language's source label is %q, want the English one", SourceLabel("fr"))
	}
}

// TestHasCuePriceAndNames: an amount of money is a number with a currency sign or word beside
// it; a lone capital letter ("I") is no name.
func TestHasCuePriceAndNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s, lang string
		kind    qtype
		want    bool
	}{
		{"Shipping costs $5.00.", "en", askPrice, true},
		{"Der Versand kostet 4,90 €.", "de", askPrice, true},
		{"Ab 50 Euro ist der Versand frei.", "de", askPrice, true},
		{"Kargo ücreti 49,90 TL'dir.", "tr", askPrice, true},
		{"Fiyat: TL 49", "tr", askPrice, true},
		{"Delivery takes 2 days.", "en", askPrice, false},
		{"Save 20% on 3 items.", "en", askPrice, false},
		{"The phone has 64 GB of storage.", "en", askPrice, false},
		{"Then I went home.", "en", askPerson, false},
		{"Then Tesla went home.", "en", askPerson, true},
	} {
		if got := hasCue(tc.s, tc.kind, tc.lang, nil); got != tc.want {
			t.Errorf("hasCue(%q, %d) = %v, want %v", tc.s, tc.kind, got, tc.want)
		}
	}
}
