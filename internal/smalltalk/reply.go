package smalltalk

import (
	"strings"

	"svc/internal/lang/lexicon"
)

// Tone presets a business can choose for its assistant.
const (
	Professional = "professional"
	Warm         = "warm"
	Energetic    = "energetic"
)

// Reply returns the local answer for kind in lang ("tr", "en", "de") in
// the tone preset ("professional", "warm", "energetic"; unknown =
// professional). An unknown language gets English and an unknown kind
// the greeting, so there is always something sensible to say.
//
// Every reply steers the visitor back to asking about the business,
// which is what the assistant can actually do; none promises a human
// hand-over, because not every business offers one. Replies are fixed
// strings, so the same message always gets the same answer (and tests
// and caches stay deterministic).
func Reply(kind Kind, lang, tone string) string {
	tone = strings.ToLower(strings.TrimSpace(tone))
	if rank(kind) == 0 {
		kind = Greeting
	}
	if tone != Warm && tone != Energetic {
		tone = Professional
	}
	reply, _ := replies.Table(lexicon.SmalltalkReplies, replyLang(lang)).Get(string(kind) + "." + tone)
	return reply
}

// replyLang maps "TR", "de-AT" and the like to a reply language.
func replyLang(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	if lang == "tr" || lang == "de" {
		return lang
	}
	return "en"
}

// replies are the lexicon's small-talk replies, per language, keyed "kind.tone"
// (data/<lang>/smalltalk_replies.txt).
var replies = lexicon.Default()
