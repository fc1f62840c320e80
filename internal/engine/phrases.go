package engine

import "svc/internal/store"

// The fixed texts of a reply, per language and tone. Lead-ins (leadin.go, leadFor) are short
// because every character of a reply is read by the visitor and counted in its length; the
// professional tone has no exclamation mark. Fallbacks say that the knowledge base has no
// answer and invite a rephrase; they never promise a hand-over, which the built-in engine
// cannot make.

type tonePhrases struct {
	fallback   string
	lang, tone string // what phrasesFor was asked for, after its defaults
}

var phrases = map[string]map[string]tonePhrases{
	"en": {
		store.ToneProfessional: {
			fallback: "I could not find an answer to this in our knowledge base. Please try rephrasing your question.",
		},
		store.ToneWarm: {
			fallback: "Sorry, I couldn't find anything about that on our pages. Could you try asking in other words?",
		},
		store.ToneEnergetic: {
			fallback: "Hmm, our pages don't cover that yet! Try rephrasing your question and I'll look again.",
		},
	},
	"de": {
		store.ToneProfessional: {
			fallback: "Dazu habe ich in unserer Wissensdatenbank keine Antwort gefunden. Bitte formulieren Sie Ihre Frage anders.",
		},
		store.ToneWarm: {
			fallback: "Leider habe ich dazu auf unseren Seiten nichts gefunden. Möchten Sie die Frage vielleicht anders stellen?",
		},
		store.ToneEnergetic: {
			fallback: "Hoppla, dazu steht bei uns noch nichts! Formulieren Sie die Frage gern anders, dann suche ich gleich noch einmal.",
		},
	},
	"tr": {
		store.ToneProfessional: {
			fallback: "Bu soruya bilgi bankamızda bir yanıt bulamadım. Lütfen sorunuzu farklı bir şekilde sormayı deneyin.",
		},
		store.ToneWarm: {
			fallback: "Üzgünüm, sayfalarımızda bununla ilgili bir bilgi bulamadım. Sorunuzu başka kelimelerle sorabilir misiniz?",
		},
		store.ToneEnergetic: {
			fallback: "Hay aksi, bu konu sayfalarımızda henüz yok! Sorunuzu farklı sorarsanız hemen yeniden bakarım.",
		},
	},
}

// sourceLabels introduce the cited page.
var sourceLabels = map[string]string{
	"en": "Source",
	"de": "Quelle",
	"tr": "Kaynak",
}

// phrasesFor returns the texts for a language and tone, defaulting to English and the
// professional tone for values the engine does not know.
func phrasesFor(lang, tone string) tonePhrases {
	byTone, ok := phrases[lang]
	if !ok {
		lang, byTone = "en", phrases["en"]
	}
	p, ok := byTone[tone]
	if !ok {
		tone, p = store.ToneProfessional, byTone[store.ToneProfessional]
	}
	p.lang, p.tone = lang, tone
	return p
}

// productIntro opens the sentence that lists a Sales Mode reply's products, by what the
// question asked. It stands instead of the lead-in, so it is the same in every tone.
type productIntro struct {
	list, recommend, compare, price, stock string
}

var productIntros = map[string]productIntro{
	"en": {
		list:      "We have these products:",
		recommend: "These products of ours may suit you:",
		compare:   "You can compare these products:",
		price:     "Here are the prices:",
		stock:     "These products are in our range:",
	},
	"de": {
		list:      "Diese Produkte haben wir:",
		recommend: "Diese Produkte könnten zu Ihnen passen:",
		compare:   "Diese Produkte können Sie vergleichen:",
		price:     "Hier sind die Preise:",
		stock:     "Diese Produkte führen wir:",
	},
	"tr": {
		list:      "Şu ürünlerimiz var:",
		recommend: "Şu ürünlerimiz uygun olabilir:",
		compare:   "Karşılaştırabileceğiniz ürünlerimiz:",
		price:     "Fiyatlarımız:",
		stock:     "Bu ürünler ürün yelpazemizde:",
	},
}
