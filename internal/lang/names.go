package lang

import "svc/internal/lang/lexicon"

// EnglishName returns the English name of a reply language ("Turkish" for "tr"), the way
// prompts to a language model name it, and whether code is one of the three languages.
func EnglishName(code string) (string, bool) {
	return lexicon.Default().Table(lexicon.LanguageNames, "").Get(code)
}
