package textindex

import (
	"strings"

	"svc/internal/lang/lexicon"
)

// Extends reports whether one analyzed term is the other plus more letters ("dau" and
// "dauert", "finanzi" and "finanziert"), with the shorter at least minLen letters long. The
// stemmers leave such pairs apart ("dauern" becomes "dau", "dauert" stays whole), so callers
// treat them as near matches. How short a stem may be depends on what is compared: ranking a
// term against a whole corpus needs a long stem to avoid matching unrelated words, while
// matching two whole questions can accept a shorter one because their other terms must agree
// too. Terms are ASCII-folded, so letters are bytes.
func Extends(a, b string, minLen int) bool {
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= minLen && short != long && strings.HasPrefix(long, short)
}

// germanVerbPrefixes are the prefixes a German verb takes without becoming another word
// often enough for a near match ("zahlen" and "bezahlen", "erstattet" and "zurückerstattet",
// "gezahlt" as the participle), folded as terms are. Some change the sense ("kaufen" and
// "verkaufen"), so a caller must have other evidence that two questions mean the same.
var germanVerbPrefixes = lexicon.Default().Entries(lexicon.VerbPrefixes, langDE)

// PrefixVariant reports whether, in German, one analyzed term is the other (or extends it)
// behind a verb prefix: "bezahl" and "zahl", "zuruckerstattet" and "erstatt". The rest after
// the prefix must be at least minLen letters. Other languages have no such variants here.
func PrefixVariant(a, b, lang string, minLen int) bool {
	if normLang(lang) != langDE {
		return false
	}
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	if len(short) < minLen {
		return false
	}
	for _, p := range germanVerbPrefixes {
		if rest, ok := strings.CutPrefix(long, p); ok && (rest == short || Extends(short, rest, minLen)) {
			return true
		}
	}
	return false
}

// minSeparableVerb is the shortest verb stem SeparableParts splits off ("geb" of "zugeben").
const minSeparableVerb = 3

// SeparableParts splits a German term that holds the "zu" of an infinitive between a verb
// prefix and its verb ("zuruckzuschick" of "zurückzuschicken", "anzuruf" of "anzurufen")
// into the prefix and the verb's term ("zuruck", "schick"). A page writes the verb without
// the "zu" ("zurückschicken"), or with the prefix apart in a main clause ("schicken Sie …
// zurück"), and the analyzer keeps the infinitive whole. ok is false for a
// term that is no such infinitive; a caller keeps the parts only where the KB has them, as
// a word that merely looks like one splits into parts no page uses.
func SeparableParts(term string) (prefix, verb string, ok bool) {
	for _, p := range germanVerbPrefixes {
		rest, found := strings.CutPrefix(term, p)
		if !found {
			continue
		}
		if v, found := strings.CutPrefix(rest, "zu"); found && len(v) >= minSeparableVerb {
			return p, v, true
		}
	}
	return "", "", false
}
