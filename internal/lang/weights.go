package lang

// Evidence weights. A known word is the strongest sign after a
// distinctive letter; stems and suffixes are weaker because they can
// occur by chance in the other languages; letter patterns are weak hints
// that only matter when nothing else is known.
const (
	wordWeight    = 2.0
	stemWeight    = 1.5
	suffixWeight  = 1.0
	patternWeight = 0.4
	minSuffixStem = 3
)

// letterWeights scores single letters, per language (en, de, tr).
// ı ğ ş and İ exist only in Turkish, ä and ß only in German; ö and ü are
// shared by both, and ç â î û lean Turkish.
var letterWeights = map[rune]scores{
	'ı': {tr: 2},
	'ğ': {tr: 2},
	'ş': {tr: 2},
	'İ': {tr: 2},
	'ç': {tr: 1.5},
	'â': {tr: 0.5},
	'î': {tr: 0.5},
	'û': {tr: 0.5},
	'ä': {de: 2},
	'ß': {de: 2},
	'ö': {de: 0.5, tr: 0.5},
	'ü': {de: 0.5, tr: 0.5},
}
