package smalltalk

import (
	"strings"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// phraseLists are the lexicon's small-talk lists by kind; fillers ("there", "zusammen",
// "herkese") have an empty kind: they may accompany a phrase but are not small talk on their
// own. Each kind has a list per language and one shared by several (lang "").
var phraseLists = []struct {
	kind            Kind
	perLang, shared lexicon.List
}{
	{Greeting, lexicon.SmalltalkGreetings, lexicon.SmalltalkGreetingsShared},
	{Thanks, lexicon.SmalltalkThanks, lexicon.SmalltalkThanksShared},
	{Goodbye, lexicon.SmalltalkGoodbyes, lexicon.SmalltalkGoodbyesShared},
	{"", lexicon.SmalltalkFillers, lexicon.SmalltalkFillersShared},
}

// phrases matches the small-talk phrases, longest first, so cover tries "thank you so
// much"-style sequences before "thank". Built once, read-only afterwards.
var phrases = buildPhrases(lexicon.Default())

// buildPhrases runs every entry, written with natural spelling, through the same word
// splitting as the messages. The label of a phrase is its kind.
func buildPhrases(lx *lexicon.Lexicon) *lexicon.Matcher {
	var all []lexicon.Phrase
	add := func(text string, kind Kind, lang string) {
		all = append(all, lexicon.Phrase{Words: textindex.Words(text, "en"), Label: string(kind), Lang: lang})
	}
	for _, pl := range phraseLists {
		for _, lang := range append(lexicon.Languages(), "") {
			list := pl.perLang
			if lang == "" {
				list = pl.shared
			}
			for _, text := range lx.Entries(list, lang) {
				add(text, pl.kind, lang)
				// Folding turns "tschüss" into "tschuss"; visitors without
				// umlauts on their keyboard write "tschuess".
				if alt := umlautDigraphs.Replace(text); lang == "de" && alt != text {
					add(alt, pl.kind, lang)
				}
			}
		}
	}
	return lexicon.NewMatcher(all)
}

var umlautDigraphs = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue")
