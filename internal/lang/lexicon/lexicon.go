package lexicon

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

//go:embed data
var files embed.FS

// shared is the directory of the lists all languages share.
const shared = "all"

// Lexicon is the loaded, validated lists. It is immutable: accessors hand out copies or
// read-only views, so one value serves every goroutine.
type Lexicon struct {
	lists map[key]*entries
}

type key struct {
	name string
	lang string // "" for a shared list
}

// entries are one file's contents.
type entries struct {
	items  []string            // words, phrases, or table keys, in file order
	set    map[string]struct{} // items as a set
	values map[string]string   // table: key → value
	groups [][]string          // groups: members per line
	// sections: the named sections in file order; items then holds the section names.
	sections []Section
}

// Section is one named section of a Sections list.
type Section struct {
	Name    string
	Entries []string
}

// Default returns the lexicon built from the embedded files. It is loaded on first use and
// shared from then on; the files are part of the binary and TestEmbeddedData validates them,
// so a load error is a build defect and panics rather than being handed to every caller.
// Code that wants the error (a test of broken data) calls Load.
//
// Why a package-level value rather than one passed down: the lists are read by package-level
// functions deep in the analyzers (textindex.Words, lang.Detect, grounding's scanners) that
// have no configuration to carry it, the value never changes after the load, and the data is
// compiled in, so there is nothing a caller could configure.
var Default = sync.OnceValue(func() *Lexicon {
	lx, err := Load(files)
	if err != nil {
		panic(fmt.Sprintf("lexicon: embedded data: %v", err))
	}
	return lx
})

// Load reads and validates every list of fsys (laid out as data/<lang>/<list>.txt and
// data/all/<list>.txt). Every problem found is reported, not just the first.
func Load(fsys fs.FS) (*Lexicon, error) {
	lx := &Lexicon{lists: make(map[key]*entries)}
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	known := make(map[string]List, len(registry))
	for _, l := range registry {
		if _, dup := known[l.Name]; dup {
			fail("lists.go: list %s declared twice", l.Name)
		}
		known[l.Name] = l
	}
	dirs, err := fs.ReadDir(fsys, "data")
	if err != nil {
		return nil, fmt.Errorf("lexicon: read data: %w", err)
	}
	for _, d := range dirs {
		dir := d.Name()
		if !d.IsDir() || (dir != shared && !slices.Contains(langs[:], dir)) {
			fail("data/%s: not a language directory (all, %s)", dir, strings.Join(langs[:], ", "))
			continue
		}
		fsEntries, err := fs.ReadDir(fsys, path.Join("data", dir))
		if err != nil {
			return nil, fmt.Errorf("lexicon: read data/%s: %w", dir, err)
		}
		for _, f := range fsEntries {
			file := path.Join("data", dir, f.Name())
			name, ok := strings.CutSuffix(f.Name(), ".txt")
			l, isKnown := known[name]
			switch {
			case f.IsDir() || !ok:
				fail("%s: not a list file (<name>.txt)", file)
				continue
			case !isKnown:
				fail("%s: no list of that name in lists.go", file)
				continue
			case l.Shared != (dir == shared) || l.Only != "" && l.Only != dir:
				fail("%s: list %s belongs in %s", file, name, where(l))
				continue
			}
			data, err := fs.ReadFile(fsys, file)
			if err != nil {
				return nil, fmt.Errorf("lexicon: read %s: %w", file, err)
			}
			lang := dir
			if l.Shared {
				lang = ""
			}
			e, problems := parse(l, string(data))
			for _, p := range problems {
				fail("%s:%s", file, p)
			}
			lx.lists[key{name, lang}] = e
		}
	}
	for _, l := range registry {
		for _, lang := range listLangs(l) {
			if _, ok := lx.lists[key{l.Name, lang}]; !ok {
				dir := lang
				if l.Shared {
					dir = shared
				}
				fail("list %s: no file data/%s/%s.txt", l.Name, dir, l.Name)
			}
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return nil, fmt.Errorf("lexicon: %d problems:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	return lx, nil
}

// listLangs are the keys a list's files are stored under.
func listLangs(l List) []string {
	switch {
	case l.Shared:
		return []string{""}
	case l.Only != "":
		return []string{l.Only}
	}
	return langs[:]
}

func where(l List) string {
	switch {
	case l.Shared:
		return "data/" + shared + "/"
	case l.Only != "":
		return "data/" + l.Only + "/"
	}
	return "data/<lang>/"
}

// parse reads one file of list l and checks its entries.
func parse(l List, text string) (*entries, []string) {
	e := &entries{set: make(map[string]struct{})}
	var problems []string
	bad := func(n int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%d: ", n)+fmt.Sprintf(format, args...))
	}
	member := make(map[string]int) // groups: member → line
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || line == "#" || strings.HasPrefix(line, "# ") {
			continue // a comment is "#" and a space, so "#num" can be an entry
		}
		if !norm.NFC.IsNormalString(line) {
			bad(n, "not NFC: %q", line)
		}
		items, value := []string{strings.Join(strings.Fields(line), " ")}, ""
		if l.Kind == Sections {
			if !strings.HasPrefix(items[0], "[") {
				for _, p := range checkItem(l, items[0]) {
					bad(n, "%s", p)
				}
			}
			parseSection(e, n, items[0], bad)
			continue
		}
		switch l.Kind {
		case Words:
			items = strings.Fields(line)
		case Table:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				bad(n, "a table line is key = value: %q", line)
				continue
			}
			items, value = []string{strings.Join(strings.Fields(k), " ")}, strings.TrimSpace(v)
			if l.has(Numeric) {
				if _, err := strconv.ParseFloat(value, 64); err != nil {
					bad(n, "value of %q is not a number: %q", items[0], value)
				}
			}
		}
		for _, item := range items {
			if item == "-" && l.has(AllowEmpty) {
				item = ""
			}
			for _, p := range checkItem(l, item) {
				bad(n, "%s", p)
			}
			if _, dup := e.set[item]; dup {
				bad(n, "%q listed twice", item)
				continue
			}
			e.set[item] = struct{}{}
			e.items = append(e.items, item)
			switch l.Kind {
			case Table:
				if e.values == nil {
					e.values = make(map[string]string)
				}
				e.values[item] = value
			case Groups:
				g := strings.Fields(item)
				for _, m := range g {
					if at, dup := member[m]; dup {
						bad(n, "%q is in the group of line %d too", m, at)
					}
					member[m] = n
				}
				e.groups = append(e.groups, g)
			}
		}
	}
	return e, problems
}

// parseSection adds one line of a Sections list: a "[name]" header or an entry of the
// current section.
func parseSection(e *entries, n int, line string, bad func(int, string, ...any)) {
	if name, ok := strings.CutPrefix(line, "["); ok {
		name, ok = strings.CutSuffix(name, "]")
		if !ok || name == "" {
			bad(n, "a section header is [name]: %q", line)
			return
		}
		if _, dup := e.set[name]; dup {
			bad(n, "section [%s] defined twice", name)
		}
		e.set[name] = struct{}{}
		e.items = append(e.items, name)
		e.sections = append(e.sections, Section{Name: name})
		return
	}
	if len(e.sections) == 0 {
		bad(n, "entry %q before any [section]", line)
		return
	}
	sec := &e.sections[len(e.sections)-1]
	if slices.Contains(sec.Entries, line) {
		bad(n, "%q listed twice in [%s]", line, sec.Name)
		return
	}
	sec.Entries = append(sec.Entries, line)
}

// checkItem applies l's rules to one entry (or table key).
func checkItem(l List, item string) []string {
	var out []string
	if item == "" && !l.has(AllowEmpty) {
		out = append(out, "empty entry")
	}
	if !l.has(Cased) && strings.ToLower(item) != item {
		out = append(out, fmt.Sprintf("%q: not lower case", item))
	}
	if l.has(ASCII) {
		for _, r := range item {
			if r > unicode.MaxASCII {
				out = append(out, fmt.Sprintf("%q: not ASCII-folded", item))
				break
			}
		}
	}
	return out
}

// lookup returns the entries of l in lang. A per-language list asked for in a language it
// has no file for is empty, the way a map keyed by language answers an unknown one; lang is
// ignored for a shared list. Reading a list as the wrong kind is a programming error that
// the callers' tests catch on first use, so it panics.
func (lx *Lexicon) lookup(l List, lang string, kinds ...Kind) *entries {
	if !slices.Contains(kinds, l.Kind) {
		panic(fmt.Sprintf("lexicon: list %s is a %s list, read as %v", l.Name, l.Kind, kinds))
	}
	if l.Shared {
		lang = ""
	}
	if e, ok := lx.lists[key{l.Name, lang}]; ok {
		return e
	}
	return &entries{}
}

// Set returns the entries of a words or phrases list (a table's keys) as a set.
func (lx *Lexicon) Set(l List, lang string) Set {
	return Set{m: lx.lookup(l, lang, Words, Phrases, Table).set}
}

// Entries returns the entries of a words or phrases list (a table's keys), in file order.
// The slice is the caller's.
func (lx *Lexicon) Entries(l List, lang string) []string {
	return slices.Clone(lx.lookup(l, lang, Words, Phrases, Table).items)
}

// Groups returns the groups of a groups list, in file order. The slices are the caller's.
func (lx *Lexicon) Groups(l List, lang string) [][]string {
	gs := lx.lookup(l, lang, Groups).groups
	out := make([][]string, len(gs))
	for i, g := range gs {
		out[i] = slices.Clone(g)
	}
	return out
}

// Sections returns the sections of a Sections list, in file order. The slices are the
// caller's.
func (lx *Lexicon) Sections(l List, lang string) []Section {
	ss := lx.lookup(l, lang, Sections).sections
	out := make([]Section, len(ss))
	for i, s := range ss {
		out[i] = Section{Name: s.Name, Entries: slices.Clone(s.Entries)}
	}
	return out
}

// Table returns a table list.
func (lx *Lexicon) Table(l List, lang string) TableView {
	e := lx.lookup(l, lang, Table)
	return TableView{keys: e.items, values: e.values}
}

// Set is a read-only set of words or phrases.
type Set struct{ m map[string]struct{} }

// Has reports whether w is in the set.
func (s Set) Has(w string) bool {
	_, ok := s.m[w]
	return ok
}

// Len is the number of entries.
func (s Set) Len() int { return len(s.m) }

// TableView is a read-only table.
type TableView struct {
	keys   []string
	values map[string]string
}

// Get returns the value of key k.
func (t TableView) Get(k string) (string, bool) {
	v, ok := t.values[k]
	return v, ok
}

// Float returns the value of key k as a number (a Numeric table's values are validated).
func (t TableView) Float(k string) (float64, bool) {
	v, ok := t.values[k]
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

// Keys returns the keys in file order. The slice is the caller's.
func (t TableView) Keys() []string { return slices.Clone(t.keys) }

// Len is the number of keys.
func (t TableView) Len() int { return len(t.keys) }
