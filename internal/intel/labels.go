package intel

import (
	"svc/internal/engine"
	"svc/internal/lang"
)

// labels are the fixed words of shaped results in one language: column headers, headings
// and the sentences that say the knowledge base has nothing. They are added after Guard, so
// they state nothing about the business.
type labels struct {
	answer, source, sources, link                  string
	keyPoints, point                               string
	comparison, product, price, category, details  string
	verdict                                        string
	field, value, evidence                         string
	noAnswer, noPoints, noProducts, notStated      string
	openQuote, closeQuote                          string
	attrs                                          map[string]string // Attribute.Key -> label
	dataName, dataURL, dataDesc, dataImage, langLb string
	question, kind, slug, count                    string
}

var allLabels = map[string]labels{
	lang.EN: {
		answer: "Answer", sources: "Sources", link: "Link",
		keyPoints: "Key points", point: "Key point",
		comparison: "Comparison", product: "Product", price: "Price", category: "Category", details: "Details",
		verdict: "Verdict",
		field:   "Field", value: "Value", evidence: "Evidence",
		noAnswer:   "The knowledge base does not answer this question.",
		noPoints:   "The knowledge base has nothing on this topic.",
		noProducts: "No matching products were found in the knowledge base.",
		notStated:  "not stated in the knowledge base",
		openQuote:  "“", closeQuote: "”",
		attrs: map[string]string{
			"weight": "Weight", "capacity": "Capacity", "waterproof_rating": "Waterproof rating",
			"temperature": "Temperature", "length": "Length", "sizes": "Sizes", "material": "Material",
		},
		dataName: "Name", dataURL: "URL", dataDesc: "Description", dataImage: "Image", langLb: "Language",
		question: "Question", kind: "Kind", slug: "Slug", count: "Count",
	},
	lang.TR: {
		answer: "Yanıt", sources: "Kaynaklar", link: "Bağlantı",
		keyPoints: "Öne çıkan noktalar", point: "Önemli nokta",
		comparison: "Karşılaştırma", product: "Ürün", price: "Fiyat", category: "Kategori", details: "Ayrıntılar",
		verdict: "Değerlendirme",
		field:   "Alan", value: "Değer", evidence: "Dayanak",
		noAnswer:   "Bilgi bankasında bu sorunun yanıtı bulunamadı.",
		noPoints:   "Bilgi bankasında bu konuyla ilgili bilgi bulunamadı.",
		noProducts: "Bilgi bankasında eşleşen ürün bulunamadı.",
		notStated:  "bilgi bankasında belirtilmemiş",
		openQuote:  "“", closeQuote: "”",
		attrs: map[string]string{
			"weight": "Ağırlık", "capacity": "Hacim", "waterproof_rating": "Su sütunu",
			"temperature": "Sıcaklık", "length": "Boy", "sizes": "Beden/numara", "material": "Malzeme",
		},
		dataName: "Ad", dataURL: "URL", dataDesc: "Açıklama", dataImage: "Görsel", langLb: "Dil",
		question: "Soru", kind: "Tür", slug: "Kısa ad", count: "Sayı",
	},
	lang.DE: {
		answer: "Antwort", sources: "Quellen", link: "Link",
		keyPoints: "Die wichtigsten Punkte", point: "Kernaussage",
		comparison: "Vergleich", product: "Produkt", price: "Preis", category: "Kategorie", details: "Details",
		verdict: "Fazit",
		field:   "Feld", value: "Wert", evidence: "Beleg",
		noAnswer:   "Die Wissensdatenbank beantwortet diese Frage nicht.",
		noPoints:   "Die Wissensdatenbank enthält nichts zu diesem Thema.",
		noProducts: "In der Wissensdatenbank wurden keine passenden Produkte gefunden.",
		notStated:  "in der Wissensdatenbank nicht angegeben",
		openQuote:  "„", closeQuote: "“",
		attrs: map[string]string{
			"weight": "Gewicht", "capacity": "Volumen", "waterproof_rating": "Wassersäule",
			"temperature": "Temperatur", "length": "Länge", "sizes": "Größen", "material": "Material",
		},
		dataName: "Name", dataURL: "URL", dataDesc: "Beschreibung", dataImage: "Bild", langLb: "Sprache",
		question: "Frage", kind: "Art", slug: "Kurzname", count: "Anzahl",
	},
}

// labelsFor returns the labels of lg, English for anything else. The source label is the
// engine's, the one its replies' source lines use.
func labelsFor(lg string) labels {
	l, ok := allLabels[lg]
	if !ok {
		l = allLabels[lang.EN]
	}
	l.source = engine.SourceLabel(lg)
	return l
}

// attrLabel is the label of an attribute key in lg: the known keys are translated, a
// model's own key is shown with spaces and a capital.
func attrLabel(key, lg string) string {
	if l, ok := labelsFor(lg).attrs[key]; ok {
		return l
	}
	b := []rune(key)
	for i, r := range b {
		if r == '_' || r == '-' {
			b[i] = ' '
		}
	}
	if len(b) > 0 && b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
