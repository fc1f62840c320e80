package engine

import (
	"strings"
	"testing"

	"svc/internal/store"
)

// hasLeadIn reports whether text opens with one of the lead-ins of lg and tone.
func hasLeadIn(text, lg, tone string) bool {
	opener := ""
	if os := replies.openers[lg][tone]; len(os) > 0 {
		for _, o := range os {
			if strings.HasPrefix(text, o+" ") {
				opener = o + " "
			}
		}
		if opener == "" {
			return false
		}
	}
	for _, ways := range replies.leads[lg] {
		for _, w := range ways {
			if strings.HasPrefix(text, opener+w+" ") {
				return true
			}
		}
	}
	return false
}

func TestLeadInByQuestionKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, question string
		want           leadKind
	}{
		{"en", "How do I track my order?", leadHowTo},
		{"en", "Can I return shoes for free?", leadYesNo},
		{"en", "Do you ship to the United States?", leadYesNo},
		{"en", "How much does shipping to Germany cost?", leadPrice},
		{"en", "How much is the Storm Jacket?", leadPrice},
		{"en", "How much does the Uludağ 2 tent weigh?", leadGeneral},
		{"en", "How long does delivery take?", leadDuration},
		{"en", "When is the Istanbul store open?", leadWhen},
		{"en", "What are the opening hours of the Kadıköy store?", leadWhen},
		{"en", "Where is your store in Istanbul?", leadPlace},
		{"en", "What is your return policy?", leadDefinition},
		{"en", "Tell me about the tent", leadGeneral},
		{"de", "Wie gebe ich Schuhe zurück?", leadHowTo},
		{"de", "Kann ich auf Rechnung bezahlen?", leadYesNo},
		{"de", "Liefern Sie nach Österreich?", leadYesNo},
		{"de", "Was kostet der Versand?", leadPrice},
		{"de", "Wie lange dauern Lieferungen nach Deutschland?", leadDuration},
		{"de", "Wann hat euer Laden in Berlin geöffnet?", leadWhen},
		{"de", "Wo ist Ihr Geschäft?", leadPlace},
		{"de", "Was ist 3D Secure?", leadDefinition},
		{"tr", "Siparişimi nasıl takip ederim?", leadHowTo},
		{"tr", "Kadıköy mağazası pazar günü açık mı?", leadYesNo},
		{"tr", "Almanya'ya gönderim yapıyor musunuz?", leadYesNo},
		{"tr", "Kargo ücreti ne kadar?", leadPrice},
		{"tr", "Fırtına mont kaça?", leadPrice},
		{"tr", "İade süresi kaç gün?", leadDuration},
		{"tr", "Garanti süresi ne kadar?", leadDuration},
		{"tr", "Mağazanız pazar günü kaçta açılıyor?", leadWhen},
		{"tr", "Mağazanız nerede?", leadPlace},
		{"tr", "Kapıda ödeme nedir?", leadDefinition},
	}
	for _, tc := range tests {
		if got := leadKindOf(tc.question, tc.lang); got != tc.want {
			t.Errorf("%s %q: kind %d, want %d", tc.lang, tc.question, got, tc.want)
		}
	}
}

// TestLeadInNeverClashesWithAVerdict: a quote that opens with its own yes or no gets the
// "short answer" lead-in whatever was asked, never one announcing a price or a place.
func TestLeadInNeverClashesWithAVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, question, quote string }{
		{"de", "Kann ich in Raten zahlen?", "Nein. Zölle und Einfuhrumsatzsteuer sind in unseren Preisen enthalten."},
		{"de", "Was kostet der Zoll?", "Nein, Zölle zahlen Sie nicht."},
		{"en", "Do you ship to Norway?", "Yes, we ship to Norway within 5 days."},
		{"en", "How much is customs?", "No. Duties are included."},
		{"tr", "Kapıda ödeme var mı?", "Hayır, kapıda ödeme yapılamıyor."},
		{"tr", "Taksit yapıyor musunuz?", "Evet. 9 taksite kadar."},
	} {
		for _, tone := range []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic} {
			lead := phrasesFor(tc.lang, tone).leadFor(tc.question, tc.quote)
			found := false
			for _, w := range replies.leads[tc.lang][leadVerdict] {
				found = found || strings.HasSuffix(lead, " "+w) || lead == w
			}
			if !found {
				t.Errorf("%s %s %q before %q: lead-in %q", tc.lang, tone, tc.question, tc.quote, lead)
			}
		}
	}
	for _, quote := range []string{"Nobody pays duties.", "Nothing is charged.", "Neinstein GmbH ships it.", "Evetse"} {
		if opensWithVerdict(quote, "en") || opensWithVerdict(quote, "de") || opensWithVerdict(quote, "tr") {
			t.Errorf("%q read as a yes or no", quote)
		}
	}
}

// TestLeadInsAreVariedAndFixed: the same question always gets the same lead-in; questions
// of one language get several; every lead-in ends in a colon so a quoted sentence can
// follow; the professional tone has no exclamation mark and no opener.
func TestLeadInsAreVariedAndFixed(t *testing.T) {
	t.Parallel()
	questions := map[string][]string{
		"en": {"How do I track my order?", "Can I return shoes for free?", "How much does shipping cost?",
			"How long does delivery take?", "Where is your store?", "What is your return policy?", "Tell me about tents"},
		"de": {"Wie gebe ich Schuhe zurück?", "Kann ich auf Rechnung bezahlen?", "Was kostet der Versand?",
			"Wie lange dauert die Lieferung?", "Wo ist Ihr Geschäft?", "Was ist 3D Secure?", "Zelte"},
		"tr": {"Siparişimi nasıl takip ederim?", "Kapıda ödeme var mı?", "Kargo ücreti ne kadar?",
			"Teslimat kaç gün sürer?", "Mağazanız nerede?", "Kapıda ödeme nedir?", "Çadırlar"},
	}
	// A quote that holds an answer of every kind, so that each question's own kind is named.
	quotes := map[string]string{
		"en": "It costs 4.90 € and takes 2 days; our store at Moda Caddesi opens at 10:00.",
		"de": "Er kostet 4,90 € und dauert 2 Tage; unser Laden in der Moda Caddesi öffnet um 10:00.",
		"tr": "Ücreti 49,90 TL, teslimat 2 gün sürer; mağazamız Moda Caddesi üzerinde, 10:00'da açılır.",
	}
	// The wording is fixed by the question (its kind, then a hash of its text): the cache and
	// a visitor asking again see the same reply.
	for _, c := range []struct{ lg, q, want string }{
		{"en", "How do I track my order?", "This is how to go about it:"},
		{"de", "Was kostet der Versand?", "Zum Preis steht bei uns:"},
		{"tr", "Teslimat kaç gün sürer?", "Süre bilgisi şöyle:"},
	} {
		if got := phrasesFor(c.lg, store.ToneProfessional).leadFor(c.q, quotes[c.lg]); got != c.want {
			t.Errorf("%s %q: lead-in %q, want %q", c.lg, c.q, got, c.want)
		}
	}
	for lg, qs := range questions {
		for _, tone := range []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic} {
			ph := phrasesFor(lg, tone)
			seen := map[string]bool{}
			for _, q := range qs {
				lead := ph.leadFor(q, quotes[lg])
				if !strings.HasSuffix(lead, ":") {
					t.Errorf("%s %s %q: malformed lead-in %q", lg, tone, q, lead)
				}
				if tone == store.ToneProfessional && strings.Contains(lead, "!") {
					t.Errorf("%s %q: professional lead-in %q", lg, q, lead)
				}
				seen[lead] = true
			}
			if len(seen) < len(qs)-1 {
				t.Errorf("%s %s: %d lead-ins for %d kinds of question: %v", lg, tone, len(seen), len(qs), seen)
			}
		}
	}
}
