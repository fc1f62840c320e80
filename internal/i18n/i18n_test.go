package i18n

import (
	"regexp"
	"slices"
	"testing"
)

var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[sdvfqx%]`)

// verbs lists a message's fmt verbs with explicit indexes made positional, so "%s … %d" and
// "%[2]d … %[1]s" compare equal.
func verbs(m string) []string {
	var out []string
	pos := 0
	for _, v := range verb.FindAllStringSubmatch(m, -1) {
		if v[0] == "%%" {
			continue
		}
		idx := v[1]
		if idx == "" {
			pos++
			idx = "[" + string(rune('0'+pos)) + "]"
		}
		out = append(out, idx+v[0][len(v[0])-1:])
	}
	slices.Sort(out)
	return out
}

func TestEveryLanguageHasEveryKeyWithTheSameArguments(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	ref := c.Keys(Default)
	if len(ref) == 0 {
		t.Fatal("the English catalog is empty")
	}
	for _, lang := range Langs[1:] {
		if got := c.Keys(lang); !slices.Equal(got, ref) {
			for _, k := range ref {
				if _, ok := c.Raw(lang, k); !ok {
					t.Errorf("%s: missing %q", lang, k)
				}
			}
			for _, k := range got {
				if !c.Has(k) {
					t.Errorf("%s: %q is not in the English catalog", lang, k)
				}
			}
		}
		for _, k := range ref {
			en, _ := c.Raw(Default, k)
			m, ok := c.Raw(lang, k)
			if !ok {
				continue
			}
			if m == "" {
				t.Errorf("%s: %q is empty", lang, k)
			}
			if !slices.Equal(verbs(en), verbs(m)) {
				t.Errorf("%s: %q has arguments %v, English %v", lang, k, verbs(m), verbs(en))
			}
		}
	}
}

func TestTFallsBackAndFormats(t *testing.T) {
	c := &Catalog{msgs: map[string]map[string]string{
		"en": {"a": "Hello %s", "n.one": "%d item", "n.other": "%d items"},
		"tr": {"a": "Merhaba %s"},
		"de": {},
	}}
	if got := c.T("tr", "a", "Ada"); got != "Merhaba Ada" {
		t.Errorf("tr: %q", got)
	}
	if got := c.T("de", "a", "Ada"); got != "Hello Ada" {
		t.Errorf("fallback: %q", got)
	}
	if got := c.T("en", "nope"); got != "nope" {
		t.Errorf("missing: %q", got)
	}
	if got := c.N("en", "n", 1); got != "1 item" {
		t.Errorf("one: %q", got)
	}
	if got := c.N("en", "n", 3); got != "3 items" {
		t.Errorf("other: %q", got)
	}
}

func TestNegotiate(t *testing.T) {
	for in, want := range map[string]string{
		"de-DE,de;q=0.9,en;q=0.8": "de",
		"fr-FR, tr;q=0.5":         "tr",
		"fr":                      "",
		"":                        "",
		"EN-gb":                   "en",
	} {
		if got := Negotiate(in); got != want {
			t.Errorf("Negotiate(%q) = %q, want %q", in, got, want)
		}
	}
}
