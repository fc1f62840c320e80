// Package smalltalk recognises messages that are only a greeting, a
// thank-you or a goodbye and answers them locally, so they cost neither
// a knowledge-base search nor a language-model call, and never produce a
// "no answer found" reply to "hi".
package smalltalk

import "svc/internal/textindex"

// Kind of small talk.
type Kind string

// The kinds of small talk Match recognises.
const (
	Greeting Kind = "greeting"
	Thanks   Kind = "thanks"
	Goodbye  Kind = "goodbye"
)

// maxWords bounds the messages Match considers: small talk is short, and
// a long message is a question even if it starts with "hello".
const maxWords = 12

// Match reports whether text is only small talk (a greeting, thanks or
// goodbye, possibly with punctuation, emoji, "hi there", "good morning",
// "guten Tag", "iyi günler", "selam", "merhaba!", "thank you so much",
// "vielen Dank", "çok teşekkürler", "tschüss", "görüşürüz"). It returns
// the kind and the language the phrase belongs to ("" when the phrase is
// shared by several languages, like "ok" or "hi"). A message that asks
// something besides ("hi, where is my order?") is NOT small talk.
//
// A message may chain phrases ("hi, thanks, bye"); the kind is then the
// one that ends a conversation soonest: goodbye over thanks over
// greeting, because that is what the reply should acknowledge.
func Match(text string) (kind Kind, lang string, ok bool) {
	// "en" lower-cases "I" to "i" and keeps apostrophe pieces ("wie
	// geht's" -> wie geht s); folding makes "tesekkurler" equal
	// "teşekkürler" and "tschuss" equal "tschüss".
	words := textindex.Words(text, "en")
	if len(words) == 0 || len(words) > maxWords {
		return "", "", false
	}
	// The phrases cover the words entirely, longer ones preferred; the matcher backtracks, so
	// a short phrase that blocks a longer match later on does not cause a miss.
	used, covered := phrases.Cover(words)
	if !covered {
		return "", "", false
	}
	langs := map[string]bool{}
	for _, p := range used {
		if k := Kind(p.Label); rank(k) > rank(kind) {
			kind = k
		}
		if p.Lang != "" {
			langs[p.Lang] = true
		}
	}
	if kind == "" {
		return "", "", false // only filler words, such as "you too"
	}
	if len(langs) == 1 {
		for l := range langs {
			lang = l
		}
	}
	return kind, lang, true
}

// rank orders kinds for chained phrases; fillers have no kind.
func rank(k Kind) int {
	switch k {
	case Greeting:
		return 1
	case Thanks:
		return 2
	case Goodbye:
		return 3
	}
	return 0
}
