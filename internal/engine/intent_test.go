package engine

import (
	"slices"
	"testing"

	"svc/internal/textindex"
)

func TestProductIntent(t *testing.T) {
	tests := []struct {
		lang, question string
		want           Intent // every flag must be set; 0: no flag may be
	}{
		{"en", "How much is the Storm Jacket?", IntentPrice},
		{"en", "What does the tent cost?", IntentPrice},
		{"en", "What are your prices for backpacks?", IntentPrice},
		{"en", "Is the Kaçkar boot in stock?", IntentStock},
		{"en", "Is it available in size 44?", IntentStock},
		{"en", "Do you sell sleeping bags?", IntentList},
		{"en", "Which products do you have?", IntentList},
		{"en", "What kind of tents do you carry?", IntentList},
		{"en", "Compare the boot and the jacket", IntentCompare},
		{"en", "What is the difference between the two tents?", IntentCompare},
		{"en", "Kaçkar vs Storm", IntentCompare},
		{"en", "Which backpack do you recommend?", IntentRecommend},
		{"en", "What should I buy for winter?", IntentRecommend},
		{"en", "What is the lightest tent?", IntentRecommend},
		{"tr", "Kaçkar botunun fiyatı ne kadar?", IntentPrice},
		{"tr", "Mont kaç TL?", IntentPrice},
		{"tr", "Çadırların fiyatları nedir?", IntentPrice},
		{"tr", "Yağmurluk stokta var mı?", IntentStock | IntentList},
		{"tr", "Uyku tulumu satıyor musunuz?", IntentList},
		{"tr", "Hangi ürünleriniz var?", IntentList},
		{"tr", "Hangi çadırlarınız var?", IntentList},
		{"tr", "Aladağ ile Uludağ arasındaki fark nedir?", IntentCompare},
		{"tr", "Bu iki botu karşılaştırır mısınız?", IntentCompare},
		{"tr", "Kamp için hangi çadırı önerirsiniz?", IntentRecommend},
		{"tr", "En hafif çadır hangisi?", IntentRecommend | IntentCompare},
		{"de", "Was kostet der Trekkingstiefel?", IntentPrice},
		{"de", "Wie hoch sind die Preise?", IntentPrice},
		{"de", "Ist die Regenjacke lieferbar?", IntentStock},
		{"de", "Haben Sie das Zelt auf Lager?", IntentStock | IntentList},
		{"de", "Gibt es Schlafsäcke?", IntentList},
		{"de", "Welche Produkte haben Sie?", IntentList},
		{"de", "Was ist der Unterschied zwischen den Zelten?", IntentCompare},
		{"de", "Welcher Rucksack ist besser?", IntentCompare},
		{"de", "Was empfehlen Sie für den Winter?", IntentRecommend},
		{"de", "Welches ist das leichteste Zelt?", IntentRecommend},
		{"de", "Welcher Schlafsack ist der beste?", IntentRecommend},
		{"en", "What is your return policy?", 0},
		{"en", "How long does shipping take?", 0},
		{"en", "How do I track my order?", 0},
		{"en", "Can I request a refund?", 0},
		{"tr", "İade politikanız nedir?", 0},
		{"tr", "Siparişimi nasıl takip ederim?", 0},
		{"tr", "Kargo kaç günde gelir?", 0},
		{"de", "Wie lange dauert die Lieferung?", 0},
		{"de", "Wie kann ich meine Bestellung verfolgen?", 0},
		{"de", "Wie gebe ich Schuhe zurück?", 0},
	}
	for _, tt := range tests {
		got := ProductIntent(tt.question, tt.lang)
		if tt.want == 0 && got != 0 || !got.Has(tt.want) && tt.want != 0 {
			t.Errorf("%s %q: intent %05b, want %05b", tt.lang, tt.question, got, tt.want)
		}
	}
}

// TestIntentSubject checks what is left of a question for the products to match once the
// words that only carry the intent are gone, Turkish suffixes included.
func TestIntentSubject(t *testing.T) {
	tests := []struct {
		lang, question string
		want           []string
	}{
		{"tr", "Kaçkar botunun fiyatı ne kadar?", []string{"kacka", "botun"}},
		{"tr", "Hangi ürünleriniz var?", nil},
		{"tr", "Sırt çantalarının fiyatları nedir?", []string{"sirt", "canta"}},
		{"en", "How much do your sleeping bags cost?", []string{"sleep", "bag"}},
		{"en", "What products do you sell?", nil},
		{"de", "Welche Produkte haben Sie?", nil},
		{"de", "Was kostet der Rucksack?", []string{"rucksack"}},
	}
	for _, tt := range tests {
		_, strip, _ := readIntent(tt.question, tt.lang)
		q := query{lang: tt.lang, terms: textindex.QueryTerms(tt.question, tt.lang)}
		var got []string
		for _, i := range keptTerms(&q, strip) {
			got = append(got, q.terms[i].Text)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %q: subject %q, want %q", tt.lang, tt.question, got, tt.want)
		}
	}
}
