package lexicon

// Kind is the shape of a list's entries.
type Kind int

// The kinds of list.
const (
	Words    Kind = iota + 1 // words separated by white space, any number per line
	Phrases                  // one word or phrase per line
	Groups                   // one group of space-separated words per line
	Table                    // one "key = value" per line
	Sections                 // named sections ("[name]" lines) of one phrase per line
)

func (k Kind) String() string {
	switch k {
	case Words:
		return "words"
	case Phrases:
		return "phrases"
	case Groups:
		return "groups"
	case Table:
		return "table"
	case Sections:
		return "sections"
	}
	return "unknown"
}

// Flag is a rule a list's entries keep beyond those every list keeps (NFC, no duplicate).
type Flag int

// The flags.
const (
	// ASCII: entries (and table keys) are ASCII-folded, for code that compares folded words.
	ASCII Flag = 1 << iota
	// Cased: entries may hold capitals; without it every entry and table key is lower case.
	Cased
	// Numeric: table values are numbers.
	Numeric
	// AllowEmpty: a line may be the empty entry, written "-" (an ending that adds nothing).
	AllowEmpty
	// Sparse: a language's file may hold no entry (its comment says why).
	Sparse
)

// List names one list the code reads. The values are declared in lists.go; a data file
// whose name is not one of them fails validation.
type List struct {
	Name   string
	Shared bool   // one file for all languages (data/all) rather than one per language
	Only   string // the one language the list exists for ("tr" for Turkish suffixes), if any
	Kind   Kind
	Flags  Flag
	For    string // what the list is for (ARCHITECTURE.md's table is built from these)
}

func (l List) has(f Flag) bool { return l.Flags&f != 0 }

// langs are the languages every per-language list must have a file for.
var langs = [...]string{"en", "de", "tr"}

// Languages returns the languages every per-language list has a file for.
func Languages() []string { return langs[:len(langs):len(langs)] }
