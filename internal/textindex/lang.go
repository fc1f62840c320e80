package textindex

import "strings"

// Supported languages. Anything else is analyzed like English, because
// English rules (no apostrophe suffix dropping, a light stemmer) do the
// least damage to text in an unknown language.
const (
	langEN = "en"
	langDE = "de"
	langTR = "tr"
)

// normLang maps a caller's language tag ("tr", "TR", "de-AT", "en_GB", "")
// to one of the three supported languages.
func normLang(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	switch lang {
	case langTR, langDE:
		return lang
	default:
		return langEN
	}
}
