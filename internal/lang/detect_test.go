package lang

import "testing"

// customerMessages are short, realistic chat messages, many typed
// without diacritics, in the way visitors actually write.
var customerMessages = map[string][]string{
	TR: {
		"merhaba",
		"Merhaba!",
		"selam",
		"teşekkürler",
		"tesekkurler",
		"çok teşekkür ederim",
		"sağ olun",
		"günaydın",
		"iyi günler",
		"siparisim nerede",
		"Siparişim nerede?",
		"kargo ne zaman gelir",
		"Kargom hala gelmedi",
		"iade nasıl yapılır",
		"iade nasil yapilir",
		"Ayakkabı iadesi kaç gün sürüyor?",
		"İstanbul'da mağazanız var mı?",
		"istanbulda magazaniz var mi",
		"kapıda ödeme var mı",
		"kredi kartı ile taksit yapabilir miyim",
		"ürün bozuk geldi ne yapmalıyım",
		"urun bozuk geldi",
		"şifremi unuttum",
		"sifremi unuttum",
		"hesabımı nasıl silerim",
		"kargo ücreti ne kadar",
		"kargo ucreti ne kadar",
		"Bu ürünün başka rengi var mı?",
		"beden değişimi yapabilir miyim",
		"fatura bilgilerimi değiştirmek istiyorum",
		"siparisimi iptal etmek istiyorum",
		"Hafta sonu açık mısınız?",
		"çalışma saatleriniz nedir",
		"calisma saatleriniz nedir",
		"indirim kodu çalışmıyor",
		"ücretsiz kargo var mı",
		"Yanlış ürün gönderilmiş",
		"Paketim hasarlı geldi",
		"müşteri hizmetlerine nasıl ulaşırım",
		"en yakın mağaza nerede",
		"stokta var mı",
		"ne zaman stoğa girer",
		"iyi akşamlar, bir sorum olacak",
		"tamam anladım teşekkürler",
		"Kac gunde teslim edilir",
	},
	EN: {
		"hi",
		"hello",
		"Hello!",
		"hey there",
		"thanks",
		"thank you so much",
		"good morning",
		"where is my order",
		"Where is my order?",
		"when will my package arrive",
		"how do I return an item",
		"How long does shipping take?",
		"what are your opening hours",
		"do you ship to Germany",
		"Do you have a store in Istanbul?",
		"can I pay on delivery",
		"I forgot my password",
		"how do I delete my account",
		"the product arrived broken",
		"I received the wrong size",
		"how much is shipping",
		"is shipping free",
		"can I change my delivery address",
		"I want to cancel my order",
		"my discount code doesn't work",
		"are you open on sundays",
		"what's your return policy",
		"do you have this in blue",
		"when will it be back in stock",
		"how can I contact customer service",
		"i need an invoice",
		"my parcel hasn't arrived yet",
		"can i exchange shoes",
		"refund status",
		"track my order",
		"is there a warranty",
		"which payment methods do you accept",
		"do you offer gift wrapping",
		"the tracking number doesn't work",
		"ok thanks, have a nice day",
		"how many days until delivery",
		"where's the nearest shop",
	},
	DE: {
		"hallo",
		"Hallo!",
		"danke",
		"vielen Dank",
		"danke schön",
		"guten Tag",
		"guten Morgen",
		"tschüss",
		"wo ist meine bestellung",
		"Wo ist meine Bestellung?",
		"was kostet der versand",
		"Was kostet der Versand?",
		"wie lange dauert die lieferung",
		"Wann kommt mein Paket?",
		"wie kann ich etwas zurückschicken",
		"wie kann ich etwas zurueckschicken",
		"Haben Sie ein Geschäft in Istanbul?",
		"kann ich per Rechnung bezahlen",
		"ich habe mein Passwort vergessen",
		"wie lösche ich mein Konto",
		"wie loesche ich mein konto",
		"das Produkt ist kaputt angekommen",
		"ich habe die falsche Größe bekommen",
		"ich habe die falsche groesse bekommen",
		"ist der Versand kostenlos",
		"kann ich die Lieferadresse ändern",
		"ich möchte meine Bestellung stornieren",
		"mein Gutscheincode funktioniert nicht",
		"habt ihr am Sonntag geöffnet",
		"Öffnungszeiten?",
		"gibt es das auch in blau",
		"wann ist der Artikel wieder verfügbar",
		"wie erreiche ich den Kundenservice",
		"ich brauche eine Rechnung",
		"mein Paket ist noch nicht da",
		"kann ich Schuhe umtauschen",
		"Rückerstattung",
		"Sendungsverfolgung funktioniert nicht",
		"gibt es eine Garantie",
		"welche Zahlungsarten gibt es",
		"ok danke, schönen Tag noch",
		"wie viele Tage dauert die Lieferung",
		"Versandkosten nach Österreich",
	},
}

func TestDetectCustomerMessages(t *testing.T) {
	for want, msgs := range customerMessages {
		if len(msgs) < 40 {
			t.Errorf("%s: only %d messages, want at least 40", want, len(msgs))
		}
		for _, msg := range msgs {
			got, conf := Detect(msg)
			if got != want {
				t.Errorf("Detect(%q) = %s (%.2f), want %s; scores %v", msg, got, conf, want, score(msg))
				continue
			}
			if DetectOr(msg, "xx") != want {
				t.Errorf("DetectOr(%q) fell back (confidence %.2f), want %s; scores %v", msg, conf, want, score(msg))
			}
		}
	}
}

func TestDetectOrFallsBack(t *testing.T) {
	for _, msg := range []string{"", "ok", "OK!", "?", "iPhone 15", "Nike Air Max 90", "12345", "👍", "XL", "super", "Berlin"} {
		if got := DetectOr(msg, "xx"); got != "xx" {
			lang, conf := Detect(msg)
			t.Errorf("DetectOr(%q) = %s (Detect %s %.2f), want fallback", msg, got, lang, conf)
		}
	}
}

func TestConfidenceRange(t *testing.T) {
	tests := []struct {
		text    string
		minConf float64
	}{
		{"Siparişim ne zaman kargoya verilecek, çok merak ediyorum.", 0.8},
		{"Wie lange dauert die Lieferung nach Österreich und was kostet sie?", 0.8},
		{"How long does delivery to Austria take and what does it cost?", 0.8},
	}
	for _, tt := range tests {
		_, conf := Detect(tt.text)
		if conf < tt.minConf || conf > 1 {
			t.Errorf("Detect(%q) confidence %.2f, want in [%.2f, 1]", tt.text, conf, tt.minConf)
		}
	}
	if _, conf := Detect(""); conf != 0 {
		t.Errorf("Detect(\"\") confidence %.2f, want 0", conf)
	}
}

func TestDetectSingleWords(t *testing.T) {
	tests := map[string]string{
		"merhaba": TR, "selam": TR, "teşekkürler": TR, "tesekkurler": TR, "harika": TR, "evet": TR, "hayır": TR, "kargo": TR,
		"hallo": DE, "danke": DE, "moin": DE, "servus": DE, "tschüss": DE, "tschuess": DE, "Versand": DE, "Rückgabe": DE, "rueckgabe": DE,
		"hi": EN, "hello": EN, "thanks": EN, "cheers": EN, "shipping": EN, "warranty": EN,
	}
	for word, want := range tests {
		if got := DetectOr(word, "xx"); got != want {
			lang, conf := Detect(word)
			t.Errorf("DetectOr(%q) = %s (Detect %s %.2f), want %s", word, got, lang, conf, want)
		}
	}
}
