package grounding

import (
	"slices"
	"testing"

	"svc/internal/store"
)

// fixtures are one small knowledge base per language, with what a shop's KB holds: shipping
// and returns terms, a campaign (Turkish only), products with prices and descriptions.
var fixtures = map[string]Sources{
	"tr": {
		Business: "Kuzey Patika",
		Passages: []Passage{
			{Lang: "tr", URL: "https://kuzey-patika.example/tr/kargo", Title: "Kargo",
				Text: "Türkiye içi teslimat 2–4 iş günü sürer. Kargo ücreti 79,90 TL'dir; 1.000 TL ve üzeri siparişlerde kargo ücretsizdir."},
			{Lang: "tr", Title: "İade", Text: "Ürünleri 14 gün içinde iade edebilirsiniz."},
			{Lang: "tr", Title: "Kampanya", Text: "Kamp sezonuna özel tüm çadırlarda %20 indirim."},
			{Lang: "tr", Title: "Mağaza", Text: "Mağazamız her gün 10:00–20:00 arasında açıktır."},
		},
		Products: []store.Product{
			{Name: "Kaçkar Pro Trekking Botu", Price: "2.499,90 TL", Category: "Ayakkabı"},
			{Name: "Aladağ 35 Sırt Çantası", Price: "1.299,90 TL", Category: "Çanta"},
		},
		ProductText: map[string]string{
			"Kaçkar Pro Trekking Botu": "Su geçirmez membran, Vibram taban, 640 gram. 2 yıl garanti.",
			"Aladağ 35 Sırt Çantası":   "35 litre hacim, 1,1 kg.",
		},
	},
	"en": {
		Business: "Trailhead Gear",
		Passages: []Passage{
			{Lang: "en", Title: "Shipping", Text: "Standard shipping takes 3-5 business days and costs $6.95. Orders over $75 ship free."},
			{Lang: "en", Title: "Returns", URL: "https://trailheadgear.example/returns", Text: "Returns are accepted within 30 days of delivery."},
		},
		Products: []store.Product{
			{Name: "Summit 45 Backpack", Price: "$189.00", Category: "Backpacks"},
			{Name: "Ridge Pro Tent", Price: "$1,249.00", Category: "Tents"},
		},
		ProductText: map[string]string{
			"Summit 45 Backpack": "45 L capacity, weighs 1.4 kg.",
			"Ridge Pro Tent":     "Two-person tent, 2.1 kg, waterproof fly rated 3000 mm.",
		},
	},
	"de": {
		Business: "Bergpfad",
		Passages: []Passage{
			{Lang: "de", Title: "Versand", Text: "Der Versand kostet 4,90 €. Ab 50 € Bestellwert liefern wir versandkostenfrei."},
			{Lang: "de", Title: "Rückgabe", Text: "Sie haben 30 Tage Rückgaberecht."},
		},
		Products: []store.Product{
			{Name: "Alpin Pro Wanderschuh", Price: "149,00 €", Category: "Schuhe"},
			{Name: "Gipfel 30 Rucksack", Price: "89,95 €", Category: "Rucksäcke"},
		},
		ProductText: map[string]string{
			"Alpin Pro Wanderschuh": "Wasserdicht dank Membran, 2 Jahre Garantie, Gewicht 580 g.",
			"Gipfel 30 Rucksack":    "30 Liter Volumen, 1,2 kg.",
		},
	},
}

// claimCase is one short text and whether it states only what the fixture of its language
// supports; kind, when set, is the kind of claim an unsupported text must report.
type claimCase struct {
	lang, text string
	ok         bool
	kind       string
}

func runClaims(t *testing.T, cases []claimCase) {
	t.Helper()
	guards := map[string]*Guard{}
	for lang, src := range fixtures {
		guards[lang] = New(src, lang)
	}
	for _, c := range cases {
		ok, claims := guards[c.lang].Supported(c.text)
		if ok != c.ok {
			t.Errorf("%s %q: supported %v, want %v (claims %v)", c.lang, c.text, ok, c.ok, claims)
			continue
		}
		if !ok && c.kind != "" && !slices.ContainsFunc(claims, func(cl Claim) bool { return cl.Kind == c.kind }) {
			t.Errorf("%s %q: claims %v, want one of kind %s", c.lang, c.text, claims, c.kind)
		}
	}
}

func TestPrices(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Kaçkar Pro Trekking Botu 2.499,90 TL.", true, ""},
		{"tr", "Kaçkar Pro Trekking Botu 2499,90 TL.", true, ""},
		{"tr", "Aladağ 35 Sırt Çantası ₺1.299,90.", true, ""},
		{"tr", "Kargo ücreti 79,90 TL.", true, ""},
		{"tr", "Kaçkar Pro Trekking Botu sadece 1.999 TL!", false, KindPrice},
		{"tr", "Aladağ 35 Sırt Çantası 999 TRY.", false, KindPrice},
		{"en", "The Ridge Pro Tent is $1,249.", true, ""},
		{"en", "The Ridge Pro Tent is 1249.00 USD.", true, ""},
		{"en", "Shipping costs $6.95.", true, ""},
		{"en", "Now only $999 for the Ridge Pro Tent.", false, KindPrice},
		{"en", "The Summit 45 Backpack is €189.", false, KindPrice}, // the sources price it in dollars
		{"en", "Get £20 off.", false, KindPrice},
		{"de", "Der Alpin Pro Wanderschuh kostet 149 Euro.", true, ""},
		{"de", "Der Gipfel 30 Rucksack kostet 89,95 €.", true, ""},
		{"de", "Der Alpin Pro Wanderschuh kostet 149.-", true, ""},
		{"de", "Jetzt nur 99,- €!", false, KindPrice},
		{"de", "Jetzt nur 49.-", false, KindPrice},
		{"de", "Der Versand kostet EUR 5,90.", false, KindPrice},
	})
}

func TestPercentages(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Çadırlarda %20 indirim.", true, ""},
		{"tr", "Çadırlarda yüzde 20 indirim.", true, ""},
		{"tr", "Çadırlarda % 20 indirim.", true, ""},
		{"tr", "Çadırlarda 20% indirim.", true, ""},
		{"tr", "Çadırlarda %50 indirim.", false, KindPercent},
		{"tr", "Yüzde elli indirim.", false, KindPercent},
		{"tr", "Çadırlarda %20-30 indirim.", false, KindPercent},
		{"en", "Save 50% today.", false, KindPercent},
		{"en", "Save 50 percent today.", false, KindPercent},
		{"en", "Now fifty percent cheaper.", false, KindPercent},
		{"en", "100% satisfaction.", false, KindPercent},
		{"de", "Jetzt 50 % Rabatt.", false, KindPercent},
		{"de", "Jetzt 50 Prozent günstiger.", false, KindPercent},
		{"de", "Bis zu 40% sparen.", false, KindPercent},
	})
}

func TestDiscounts(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Kamp sezonunda çadırlarda büyük kampanya.", true, ""},
		{"tr", "Çadırlarda indirim fırsatı.", true, ""},
		{"tr", "Black Friday başladı!", false, KindDiscount},
		{"tr", "Kara Cuma'ya özel fiyatlar.", false, KindDiscount},
		{"tr", "Kupon kodunuzu sepette kullanın.", false, KindDiscount},
		{"tr", "Ücretsiz hediye sizi bekliyor.", false, KindDiscount},
		{"tr", "Sınırlı süre için geçerli.", false, KindDiscount},
		{"tr", "Uygulamamızı indirin.", true, ""},           // "indirin" is download, not "indirim"
		{"tr", "Yeni rotaları keşfetme fırsatı.", true, ""}, // an opportunity, not a deal
		{"en", "Announcing our Black Friday sale!", false, KindDiscount},
		{"en", "Get 10 off with a coupon.", false, KindDiscount},
		{"en", "Buy one, get one free.", false, KindDiscount},
		{"en", "Cyber Monday deals are here.", false, KindDiscount},
		{"en", "Limited time only.", false, KindDiscount},
		{"en", "Feel free to ask us anything.", true, ""},
		{"en", "The tent is for sale in our store.", true, ""},
		{"en", "We deal with every order personally.", true, ""},
		{"de", "Großer Sale im Shop!", false, KindDiscount},
		{"de", "Jetzt mit Rabatt.", false, KindDiscount},
		{"de", "Mit dem Gutschein sparen.", false, KindDiscount},
		{"de", "Sonderangebot der Woche.", false, KindDiscount},
		{"de", "Nur solange der Vorrat reicht.", false, KindDiscount},
		{"de", "Entdecken Sie unser Angebot an Wanderschuhen.", true, ""},
	})
}

func TestDiscountAcrossLanguages(t *testing.T) {
	src := Sources{Passages: []Passage{{Lang: "tr", Text: "Tüm çadırlarda %20 indirim."}}}
	for _, c := range []struct{ lang, text string }{
		{"en", "Enjoy 20% off all tents."},
		{"en", "Tents are on sale."},
		{"de", "Alle Zelte 20 % reduziert im Sale."},
	} {
		if ok, claims := New(src, c.lang).Supported(c.text); !ok {
			t.Errorf("%s %q: claims %v; a Turkish indirim supports the discount in every language", c.lang, c.text, claims)
		}
	}
	if ok, _ := New(src, "en").Supported("Black Friday: 20% off."); ok {
		t.Error("a discount in the sources must not support Black Friday")
	}
}

func TestQuantities(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Aladağ 35 Sırt Çantası 35 litre hacimlidir.", true, ""},
		{"tr", "35 litrelik hacim.", true, ""},
		{"tr", "Sadece 1,1 kg.", true, ""},
		{"tr", "Sadece 1100 gram.", true, ""}, // 1,1 kg in grams
		{"tr", "Bot 640 gr ağırlığındadır.", true, ""},
		{"tr", "İki yıl garanti.", true, ""},
		{"tr", "24 ay garanti.", true, ""}, // 2 years in months
		{"tr", "Teslimat 2-4 iş günü.", true, ""},
		{"tr", "Sadece 900 gram.", false, KindQuantity},
		{"tr", "5 yıl garanti.", false, KindQuantity},
		{"tr", "Çadır 4 kişiliktir.", false, KindQuantity},
		{"tr", "Teslimat 1-2 gün.", false, KindQuantity},
		{"tr", "10.000'den fazla müşteri.", false, KindQuantity},
		{"tr", "2026 yaz sezonu başladı.", true, ""},
		{"tr", "1998'den beri yanınızdayız.", false, KindQuantity},
		{"tr", "Mağazamız 10:00–20:00 arası açık.", true, ""},
		{"tr", "Mağazamız 09:00–22:00 arası açık.", false, KindQuantity},
		{"en", "It has a 45 L capacity.", true, ""},
		{"en", "The tent weighs 2.1 kg.", true, ""},
		{"en", "It is a two-person tent.", true, ""},
		{"en", "Returns within 30 days.", true, ""},
		{"en", "A 30-day return window.", true, ""},
		{"en", "It weighs 900 g.", false, KindQuantity},
		{"en", "It sleeps four people.", false, KindQuantity},
		{"en", "Battery lasts 10 hours.", false, KindQuantity},
		{"en", "A 60-day return window.", false, KindQuantity},
		{"en", "Rated 4.9/5 by hikers.", false, KindQuantity},
		{"en", "Over 5,000 happy customers.", false, KindQuantity},
		{"en", "Over 10k followers.", false, KindQuantity},
		{"en", "3 easy steps to your perfect pack.", true, ""},
		{"en", "Our 2nd store opens in 2026.", true, ""},
		{"de", "30 Liter Volumen.", true, ""},
		{"de", "Nur 580 g schwer.", true, ""},
		{"de", "Zwei Jahre Garantie.", true, ""},
		{"de", "Am 3. Oktober geschlossen.", true, ""},
		{"de", "Nur 480 g schwer.", false, KindQuantity},
		{"de", "Drei Jahre Garantie.", false, KindQuantity},
		{"de", "Mit dreijähriger Garantie.", false, KindQuantity},
		{"de", "Bis -20 °C warm.", false, KindQuantity},
		{"de", "Seit 1995 für Sie da.", false, KindQuantity},
	})
}

func TestFeatures(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "1.000 TL üzeri kargo bedava.", true, ""},
		{"tr", "Su geçirmez Kaçkar Pro Trekking Botu.", true, ""},
		{"tr", "Kolay iade.", true, ""},
		{"tr", "Tüm siparişlerde ücretsiz iade.", false, KindFeature},
		{"tr", "7/24 destek.", false, KindFeature},
		{"tr", "Ömür boyu garanti.", false, KindFeature},
		{"tr", "Organik pamuktan.", false, KindFeature},
		{"tr", "El yapımı botlar.", false, KindFeature},
		{"tr", "En çok satan ürünümüz.", false, KindFeature},
		{"tr", "Ödüllü tasarım.", false, KindFeature},
		{"tr", "Aynı gün kargo.", false, KindFeature},
		{"en", "Orders over $75 ship free.", true, ""},
		{"en", "Free shipping on orders over $75.", true, ""},
		{"en", "Waterproof fly for rainy nights.", true, ""},
		{"en", "Free returns.", false, KindFeature},
		{"en", "Backed by our warranty.", false, KindFeature},
		{"en", "24/7 customer support.", false, KindFeature},
		{"en", "Certified organic cotton.", false, KindFeature},
		{"en", "Our #1 backpack.", false, KindFeature},
		{"en", "Award-winning design.", false, KindFeature},
		{"en", "Made in the USA.", false, KindFeature},
		{"en", "Eco-friendly packaging.", false, KindFeature},
		{"en", "Vegan leather straps.", false, KindFeature},
		{"en", "Gluten-free snacks for the trail.", true, ""},
		{"de", "Ab 50 € versandkostenfrei.", true, ""},
		{"de", "Wasserdichter Wanderschuh.", true, ""},
		{"de", "Mit Garantie.", true, ""},
		{"de", "Kostenlose Rücksendung.", false, KindFeature},
		{"de", "Rund um die Uhr für Sie da.", false, KindFeature},
		{"de", "Handgefertigt in Italien.", false, KindFeature},
		{"de", "Testsieger im Vergleich.", false, KindFeature},
		{"de", "Nachhaltig produziert.", false, KindFeature},
		{"de", "Bio-zertifiziert.", false, KindFeature},
	})
}

func TestFreeOfSomethingElse(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Ücretsiz montaj hizmeti.", false, KindDiscount}, // the KB's free shipping is not a free service
		{"en", "Free socks with every order.", false, KindDiscount},
		{"de", "Gratis Socken zu jeder Bestellung.", false, KindDiscount},
	})
}

func TestProductNames(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Kaçkar Pro ile zirveye.", true, ""},
		{"tr", "Kaçkar Pro'yu denediniz mi?", true, ""},
		{"tr", "Yeni Kaçkar Max ile tanışın.", false, KindProduct},
		{"tr", "Toros X500 çadırımız.", false, KindProduct},
		{"tr", "Kuzey Patika Pro ile tanışın.", false, KindProduct},
		{"tr", "Kuzey Patika ile doğaya çıkın.", true, ""},
		{"en", "Meet the Ridge Pro Tent.", true, ""},
		{"en", "Meet the Ridge Ultra Tent.", false, KindProduct},
		{"en", "Pair it with our Everest Tent.", false, KindProduct},
		{"en", "The Summit Explorer Backpack is here.", false, KindProduct},
		{"en", "Upgrade to the Pro 3000.", false, KindProduct},
		{"en", "Trailhead Gear has you covered.", true, ""},
		{"en", "Plus, returns are accepted within 30 days.", true, ""},
		{"en", "The Perfect Tent for Your Next Trip", true, ""},
		{"de", "Der Alpin Pro Wanderschuh ist da.", true, ""},
		{"de", "Der Alpin Max Trailrunner ist da.", false, KindProduct},
		{"de", "Der neue RX-450 ist da.", false, KindProduct},
		{"de", "Die Pro Version der Membran.", true, ""},
	})
}

func TestLinks(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Detaylar https://kuzey-patika.example/tr/kargo adresinde.", true, ""},
		{"tr", "Bizi kuzey-patika.example adresinde ziyaret edin.", true, ""},
		{"tr", "Kampanya: kuzey-patika.example/tr/kara-cuma", false, KindURL},
		{"en", "Read https://trailheadgear.example/returns.", true, ""},
		{"en", "Visit www.trailheadgear.example.", true, ""},
		{"en", "Shop at https://trailheadgear.example/sale.", false, KindURL},
		{"en", "Write to hello@trailheadgear.example.", false, KindURL},
		{"de", "Mehr auf https://bergpfad-shop.de/aktion.", false, KindURL},
	})
}

func TestOrdinaryCopySurvives(t *testing.T) {
	runClaims(t, []claimCase{
		{"tr", "Doğayla buluşmaya hazır mısınız?", true, ""},
		{"tr", "1. Gün: Kaçkarlar'a tırmanış.", true, ""},
		{"tr", "Hafif, dayanıklı ve konforlu.", true, ""},
		{"tr", "İlk adımı bugün atın.", true, ""},
		{"en", "Ready for the trail?", true, ""},
		{"en", "First, pick your pack; second, pick your route.", true, ""},
		{"en", "Light, tough and comfortable.", true, ""},
		{"en", "Top 5 reasons to love the Summit 45 Backpack.", true, ""},
		{"de", "Bereit für die nächste Tour?", true, ""},
		{"de", "Leicht, robust und bequem.", true, ""},
		{"de", "Das Bergpfad Team berät Sie gern.", true, ""},
		{"de", "Im 21. Jahrhundert wandert man leicht.", true, ""},
		{"en", "Link in bio!", true, ""},
		{"en", "More hikers find us through organic search.", true, ""},
		{"en", "The next day we reached the summit.", true, ""},
		{"tr", "Detaylar için link bio'da.", true, ""},
		{"de", "Am nächsten Tag ging es weiter.", true, ""},
	})
}

func TestCleanKeepsStructure(t *testing.T) {
	g := New(fixtures["en"], "en")
	tests := []struct{ name, in, want string }{
		{"nothing to remove comes back as it was", "Ready?  Go.\n\n- Light.\n", "Ready?  Go.\n\n- Light.\n"},
		{"a sentence goes whole", "Orders over $75 ship free. Get 50% off today! Returns are accepted within 30 days.",
			"Orders over $75 ship free. Returns are accepted within 30 days."},
		{"the last sentence of a line", "Orders over $75 ship free. Get 50% off today!\nReady?",
			"Orders over $75 ship free.\nReady?"},
		{"a bullet goes with its marker", "Why us?\n- Orders over $75 ship free\n- 24/7 support\n- Light packs",
			"Why us?\n- Orders over $75 ship free\n- Light packs"},
		{"numbered items", "1. Pick a pack.\n2. Get it for $99.\n3. Hit the trail.", "1. Pick a pack.\n3. Hit the trail."},
		{"blank lines close up", "Ready?\n\nBlack Friday is here!\n\nGo.", "Ready?\n\nGo."},
		{"everything removed", "Black Friday is here!", ""},
		{"CRLF lines", "Ready?\r\nBlack Friday!\r\nGo.\r\n", "Ready?\r\nGo.\r\n"},
		{"an amount ends a sentence", "It weighs 1.4 kg. It weighs 900 g. Go.", "It weighs 1.4 kg. Go."},
		{"a price ends a sentence", "It is $189.00. Use code SAVE20 now.", "It is $189.00."},
	}
	for _, tc := range tests {
		got, claims := g.Clean(tc.in)
		if got != tc.want {
			t.Errorf("%s: Clean(%q) = %q, want %q (claims %v)", tc.name, tc.in, got, tc.want, claims)
		}
		if (got == tc.in) != (len(claims) == 0) {
			t.Errorf("%s: claims %v for a text changed %v", tc.name, claims, got != tc.in)
		}
	}
}

func TestCleanList(t *testing.T) {
	g := New(fixtures["de"], "de")
	got, claims := g.CleanList([]string{"Wasserdicht.", "Jetzt 50 % Rabatt!", "30 Tage Rückgaberecht. Testsieger 2026."})
	want := []string{"Wasserdicht.", "30 Tage Rückgaberecht."}
	if !slices.Equal(got, want) || len(claims) != 3 {
		t.Errorf("CleanList = %q, %v; want %q and three claims", got, claims, want)
	}
}

func TestHashtagsAndHeadlines(t *testing.T) {
	g := New(fixtures["tr"], "tr")
	for text, want := range map[string]bool{
		"kamp":                 true,
		"KuzeyPatika":          true,
		"KaraCuma":             false,
		"BlackFriday2026":      false,
		"UcretsizKargo":        true,
		"OmurBoyuGaranti":      false,
		"Zirveye Hazır Mısın?": true,
	} {
		if ok, claims := g.Supported(text); ok != want {
			t.Errorf("Supported(%q) = %v, want %v (claims %v)", text, ok, want, claims)
		}
	}
}

func TestNumberValues(t *testing.T) {
	for in, want := range map[string][]float64{
		"1.299,90":  {1299.9},
		"1,299.90":  {1299.9},
		"1299.90":   {1299.9},
		"49,00":     {49},
		"1.000.000": {1e6},
		"50.000":    {50000},
		"1.299":     {1299, 1.299},
		"1,5":       {1.5},
		"0,299":     {0.299},
		"1'299":     {1299},
	} {
		if got := numberValues(in); !slices.Equal(got, want) {
			t.Errorf("numberValues(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestSentencesSplitAfterAmounts(t *testing.T) {
	for _, c := range []struct {
		lang, line string
		want       []string
	}{
		{"en", "It is $32.00. Use it.", []string{"It is $32.00.", "Use it."}},
		{"en", "It weighs 900 g. Go.", []string{"It weighs 900 g.", "Go."}},
		{"en", "Down to -5 °C. Warm.", []string{"Down to -5 °C.", "Warm."}},
		{"de", "Am 7. Februar geht es los.", []string{"Am 7. Februar geht es los."}},
		{"en", "See e.g. our tents.", []string{"See e.g. our tents."}},
	} {
		var got []string
		for _, s := range sentences(c.line, c.lang) {
			got = append(got, c.line[s[0]:s[1]])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("sentences(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestEmptySources(t *testing.T) {
	g := New(Sources{}, "en")
	got, _ := g.Clean("Ready for the trail? Get 20% off.")
	if got != "Ready for the trail?" {
		t.Errorf("Clean with no sources = %q", got)
	}
}
