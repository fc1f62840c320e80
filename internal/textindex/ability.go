package textindex

import (
	"strings"
	"unicode/utf8"

	"svc/internal/lang/lexicon"
)

// abilityMinRoot is the shortest verb root searched in place of its ability form: "al" and
// "ed" (alabilir, edebilir) would match far too much of the index as prefixes.
const abilityMinRoot = 3

// abilityEndings are the tense and person endings after the ability suffix -(y)abil-/-(y)ebil-,
// whose vowel is always "i" or nothing: -ir (yapabilir, yapabilirim), -iyor, -ecek/-eceğ, -di,
// -se, -me/-mek, -miş, -in. Any other letter after "abil"/"ebil" is some other word
// ("kabile", "mobilya" do not reach here).
var abilityEndings = lexicon.Default().Entries(lexicon.AbilityEndings, langTR)

// negAbility are the negative ability forms -(y)ama-/-(y)eme- with the endings that mark them
// as such (yapamaz, ödeyemem, gelemiyor, bulamadı, yapamayacak): "eme" and "ama" alone end
// many verbal nouns (ekleme, bekleme) that must keep their own terms.
var negAbility = lexicon.Default().Entries(lexicon.NegativeAbilityEndings, langTR)

// abilityRoot returns the verb root of a Turkish word with the ability suffix: "ödeyebilir"
// → "öde", "gelebilir mi" → "gel", "yapamaz" → "yap". A fixed-length prefix of the whole word
// ("ödeye") is a form no page writes, whereas pages use the root's other forms (ödeme,
// ödeyin); the root is then searched as a prefix. word is lower-cased, not folded.
func abilityRoot(word string) (string, bool) {
	for _, suf := range []string{"abil", "ebil"} {
		i := strings.LastIndex(word, suf)
		if i < 0 {
			continue
		}
		rest := word[i+len(suf):]
		if rest != "" && !hasAnyPrefix(rest, abilityEndings) {
			continue
		}
		if root, ok := trimRoot(word[:i]); ok {
			return root, true
		}
	}
	for _, neg := range negAbility {
		if i := strings.LastIndex(word, neg); i >= 0 {
			if root, ok := trimRoot(word[:i]); ok {
				return root, true
			}
		}
	}
	return "", false
}

// trimRoot drops the buffer "y" of a root that ends in a vowel (öde-y-ebil) and checks the
// root's length.
func trimRoot(root string) (string, bool) {
	if r, n := lastRune(root); r == 'y' && n > 0 {
		if prev, _ := lastRune(root[:len(root)-n]); strings.ContainsRune("aeıioöuü", prev) {
			root = root[:len(root)-n]
		}
	}
	return root, utf8.RuneCountInString(root) >= abilityMinRoot && !lightVerbRoots.Has(root)
}

// lightVerbRoots are the roots of Turkish light verbs, which form a verb phrase with the noun
// before them ("taksit yap-", "tercih eyle-"): as a prefix, "yap" would match every other
// phrase of a page built with it ("yapılabilir", "yapılır") and outweigh the sentence that
// answers ("Kaç taksit yapabiliyorsunuz?" quoted the card rule, not "9 taksit"). They keep
// the whole word's prefix, as before the ability rule. ("et-" and "ol-" are shorter than
// abilityMinRoot anyway.)
var lightVerbRoots = lexicon.Default().Set(lexicon.LightVerbRoots, langTR)

func lastRune(s string) (rune, int) { return utf8.DecodeLastRuneInString(s) }

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// AbilityRoot returns the verb root of a Turkish word written in the ability form
// ("kiralayabilir" → "kirala", "ödeyebilir" → "öde"), lower-cased; ok is false for any other
// word. A root at least as long as the prefix the index keeps has one term for all its
// forms, so the engine can tell that a KB without that term never uses the verb.
func AbilityRoot(word string) (string, bool) {
	toks := tokenize(word, langTR)
	if len(toks) != 1 || toks[0].hasDigit {
		return "", false
	}
	return abilityRoot(toks[0].text)
}
