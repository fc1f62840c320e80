package textindex

import (
	"strings"

	"svc/internal/lang/lexicon"
)

// germanLinkSuffixes end the first part of a German compound: a
// derivational suffix followed by the linking "s" (Fugen-s), as in
// "Bevölkerungs|größe", "Sicherheits|hinweis", "Produktions|stätte".
// After these suffixes a linking "s" followed by more letters almost
// always marks a compound boundary, which makes them a safe,
// dictionary-free way to split the most common compounds.
var germanLinkSuffixes = lexicon.Default().Entries(lexicon.CompoundLinkSuffixes, langDE)

// minCompoundPart is the shortest head or tail we split off; shorter
// pieces are more often false splits than real words.
const minCompoundPart = 4

// germanCompoundParts splits a lower-cased German word at linking
// suffixes and returns the parts (each head without its linking "s"), or
// nil when the word is not recognised as such a compound.
func germanCompoundParts(word string) []string {
	var parts []string
	rest := word
	for {
		cut := -1
		for _, suf := range germanLinkSuffixes {
			i := strings.Index(rest, suf)
			for i >= 0 {
				head := rest[:i+len(suf)-1]
				tail := rest[i+len(suf):]
				if runeLen(head) >= minCompoundPart && runeLen(tail) >= minCompoundPart {
					if cut < 0 || i+len(suf) < cut {
						cut = i + len(suf)
					}
					break
				}
				j := strings.Index(rest[i+1:], suf)
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
		if cut < 0 {
			break
		}
		parts = append(parts, rest[:cut-1])
		rest = rest[cut:]
	}
	if len(parts) == 0 {
		return nil
	}
	return append(parts, rest)
}
