package engine

import (
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
)

// A reply's lead-in says what kind of answer follows, the way a person behind a counter
// would: "Here is how it works:" before the steps of a how-to, "Short answer:" before a
// quote that itself opens with "Yes." or "No.". The tone adds a short opener in front ("Happy
// to help.", "Great question!"); the professional tone has none. Where a kind has two
// wordings, the question picks one (a hash of its text, so the same question always gets the
// same reply and the cache and the tests see a fixed text). The lead-in never states a fact:
// everything after it is quoted from the KB.

// leadKind is the kind of answer a lead-in announces.
type leadKind int

const (
	leadGeneral leadKind = iota
	leadHowTo
	leadYesNo
	leadPrice
	leadDuration
	leadWhen
	leadPlace
	leadDefinition
	leadVerdict // the quote opens with its own yes or no
	leadKinds
)

// leadIns are the lead-ins per language and kind, in one or two wordings. Each ends with a
// colon, so any quoted sentence may follow it.
var leadIns = map[string][leadKinds][]string{
	"en": {
		leadGeneral:    {"Here is what our pages say:", "This is what we have on that:"},
		leadHowTo:      {"Here is how it works:", "This is how to go about it:"},
		leadYesNo:      {"Here is what our pages say about that:", "On that point, our pages say:"},
		leadPrice:      {"Here is what it costs:", "On the price, our pages say:"},
		leadDuration:   {"Here is how long it takes:", "As for the timing:"},
		leadWhen:       {"Here is when:", "As for the timing:"},
		leadPlace:      {"Here is where:", "As for the location:"},
		leadDefinition: {"Our pages explain it like this:", "In a nutshell:"},
		leadVerdict:    {"Short answer:", "In short:"},
	},
	"de": {
		leadGeneral:    {"Dazu steht auf unseren Seiten:", "Das finden Sie bei uns dazu:"},
		leadHowTo:      {"So geht es:", "So gehen Sie vor:"},
		leadYesNo:      {"Dazu steht auf unseren Seiten:", "Dazu können wir Ihnen Folgendes sagen:"},
		leadPrice:      {"Zu den Kosten:", "Zum Preis steht bei uns:"},
		leadDuration:   {"Zur Dauer:", "So lange dauert es:"},
		leadWhen:       {"Zu den Zeiten:", "Zum Zeitpunkt steht bei uns:"},
		leadPlace:      {"Zum Ort:", "Zum Standort steht bei uns:"},
		leadDefinition: {"Kurz erklärt:", "Unsere Seiten erklären es so:"},
		leadVerdict:    {"Kurz gesagt:", "Die kurze Antwort:"},
	},
	"tr": {
		leadGeneral:    {"Sayfalarımızdaki bilgi şöyle:", "Bu konuda sayfalarımızda şu yazıyor:"},
		leadHowTo:      {"Şöyle yapabilirsiniz:", "Nasıl yapılacağı şöyle:"},
		leadYesNo:      {"Bu konuda sayfalarımızda şu yazıyor:", "Sorunuzun yanıtı şöyle:"},
		leadPrice:      {"Fiyat bilgisi şöyle:", "Ücretle ilgili bilgi şöyle:"},
		leadDuration:   {"Süre bilgisi şöyle:", "Süreyle ilgili bilgi şöyle:"},
		leadWhen:       {"Zaman bilgisi şöyle:", "Gün ve saat bilgisi şöyle:"},
		leadPlace:      {"Konum bilgisi şöyle:", "Konumla ilgili bilgi şöyle:"},
		leadDefinition: {"Kısaca açıklayalım:", "Sayfalarımızdaki açıklama şöyle:"},
		leadVerdict:    {"Kısaca:", "Kısa yanıt:"},
	},
}

// toneOpeners go before the lead-in in the warm and energetic tones.
var toneOpeners = map[string]map[string][]string{
	"en": {store.ToneWarm: {"Happy to help.", "Glad you asked."}, store.ToneEnergetic: {"Great question!", "Good one!"}},
	"de": {store.ToneWarm: {"Gern helfe ich weiter.", "Sehr gern."}, store.ToneEnergetic: {"Gute Frage!", "Klar doch!"}},
	"tr": {store.ToneWarm: {"Memnuniyetle yardımcı olayım.", "Seve seve."}, store.ToneEnergetic: {"Harika soru!", "Hemen bakalım!"}},
}

// leadFor is the lead-in of a reply to question that quotes quote, in p's language and tone.
func (p tonePhrases) leadFor(question, quote string) string {
	lg := p.lang
	if _, ok := leadIns[lg]; !ok {
		lg = "en"
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(strings.ToLower(strings.TrimSpace(question))))
	pick := h.Sum32()
	kind := leadKindOf(question, lg)
	if opensWithVerdict(quote, lg) {
		kind = leadVerdict
	}
	ways := leadIns[lg][kind]
	lead := ways[int(pick%uint32(len(ways)))]
	if openers := toneOpeners[lg][p.tone]; len(openers) > 0 {
		lead = openers[int(pick>>8%uint32(len(openers)))] + " " + lead
	}
	return lead
}

// leadKindOf reads the kind of answer a question asks for: the answer type of its question
// phrase (qtype.go) where it names a duration, a date or a place, else its cue words (money,
// a period, opening hours) and its form (a how-to, a definition, a yes/no question).
func leadKindOf(question, lg string) leadKind {
	words := textindex.Words(question, lg)
	kind, _ := questionPhrase(question, lg)
	switch kind {
	case askDuration:
		return leadDuration
	case askDate:
		return leadWhen
	case askPlace:
		return leadPlace
	case askPerson:
		return leadGeneral
	}
	switch {
	case kind == askOther && isYesNo(words, lg):
		return leadYesNo
	case hasWord(words, priceWords[lg]) || kind == askNumber && startsWithAny(words, priceStarts[lg]):
		return leadPrice
	case hasWord(words, durationWords[lg]):
		return leadDuration
	case hasWord(words, hourWords[lg]):
		return leadWhen
	case kind == askNumber:
		return leadGeneral
	case startsWithAny(words, howToStarts[lg]) || hasWord(words, howToWords[lg]):
		return leadHowTo
	case startsWithAny(words, definitionStarts[lg]) || hasWord(words, definitionWords[lg]):
		return leadDefinition
	}
	return leadGeneral
}

// Cue words, folded as textindex.Words folds them; a trailing "*" matches any ending.
var (
	priceWords = map[string][]string{
		"en": {"cost", "costs", "price*", "fee", "fees", "charge", "charges", "charged", "expensive"},
		"de": {"kostet", "kosten", "preis*", "gebuhr*", "teuer"},
		"tr": {"fiyat*", "ucret*", "kaca", "pahali*"},
	}
	// priceStarts make a "how much" question one about money when nothing else is measured.
	priceStarts = map[string][][]string{
		"en": {{"how", "much", "is"}, {"how", "much", "are"}, {"how", "much", "for"}},
		"de": {{"wie", "viel", "ist"}},
	}
	durationWords = map[string][]string{
		"en": {"duration", "period"},
		"de": {"dauer*", "frist*", "lieferzeit*"},
		"tr": {"sure", "suresi*", "sureyle"},
	}
	hourWords = map[string][]string{
		"en": {"hours", "open", "opens", "close", "closes"},
		"de": {"offnungszeit*", "geoffnet", "offen", "offnet"},
		"tr": {"acik", "acil*", "kapan*", "kacta"},
	}
	howToStarts = map[string][][]string{
		"en": {{"how", "do"}, {"how", "does"}, {"how", "can"}, {"how", "could"}, {"how", "should"}, {"how", "to"},
			{"how", "would"}},
		"de": {{"wie"}},
	}
	howToWords = map[string][]string{
		"tr": {"nasil"},
	}
	definitionStarts = map[string][][]string{
		"en": {{"what", "is"}, {"what", "are"}, {"what", "s"}, {"what", "does"}},
		"de": {{"was", "ist"}, {"was", "sind"}, {"was", "bedeutet"}, {"was", "heisst"}},
	}
	definitionWords = map[string][]string{
		"tr": {"nedir", "nelerdir", "demek"},
	}
	// questionWords open a question that is not a yes/no question.
	questionWords = map[string][]string{
		"en": {"what", "which", "who", "whom", "whose", "where", "when", "why", "how"},
		"de": {"was", "welche*", "wer", "wen", "wem", "wessen", "wo", "wohin", "woher", "wann", "warum", "weshalb",
			"wieso", "wie", "womit", "wozu", "wofur", "woran", "worauf", "wieviel*"},
		"tr": {"ne", "neden", "nedir", "nasil", "nerede", "nereye", "nereden", "hangi", "kim*", "kac*", "nicin", "niye"},
	}
	// yesNoStarts open an English yes/no question.
	yesNoStarts = []string{"do", "does", "did", "can", "could", "is", "are", "was", "were", "will", "would",
		"should", "shall", "may", "might", "must", "have", "has", "am"}
)

// isYesNo reports whether a question asks for a yes or a no: in English it opens with an
// auxiliary verb; in German with a verb, told by a list of the usual ones ("Kann", "Gibt",
// "Ist") or by the pronoun after it ("Liefern Sie …?"); in Turkish it holds the question
// particle (mı, mi, mu, mü with its endings) and no question word.
func isYesNo(words []string, lg string) bool {
	if len(words) == 0 {
		return false
	}
	switch lg {
	case "en":
		return matchWord(words[0], yesNoStarts)
	case "de":
		return !matchWord(words[0], questionWords["de"]) &&
			(matchWord(words[0], germanVerbStarts) || len(words) > 1 && matchWord(words[1], germanPronouns))
	case "tr":
		if hasWord(words, questionWords["tr"]) {
			return false
		}
		for _, w := range words {
			if isTurkishParticle(w) {
				return true
			}
		}
	}
	return false
}

var (
	germanVerbStarts = []string{"kann", "kannst", "konnen", "konnt", "konnte", "darf", "durfen", "muss", "mussen",
		"soll", "sollte", "ist", "sind", "bin", "hat", "habt", "haben", "habe", "gibt", "gilt", "wird", "werden",
		"geht", "brauche", "braucht", "bekomme", "bekommt"}
	germanPronouns = []string{"ich", "du", "sie", "es", "man", "ihr", "wir", "er"}
)

// isTurkishParticle reports whether a folded word is the question particle: m + ı/i/u/ü
// (folded to i or u), alone or with a personal or copular ending ("misiniz", "muyum", "midir").
func isTurkishParticle(w string) bool {
	if len(w) < 2 || w[0] != 'm' || (w[1] != 'i' && w[1] != 'u') {
		return false
	}
	switch rest := w[2:]; rest {
	case "", "sin", "siniz", "sun", "sunuz", "yim", "yum", "yiz", "yuz", "dir", "dur", "ydi", "ydu":
		return true
	}
	return false
}

// opensWithVerdict reports whether a quote opens with its own yes or no ("Nein. Zölle …",
// "Yes, we ship …"): then a lead-in that announces a kind of answer would clash with it.
func opensWithVerdict(quote, lg string) bool {
	q := strings.TrimSpace(quote)
	end := strings.IndexFunc(q, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(q)
	}
	first := strings.ToLower(q[:end])
	for _, v := range verdicts[lg] {
		if first == v {
			return true
		}
	}
	return false
}

var verdicts = map[string][]string{
	"en": {"yes", "no"},
	"de": {"ja", "nein"},
	"tr": {"evet", "hayır"},
}

// hasWord reports whether one of words matches one of cues (a cue ending in "*" is a prefix).
func hasWord(words, cues []string) bool {
	for _, w := range words {
		if matchWord(w, cues) {
			return true
		}
	}
	return false
}

func matchWord(w string, cues []string) bool {
	return slices.ContainsFunc(cues, func(c string) bool { return bm25.MatchWord(c, w) })
}

// startsWithAny reports whether words open with one of the word sequences.
func startsWithAny(words []string, starts [][]string) bool {
	for _, s := range starts {
		if len(words) >= len(s) && phraseAt(words[:len(s)], s) == 0 {
			return true
		}
	}
	return false
}
