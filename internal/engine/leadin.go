package engine

import (
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
	"svc/internal/textindex"
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

// The cue words and phrases of each language, folded as textindex.Words folds a question; a
// trailing "*" matches any ending. They live in the lexicon's data files (lead_price_words,
// question_words, yes_no_starts, …), read once here and read-only afterwards. A language
// without a list's cues has none (Turkish has no opening phrases: its question word comes
// anywhere, so it has how-to and definition words instead).
var (
	priceWords = cueWords(lexdata.LeadPriceWords)
	// priceStarts make a "how much" question one about money when nothing else is measured.
	priceStarts      = cueStarts(lexdata.LeadPriceStarts)
	durationWords    = cueWords(lexdata.LeadDurationWords)
	hourWords        = cueWords(lexdata.LeadHourWords)
	howToStarts      = cueStarts(lexdata.LeadHowToStarts)
	howToWords       = cueWords(lexdata.LeadHowToWords)
	definitionStarts = cueStarts(lexdata.LeadDefinitionStarts)
	definitionWords  = cueWords(lexdata.LeadDefinitionWords)
	// questionWords open a question that is not a yes/no question.
	questionWords = cueWords(lexdata.QuestionWords)
	// yesNoStarts are the verbs that open an English or German yes/no question.
	yesNoStarts = cueWords(lexdata.YesNoStarts)
	// germanPronouns tell a German verb that opens a question when yesNoStarts lack it.
	germanPronouns = lexdata.Default().Entries(lexdata.YesNoPronouns, "de")
	// particleEndings are the endings of the Turkish question particle, "" among them.
	particleEndings = lexdata.Default().Set(lexdata.QuestionParticleEndings, "tr")
	// verdicts are the words for yes and no, lower-cased, not folded.
	verdicts = cueWords(lexdata.VerdictWords)
)

// cueWords reads a words list of the lexicon per language.
func cueWords(l lexdata.List) map[string][]string {
	out := make(map[string][]string)
	for _, lg := range lexdata.Languages() {
		out[lg] = lexdata.Default().Entries(l, lg)
	}
	return out
}

// cueStarts reads a phrases list of the lexicon per language, each phrase as its words.
func cueStarts(l lexdata.List) map[string][][]string {
	out := make(map[string][][]string)
	for _, lg := range lexdata.Languages() {
		for _, phrase := range lexdata.Default().Entries(l, lg) {
			out[lg] = append(out[lg], strings.Fields(phrase))
		}
	}
	return out
}

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
		return matchWord(words[0], yesNoStarts["en"])
	case "de":
		return !matchWord(words[0], questionWords["de"]) &&
			(matchWord(words[0], yesNoStarts["de"]) || len(words) > 1 && matchWord(words[1], germanPronouns))
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

// isTurkishParticle reports whether a folded word is the question particle: m + ı/i/u/ü
// (folded to i or u), alone or with a personal or copular ending ("misiniz", "muyum", "midir").
func isTurkishParticle(w string) bool {
	if len(w) < 2 || w[0] != 'm' || (w[1] != 'i' && w[1] != 'u') {
		return false
	}
	return particleEndings.Has(w[2:])
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
	return slices.ContainsFunc(cues, func(c string) bool { return lexdata.MatchWord(c, w) })
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
