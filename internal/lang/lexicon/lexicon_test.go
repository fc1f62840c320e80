package lexicon

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestEmbeddedData loads the embedded files: every declared list has its files, and every
// file keeps its list's rules.
func TestEmbeddedData(t *testing.T) {
	t.Parallel()
	lx, err := Load(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range registry {
		for _, lang := range listLangs(l) {
			e, ok := lx.lists[key{l.Name, lang}]
			if !ok || len(e.items) == 0 && !l.has(Sparse) {
				t.Errorf("list %s (%q) is empty", l.Name, lang)
			}
		}
		if l.For == "" {
			t.Errorf("list %s does not say what it is for", l.Name)
		}
	}
	if Default() == nil {
		t.Fatal("Default returned nil")
	}
}

// TestNoListTwice fails when two lists hold the same entries: one of them is a copy that
// will drift from the other.
func TestNoListTwice(t *testing.T) {
	t.Parallel()
	lx := Default()
	seen := map[string]key{}
	for k, e := range lx.lists {
		sig := strings.Join(slices.Sorted(func(yield func(string) bool) {
			for _, it := range e.items {
				if !yield(it) {
					return
				}
			}
		}), "\x00")
		if e.values != nil {
			var kv []string
			for _, it := range e.items {
				kv = append(kv, it+"="+e.values[it])
			}
			slices.Sort(kv)
			sig = strings.Join(kv, "\x00")
		}
		if other, dup := seen[sig]; dup && len(e.items) > 1 {
			t.Errorf("lists %v and %v hold the same entries", k, other)
		}
		seen[sig] = k
	}
}

func TestLoadRejects(t *testing.T) {
	t.Parallel()
	good := func() fstest.MapFS {
		fs := fstest.MapFS{}
		for _, l := range registry {
			for _, lang := range listLangs(l) {
				dir := lang
				if dir == "" {
					dir = shared
				}
				line := "x"
				switch l.Kind {
				case Table:
					line = "x = 1"
				case Sections:
					line = "[s]\nx"
				}
				fs["data/"+dir+"/"+l.Name+".txt"] = &fstest.MapFile{Data: []byte("# comment\n" + line + "\n")}
			}
		}
		return fs
	}
	if _, err := Load(good()); err != nil {
		t.Fatalf("a minimal valid tree fails: %v", err)
	}
	perLang := ArticleNumbers // a per-language words list
	cases := []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"duplicate entry", func(fs fstest.MapFS) {
			fs["data/en/article_numbers.txt"] = &fstest.MapFile{Data: []byte("one\n# again\none\n")}
		}, `"one" listed twice`},
		{"unknown list", func(fs fstest.MapFS) {
			fs["data/en/no_such_list.txt"] = &fstest.MapFile{Data: []byte("x\n")}
		}, "no list of that name"},
		{"language missing", func(fs fstest.MapFS) { delete(fs, "data/tr/"+perLang.Name+".txt") }, "no file data/tr/article_numbers.txt"},
		{"shared list defined per language too", func(fs fstest.MapFS) {
			fs["data/de/language_names.txt"] = &fstest.MapFile{Data: []byte("de = German\n")}
		}, "belongs in data/all/"},
		{"not NFC", func(fs fstest.MapFS) {
			fs["data/de/article_numbers.txt"] = &fstest.MapFile{Data: []byte("fu\u0308nf\n")}
		}, "not NFC"},
		{"upper case", func(fs fstest.MapFS) {
			fs["data/de/article_numbers.txt"] = &fstest.MapFile{Data: []byte("Ein\n")}
		}, "not lower case"},
		{"not folded", func(fs fstest.MapFS) {
			fs["data/all/product_line_words.txt"] = &fstest.MapFile{Data: []byte("süper\n")}
		}, "not ASCII-folded"},
		{"duplicate on one line of a words list", func(fs fstest.MapFS) {
			fs["data/all/product_line_words.txt"] = &fstest.MapFile{Data: []byte("pro max pro\n")}
		}, `"pro" listed twice`},
		{"not a number", func(fs fstest.MapFS) {
			fs["data/en/number_words.txt"] = &fstest.MapFile{Data: []byte("two = zwei\n")}
		}, "not a number"},
		{"table line without value", func(fs fstest.MapFS) {
			fs["data/en/number_words.txt"] = &fstest.MapFile{Data: []byte("two\n")}
		}, "key = value"},
		{"section defined twice", func(fs fstest.MapFS) {
			fs["data/all/concept_phrases.txt"] = &fstest.MapFile{Data: []byte("[free]\nfree\n[free]\ngratis\n")}
		}, "section [free] defined twice"},
		{"entry before a section", func(fs fstest.MapFS) {
			fs["data/all/concept_phrases.txt"] = &fstest.MapFile{Data: []byte("free\n[free]\n")}
		}, "before any [section]"},
		{"phrase twice in a section", func(fs fstest.MapFS) {
			fs["data/all/concept_phrases.txt"] = &fstest.MapFile{Data: []byte("[free]\nfree\nfree\n")}
		}, `"free" listed twice in [free]`},
		{"stray directory", func(fs fstest.MapFS) {
			fs["data/fr/number_words.txt"] = &fstest.MapFile{Data: []byte("deux = 2\n")}
		}, "not a language directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := good()
			tc.change(fs)
			_, err := Load(fs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Load error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestAccessors(t *testing.T) {
	t.Parallel()
	lx := Default()
	if n, ok := lx.Table(LanguageNames, "").Get("de"); !ok || n != "German" {
		t.Errorf(`language_names["de"] = %q, %v`, n, ok)
	}
	if v, ok := lx.Table(NumberWords, "de").Float("dreißig"); !ok || v != 30 {
		t.Errorf(`number_words/de["dreißig"] = %v, %v`, v, ok)
	}
	if !lx.Set(ArticleNumbers, "tr").Has("bir") || lx.Set(ArticleNumbers, "en").Has("bir") {
		t.Error("article_numbers: bir must be Turkish only")
	}
	if lx.Set(ArticleNumbers, "fr").Len() != 0 {
		t.Error("a language without files must read as empty")
	}
	e := lx.Entries(ProductLineWords, "")
	e[0] = "changed"
	if lx.Entries(ProductLineWords, "")[0] == "changed" {
		t.Error("Entries handed out the lexicon's own slice")
	}
	defer func() {
		if recover() == nil {
			t.Error("reading a table as groups did not panic")
		}
	}()
	lx.Groups(NumberWords, "en")
}

// TestCountriesAgree holds the two country lists together: each country of country_cities
// has a name in every language, every named country has cities, and no city is in two
// countries.
func TestCountriesAgree(t *testing.T) {
	t.Parallel()
	lx := Default()
	cities := lx.Table(CountryCities, "")
	for _, lang := range Languages() {
		if !slices.Equal(lx.Table(CountryNames, lang).Keys(), cities.Keys()) {
			t.Errorf("country_names/%s lists %v, country_cities %v", lang, lx.Table(CountryNames, lang).Keys(), cities.Keys())
		}
	}
	seen := map[string]string{}
	for _, code := range cities.Keys() {
		places, _ := cities.Get(code)
		for _, p := range strings.Fields(places) {
			if other, dup := seen[p]; dup {
				t.Errorf("city %q is in %s and %s", p, other, code)
			}
			seen[p] = code
		}
	}
}
