package engine

import (
	"slices"
	"testing"

	"svc/internal/store"
)

func TestNameGuard(t *testing.T) {
	boot := Card{DocID: 1, Lang: "tr", Product: store.Product{Name: "Kaçkar Pro Trekking Botu", Category: "Ayakkabı"}}
	pack := Card{DocID: 2, Lang: "tr", Product: store.Product{Name: "Aladağ 35 Sırt Çantası", Category: "Sırt Çantası"}}
	coat := Card{DocID: 3, Lang: "tr", Product: store.Product{Name: "Poyraz Yağmurluk", Category: "Giyim"}}
	bootEN := Card{DocID: 4, Lang: "en", Product: store.Product{Name: "Kaçkar Pro Trekking Boot", Category: "Footwear"}}
	tests := []struct {
		name      string
		text      string
		max       int
		wantText  string
		wantCards []int64
	}{
		{"names only the card", "Kaçkar Pro Trekking Botu su geçirmezdir.", 8,
			"Kaçkar Pro Trekking Botu su geçirmezdir.", []int64{1}},
		{"a card's sibling in another language is covered", "Kaçkar Pro Trekking Botu'nun tabanı kaymaz. Kaçkar botları 38–46 numara arasıdır.", 8,
			"Kaçkar Pro Trekking Botu'nun tabanı kaymaz. Kaçkar botları 38–46 numara arasıdır.", []int64{1}},
		{"a relevant product named joins the cards", "Kaçkar Pro Trekking Botu ile Aladağ 35 Sırt Çantası'nı birlikte alın.", 8,
			"Kaçkar Pro Trekking Botu ile Aladağ 35 Sırt Çantası'nı birlikte alın.", []int64{1, 2}},
		{"a brand written alone is a name", "Aladağ çok hafiftir.", 8, "Aladağ çok hafiftir.", []int64{1, 2}},
		{"no room: the sentence goes", "Botun ağırlığı 640 gramdır. Aladağ 35 Sırt Çantası da hafiftir.", 1,
			"Botun ağırlığı 640 gramdır.", []int64{1}},
		{"a product that does not fit the question goes", "Poyraz Yağmurluğu da su geçirmezdir.\nBotun tabanı kaymaz.", 8,
			"Botun tabanı kaymaz.", []int64{1}},
		{"lower case and suffixes do not hide a name", "poyraz yağmurluğun fiyatı uygundur. Bot hafiftir.", 8,
			"Bot hafiftir.", []int64{1}},
		{"nothing left", "Poyraz Yağmurluk su geçirmez.", 8, "", []int64{1}},
		{"no name at all", "Teslimat 2–4 iş günü sürer.", 8, "Teslimat 2–4 iş günü sürer.", []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NameGuard{Lang: "tr", Max: tt.max, Addable: []Card{pack}, Others: []Card{coat, bootEN}}
			text, cards := g.Apply(tt.text, []Card{boot})
			if text != tt.wantText {
				t.Errorf("text %q, want %q", text, tt.wantText)
			}
			var ids []int64
			for _, c := range cards {
				ids = append(ids, c.DocID)
			}
			if !slices.Equal(ids, tt.wantCards) {
				t.Errorf("cards %v, want %v", ids, tt.wantCards)
			}
		})
	}
}

func TestNameGuardGermanAndEnglish(t *testing.T) {
	tent := Card{DocID: 1, Lang: "de", Product: store.Product{Name: "Uludağ 2 Zelt", Category: "Zelte"}}
	bag := Card{DocID: 2, Lang: "de", Product: store.Product{Name: "Erciyes -5 Schlafsack", Category: "Schlafsäcke"}}
	g := NameGuard{Lang: "de", Max: 8, Others: []Card{bag}}
	text, cards := g.Apply("Das Uludağ 2 Zelt wiegt 2,3 kg. Dazu passt der Erciyes -5 Schlafsack.", []Card{tent})
	if text != "Das Uludağ 2 Zelt wiegt 2,3 kg." || len(cards) != 1 {
		t.Errorf("de: %q, %d cards", text, len(cards))
	}
	jacket := Card{DocID: 3, Lang: "en", Product: store.Product{Name: "Storm Jacket", Category: "Clothing"}}
	poles := Card{DocID: 4, Lang: "en", Product: store.Product{Name: "Toros Carbon Trekking Poles (pair)", Category: "Trekking poles"}}
	g = NameGuard{Lang: "en", Max: 8, Addable: []Card{poles}}
	text, cards = g.Apply("The STORM JACKET is waterproof.\nTake Toros Carbon poles for the descent.", []Card{jacket})
	if text != "The STORM JACKET is waterproof.\nTake Toros Carbon poles for the descent." || len(cards) != 2 || cards[1].DocID != 4 {
		t.Errorf("en: %q, %+v", text, cards)
	}
	// A storm is no Storm Jacket, and a lower-case brand word is a word.
	g = NameGuard{Lang: "en", Max: 8, Others: []Card{jacket}}
	if text, _ := g.Apply("A storm is coming; pack a jacket.", nil); text != "A storm is coming; pack a jacket." {
		t.Errorf("a sentence about a storm names the Storm Jacket: %q", text)
	}
}

func TestNamesProduct(t *testing.T) {
	tent := store.Product{Name: "Uludağ 2 Tent", Category: "Tents"}
	tests := []struct {
		question string
		want     bool
	}{
		{"Is the Uludağ tent waterproof?", true},
		{"is the uludag tent waterproof", true},
		{"What is your return policy?", false},
		{"How long does delivery to Germany take?", false},
	}
	for _, tt := range tests {
		if got := NamesProduct(tt.question, "en", tent); got != tt.want {
			t.Errorf("NamesProduct(%q) = %v, want %v", tt.question, got, tt.want)
		}
	}
}
