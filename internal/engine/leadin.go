package engine

import (
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
)

// A reply's lead-in says what kind of answer follows, the way a person behind a counter
// would: "Here is how it works:" before the steps of a how-to, "Short answer:" before a
// quote that itself opens with "Yes." or "No.". The tone adds a short opener in front ("Happy
// to help.", "Great question!"); the professional tone has none. Where a kind has two
// wordings, the question picks one (a hash of its text, so the same question always gets the
// same reply and the cache and the tests see a fixed text). The lead-in never states a fact:
// everything after it is quoted from the KB. Nor does it promise what the quote does not
// hold: "Here is when:" stands only before a quote with a date or a time (leadKindFor).

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

// leadFor is the lead-in of a reply to question that quotes quote, in p's language and tone.
// The wordings are the catalog's (replytexts.go).
func (p tonePhrases) leadFor(question, quote string) string {
	lg := p.lang
	if _, ok := replies.leads[lg]; !ok {
		lg = "en"
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(strings.ToLower(strings.TrimSpace(question))))
	pick := h.Sum32()
	kind := leadVerdict
	if !opensWithVerdict(quote, lg) {
		kind = leadKindFor(question, quote, lg)
	}
	ways := replies.leads[lg][kind]
	lead := ways[int(pick%uint32(len(ways)))]
	if openers := replies.openers[lg][p.tone]; len(openers) > 0 {
		lead = openers[int(pick>>8%uint32(len(openers)))] + " " + lead
	}
	return lead
}

// leadAsks is the kind of answer each lead-in that names one announces: "Here is what it
// costs:" promises an amount of money, "Here is when:" a date or a time. The other lead-ins
// announce a form (steps, a definition) or nothing, which any quote may follow.
var leadAsks = map[leadKind]qtype{
	leadPrice:    askPrice,
	leadDuration: askDuration,
	leadWhen:     askDate,
	leadPlace:    askPlace,
}

// leadKindFor is the kind of lead-in of a reply to question that quotes quote. A lead-in that
// names a kind of answer is a claim about the quote, so it is used only when the quote holds
// an answer of that kind (quoteHolds); a question of two parts ("who founded it, and
// when?") names the kind of whichever part the quote answers; otherwise the lead-in is the
// general one, which claims nothing.
func leadKindFor(question, quote, lg string) leadKind {
	kind := leadKindOf(question, lg)
	if _, names := leadAsks[kind]; !names {
		return kind
	}
	kinds := []leadKind{kind}
	if clauses := clauseBreak.Split(question, -1); len(clauses) > 1 {
		for _, c := range clauses {
			kinds = append(kinds, leadKindOf(c, lg))
		}
	}
	for _, k := range kinds {
		if ask, names := leadAsks[k]; names && quoteHolds(quote, ask, question, lg) {
			return k
		}
	}
	return leadGeneral
}

// quoteHolds reports whether quote holds an answer of kind to question: one of its sentences
// has the cue of that kind that extraction scores sentences by (hasCue: a date or a time, a
// number with a unit of time, a name, an amount with a currency), beyond what the question
// states itself; and the quote leaves out no name the question states (asked about the
// Ankara store, a quote about the Istanbul store holds no answer, whatever its hours).
func quoteHolds(quote string, kind qtype, question, lg string) bool {
	if hasCue(question, askPlace, lg, wordSet(quote, lg)) {
		return false
	}
	asked := wordSet(question, lg)
	for _, s := range splitSentences(quote, lg) {
		if hasCue(s.text, kind, lg, asked) {
			return true
		}
	}
	return false
}

// listIntent is the intent a product list opens with: a price question's list says "Here
// are the prices" only when the question asks for money in the words the lead-in reads
// (leadKindOf); "ne kadar sıcak tutar?" ("how warm does it keep?") has the product intent of
// a price, but the list that answers it is no list of prices.
func listIntent(question, lg string, intent Intent) Intent {
	if intent.Has(IntentPrice) && leadKindOf(question, lg) != leadPrice {
		intent &^= IntentPrice
	}
	return intent
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
