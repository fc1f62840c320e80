package sitetest

// product is one shop product in the three languages. Slugs are shared across languages, so
// /en/shop/kestrel-x2-lite.html and /de/shop/kestrel-x2-lite.html are the same product.
type product struct {
	Slug  string
	SKU   string
	Name  map[string]string
	Price map[string]string // schema.org price, a decimal with a dot
	Desc  map[string][]string
	Specs map[string][][2]string
}

// currency and shown price format per language: the English store sells in US dollars, the
// German in euros, the Turkish in lira.
var currency = map[string]string{"en": "USD", "de": "EUR", "tr": "TRY"}

// Products are the shop's products. The siblings differ in price and in the one token of their
// names that tells them apart (Lite/Pro, Mini/Max, 500 ml/750 ml, Black/Orange); the water
// bottle's text says "best" and "the best way", and the wallet and node products talk about
// seeds, restoring and syncing, which are the documentation's words too.
var products = []product{
	{
		Slug: "kestrel-x2-lite", SKU: "KX2-LITE",
		Name:  map[string]string{"en": "Kestrel X2 Lite", "de": "Kestrel X2 Lite", "tr": "Kestrel X2 Lite"},
		Price: map[string]string{"en": "299.00", "de": "279.00", "tr": "9999.00"},
		Desc: map[string][]string{
			"en": {"The Kestrel X2 Lite is a privacy-focused Android phone with a Monero wallet preinstalled.", "It has a 6.1-inch screen, 128 GB of storage and a 4,000 mAh battery."},
			"de": {"Das Kestrel X2 Lite ist ein auf Privatsphäre ausgelegtes Android-Smartphone mit vorinstallierter Monero-Wallet.", "Es hat einen 6,1-Zoll-Bildschirm, 128 GB Speicher und einen Akku mit 4.000 mAh."},
			"tr": {"Kestrel X2 Lite, Monero cüzdanı önceden yüklü, gizlilik odaklı bir Android telefondur.", "6,1 inç ekranı, 128 GB depolama alanı ve 4.000 mAh pili vardır."},
		},
		Specs: map[string][][2]string{
			"en": {{"Storage", "128 GB"}, {"Battery", "4,000 mAh"}, {"Screen", "6.1 inch"}},
			"de": {{"Speicher", "128 GB"}, {"Akku", "4.000 mAh"}, {"Bildschirm", "6,1 Zoll"}},
			"tr": {{"Depolama", "128 GB"}, {"Pil", "4.000 mAh"}, {"Ekran", "6,1 inç"}},
		},
	},
	{
		Slug: "kestrel-x2-pro", SKU: "KX2-PRO",
		Name:  map[string]string{"en": "Kestrel X2 Pro", "de": "Kestrel X2 Pro", "tr": "Kestrel X2 Pro"},
		Price: map[string]string{"en": "549.00", "de": "519.00", "tr": "18499.00"},
		Desc: map[string][]string{
			"en": {"The Kestrel X2 Pro is a privacy-focused Android phone with a Monero wallet preinstalled.", "It has a 6.7-inch screen, 256 GB of storage and a 5,000 mAh battery."},
			"de": {"Das Kestrel X2 Pro ist ein auf Privatsphäre ausgelegtes Android-Smartphone mit vorinstallierter Monero-Wallet.", "Es hat einen 6,7-Zoll-Bildschirm, 256 GB Speicher und einen Akku mit 5.000 mAh."},
			"tr": {"Kestrel X2 Pro, Monero cüzdanı önceden yüklü, gizlilik odaklı bir Android telefondur.", "6,7 inç ekranı, 256 GB depolama alanı ve 5.000 mAh pili vardır."},
		},
		Specs: map[string][][2]string{
			"en": {{"Storage", "256 GB"}, {"Battery", "5,000 mAh"}, {"Screen", "6.7 inch"}},
			"de": {{"Speicher", "256 GB"}, {"Akku", "5.000 mAh"}, {"Bildschirm", "6,7 Zoll"}},
			"tr": {{"Depolama", "256 GB"}, {"Pil", "5.000 mAh"}, {"Ekran", "6,7 inç"}},
		},
	},
	{
		Slug: "vault-one-mini", SKU: "V1-MINI",
		Name:  map[string]string{"en": "Vault One Mini hardware wallet", "de": "Vault One Mini Hardware-Wallet", "tr": "Vault One Mini donanım cüzdanı"},
		Price: map[string]string{"en": "79.00", "de": "75.00", "tr": "2699.00"},
		Desc: map[string][]string{
			"en": {"The Vault One Mini keeps your Monero keys offline on a device the size of a key fob.", "If you lose it, restore your wallet on a new device from your 25-word mnemonic seed."},
			"de": {"Die Vault One Mini bewahrt deine Monero-Schlüssel offline auf einem Gerät in Schlüsselanhängergröße auf.", "Geht sie verloren, stellst du deine Wallet mit deinem 25-Wörter-Seed auf einem neuen Gerät wieder her."},
			"tr": {"Vault One Mini, Monero anahtarlarınızı anahtarlık boyutunda bir cihazda çevrimdışı saklar.", "Kaybederseniz cüzdanınızı 25 kelimelik anımsatıcı tohumunuzla yeni bir cihaza geri yükleyebilirsiniz."},
		},
		Specs: map[string][][2]string{
			"en": {{"Screen", "0.96 inch OLED"}, {"Connection", "USB-C"}},
			"de": {{"Bildschirm", "0,96 Zoll OLED"}, {"Anschluss", "USB-C"}},
			"tr": {{"Ekran", "0,96 inç OLED"}, {"Bağlantı", "USB-C"}},
		},
	},
	{
		Slug: "vault-one-max", SKU: "V1-MAX",
		Name:  map[string]string{"en": "Vault One Max hardware wallet", "de": "Vault One Max Hardware-Wallet", "tr": "Vault One Max donanım cüzdanı"},
		Price: map[string]string{"en": "179.00", "de": "169.00", "tr": "5999.00"},
		Desc: map[string][]string{
			"en": {"The Vault One Max keeps your Monero keys offline and adds a touchscreen and Bluetooth.", "If you lose it, restore your wallet on a new device from your 25-word mnemonic seed."},
			"de": {"Die Vault One Max bewahrt deine Monero-Schlüssel offline auf und hat zusätzlich einen Touchscreen und Bluetooth.", "Geht sie verloren, stellst du deine Wallet mit deinem 25-Wörter-Seed auf einem neuen Gerät wieder her."},
			"tr": {"Vault One Max, Monero anahtarlarınızı çevrimdışı saklar; ayrıca dokunmatik ekranı ve Bluetooth'u vardır.", "Kaybederseniz cüzdanınızı 25 kelimelik anımsatıcı tohumunuzla yeni bir cihaza geri yükleyebilirsiniz."},
		},
		Specs: map[string][][2]string{
			"en": {{"Screen", "2.8 inch touchscreen"}, {"Connection", "USB-C, Bluetooth"}},
			"de": {{"Bildschirm", "2,8 Zoll Touchscreen"}, {"Anschluss", "USB-C, Bluetooth"}},
			"tr": {{"Ekran", "2,8 inç dokunmatik"}, {"Bağlantı", "USB-C, Bluetooth"}},
		},
	},
	{
		Slug: "node-box-plus", SKU: "NB-PLUS",
		Name:  map[string]string{"en": "Node Box Plus", "de": "Node Box Plus", "tr": "Node Box Plus"},
		Price: map[string]string{"en": "399.00", "de": "379.00", "tr": "13499.00"},
		Desc: map[string][]string{
			"en": {"The Node Box Plus is the easiest way to run your own Monero node at home: plug it in and it syncs the blockchain by itself.", "It comes with a 2 TB SSD, so it can keep the full blockchain without pruning."},
			"de": {"Die Node Box Plus ist der einfachste Weg, einen eigenen Monero-Knoten zu Hause zu betreiben: einstecken, und sie synchronisiert die Blockchain von selbst.", "Sie hat eine 2-TB-SSD und kann die vollständige Blockchain ohne Pruning speichern."},
			"tr": {"Node Box Plus, evde kendi Monero düğümünüzü çalıştırmanın en kolay yoludur: fişe takın, blok zincirini kendisi eşitler.", "2 TB SSD ile gelir, bu yüzden tam blok zincirini budamadan saklayabilir."},
		},
		Specs: map[string][][2]string{
			"en": {{"Storage", "2 TB SSD"}, {"Power", "15 W"}},
			"de": {{"Speicher", "2 TB SSD"}, {"Leistung", "15 W"}},
			"tr": {{"Depolama", "2 TB SSD"}, {"Güç", "15 W"}},
		},
	},
	{
		Slug: "trail-bottle-500", SKU: "TB-500",
		Name:  map[string]string{"en": "Trail water bottle 500 ml", "de": "Trail Trinkflasche 500 ml", "tr": "Trail su şişesi 500 ml"},
		Price: map[string]string{"en": "19.00", "de": "18.00", "tr": "649.00"},
		Desc: map[string][]string{
			"en": {"Our best bottle for long days outside: double-walled steel keeps water cold for 24 hours.", "The best way to carry water on a hike, with the Monero logo laser-engraved."},
			"de": {"Unsere beste Flasche für lange Tage draußen: doppelwandiger Stahl hält Wasser 24 Stunden kalt.", "Der beste Weg, Wasser auf einer Wanderung mitzunehmen, mit gelasertem Monero-Logo."},
			"tr": {"Dışarıda uzun günler için en iyi şişemiz: çift cidarlı çelik suyu 24 saat soğuk tutar.", "Yürüyüşte su taşımanın en iyi yolu, lazerle işlenmiş Monero logosuyla."},
		},
		Specs: map[string][][2]string{
			"en": {{"Capacity", "500 ml"}, {"Material", "Stainless steel"}},
			"de": {{"Fassungsvermögen", "500 ml"}, {"Material", "Edelstahl"}},
			"tr": {{"Hacim", "500 ml"}, {"Malzeme", "Paslanmaz çelik"}},
		},
	},
	{
		Slug: "trail-bottle-750", SKU: "TB-750",
		Name:  map[string]string{"en": "Trail water bottle 750 ml", "de": "Trail Trinkflasche 750 ml", "tr": "Trail su şişesi 750 ml"},
		Price: map[string]string{"en": "24.00", "de": "22.00", "tr": "799.00"},
		Desc: map[string][]string{
			"en": {"Our best bottle for long days outside, in the large size: double-walled steel keeps water cold for 24 hours.", "The best way to carry water on a long hike, with the Monero logo laser-engraved."},
			"de": {"Unsere beste Flasche für lange Tage draußen, in der großen Ausführung: doppelwandiger Stahl hält Wasser 24 Stunden kalt.", "Der beste Weg, Wasser auf einer langen Wanderung mitzunehmen, mit gelasertem Monero-Logo."},
			"tr": {"Dışarıda uzun günler için en iyi şişemizin büyük boyu: çift cidarlı çelik suyu 24 saat soğuk tutar.", "Uzun yürüyüşte su taşımanın en iyi yolu, lazerle işlenmiş Monero logosuyla."},
		},
		Specs: map[string][][2]string{
			"en": {{"Capacity", "750 ml"}, {"Material", "Stainless steel"}},
			"de": {{"Fassungsvermögen", "750 ml"}, {"Material", "Edelstahl"}},
			"tr": {{"Hacim", "750 ml"}, {"Malzeme", "Paslanmaz çelik"}},
		},
	},
	{
		Slug: "logo-hoodie-black", SKU: "HD-BLK",
		Name:  map[string]string{"en": "Logo hoodie black", "de": "Logo-Hoodie schwarz", "tr": "Logolu kapüşonlu siyah"},
		Price: map[string]string{"en": "45.00", "de": "42.00", "tr": "1499.00"},
		Desc: map[string][]string{
			"en": {"A heavy cotton hoodie in black with the Monero logo embroidered on the chest.", "Sizes S to XXL."},
			"de": {"Ein schwerer Baumwoll-Hoodie in Schwarz mit aufgesticktem Monero-Logo auf der Brust.", "Größen S bis XXL."},
			"tr": {"Göğsünde işlemeli Monero logosu olan siyah, kalın pamuklu kapüşonlu.", "S'den XXL'ye bedenler."},
		},
		Specs: map[string][][2]string{
			"en": {{"Colour", "Black"}, {"Material", "100% cotton"}},
			"de": {{"Farbe", "Schwarz"}, {"Material", "100 % Baumwolle"}},
			"tr": {{"Renk", "Siyah"}, {"Malzeme", "%100 pamuk"}},
		},
	},
	{
		Slug: "logo-hoodie-orange", SKU: "HD-ORG",
		Name:  map[string]string{"en": "Logo hoodie orange", "de": "Logo-Hoodie orange", "tr": "Logolu kapüşonlu turuncu"},
		Price: map[string]string{"en": "49.00", "de": "46.00", "tr": "1649.00"},
		Desc: map[string][]string{
			"en": {"A heavy cotton hoodie in Monero orange with the logo embroidered on the chest.", "Sizes S to XXL."},
			"de": {"Ein schwerer Baumwoll-Hoodie in Monero-Orange mit aufgesticktem Logo auf der Brust.", "Größen S bis XXL."},
			"tr": {"Göğsünde işlemeli logosu olan Monero turuncusu, kalın pamuklu kapüşonlu.", "S'den XXL'ye bedenler."},
		},
		Specs: map[string][][2]string{
			"en": {{"Colour", "Orange"}, {"Material", "100% cotton"}},
			"de": {{"Farbe", "Orange"}, {"Material", "100 % Baumwolle"}},
			"tr": {{"Renk", "Turuncu"}, {"Malzeme", "%100 pamuk"}},
		},
	},
}

// shownPrice formats a schema.org price the way each store shows it: "$299.00", "279,00 €",
// "9.999,00 TL".
func shownPrice(price, lang string) string {
	whole, frac := price, "00"
	for i := range price {
		if price[i] == '.' {
			whole, frac = price[:i], price[i+1:]
		}
	}
	sep := "."
	if lang == "en" {
		sep = ","
	}
	var grouped []byte
	for i := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			grouped = append(grouped, sep...)
		}
		grouped = append(grouped, whole[i])
	}
	switch lang {
	case "en":
		return "$" + string(grouped) + "." + frac
	case "de":
		return string(grouped) + "," + frac + " €"
	default:
		return string(grouped) + "," + frac + " TL"
	}
}
