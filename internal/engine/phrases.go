package engine

import "svc/internal/store"

// The fixed texts of a reply, per language and tone, come from the i18n catalog
// (replytexts.go). Lead-ins (leadin.go, leadFor) are short because every character of a
// reply is read by the visitor and counted in its length; the professional tone has no
// exclamation mark. Fallbacks say that the knowledge base has no answer and invite a
// rephrase; they never promise a hand-over, which the built-in engine cannot make.

type tonePhrases struct {
	fallback   string
	lang, tone string // what phrasesFor was asked for, after its defaults
}

// phrasesFor returns the texts for a language and tone, defaulting to English and the
// professional tone for values the engine does not know.
func phrasesFor(lang, tone string) tonePhrases {
	byTone, ok := replies.fallback[lang]
	if !ok {
		lang, byTone = "en", replies.fallback["en"]
	}
	f, ok := byTone[tone]
	if !ok {
		tone, f = store.ToneProfessional, byTone[store.ToneProfessional]
	}
	return tonePhrases{fallback: f, lang: lang, tone: tone}
}

// productIntro opens the sentence that lists a Sales Mode reply's products, by what the
// question asked. It stands instead of the lead-in, so it is the same in every tone.
type productIntro struct {
	list, recommend, compare, price, stock string
}
