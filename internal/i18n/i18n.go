// Package i18n holds the user-facing text of the dashboard (and of anything else that opts
// in) in one catalog per language: catalog/en.json, catalog/tr.json and catalog/de.json,
// flat maps from a dotted key to a message. English is the reference: every key of it must
// exist in the other two with the same placeholders (the package's tests check), so a
// missing translation is a failing test, never a blank in a page.
//
// Messages use fmt verbs for their arguments (%s, %d, %[2]s when a language reorders them).
// Plurals are two keys, "<key>.one" and "<key>.other", chosen by N.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed catalog/*.json
var catalogFS embed.FS

// Langs are the supported languages, the reference first.
var Langs = []string{"en", "tr", "de"}

// Default is the language used when none is known.
const Default = "en"

// Catalog is every message in every language. It is read-only after Load.
type Catalog struct {
	msgs map[string]map[string]string // lang -> key -> message
}

// Load reads the embedded catalogs.
func Load() (*Catalog, error) { return LoadFS(catalogFS, "catalog") }

// MustLoad is Load for wiring where the embedded catalog is known to be valid (its tests
// prove it).
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(err)
	}
	return c
}

// LoadFS reads <dir>/<lang>.json for each language from fsys.
func LoadFS(fsys fs.FS, dir string) (*Catalog, error) {
	c := &Catalog{msgs: map[string]map[string]string{}}
	for _, lang := range Langs {
		b, err := fs.ReadFile(fsys, path.Join(dir, lang+".json"))
		if err != nil {
			return nil, fmt.Errorf("i18n: %w", err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("i18n: %s.json: %w", lang, err)
		}
		c.msgs[lang] = m
	}
	return c, nil
}

// Supported reports whether lang is one of Langs.
func Supported(lang string) bool { return slices.Contains(Langs, lang) }

// Has reports whether key exists in the reference language.
func (c *Catalog) Has(key string) bool {
	_, ok := c.msgs[Default][key]
	return ok
}

// Keys lists the keys of lang, sorted.
func (c *Catalog) Keys(lang string) []string {
	keys := make([]string, 0, len(c.msgs[lang]))
	for k := range c.msgs[lang] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Raw is the message of key in lang without formatting, and whether it exists there.
func (c *Catalog) Raw(lang, key string) (string, bool) {
	m, ok := c.msgs[lang][key]
	return m, ok
}

// T is the message of key in lang formatted with args. A key missing in lang falls back to
// English; a key missing everywhere is returned as itself, so a slip shows up in the page
// and in the template test rather than as an empty string.
func (c *Catalog) T(lang, key string, args ...any) string {
	m, ok := c.msgs[lang][key]
	if !ok {
		if m, ok = c.msgs[Default][key]; !ok {
			return key
		}
	}
	if len(args) == 0 {
		return m
	}
	return fmt.Sprintf(m, args...)
}

// N is the plural message of key for n ("<key>.one" when n is 1, else "<key>.other"),
// formatted with n first and then args.
func (c *Catalog) N(lang, key string, n int, args ...any) string {
	form := key + ".other"
	if n == 1 {
		form = key + ".one"
	}
	return c.T(lang, form, append([]any{n}, args...)...)
}

// Negotiate picks the first supported language of an Accept-Language header, or "".
func Negotiate(acceptLanguage string) string {
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if Supported(base) {
			return base
		}
	}
	return ""
}
