package bitcoinsite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// source is one reduced page of the shared folder.
type source struct {
	Lang, Slug  string // "de", "faq"; the home page's slug is "index"
	Path        string // its URL path: "/de/faq", "/de/"
	Title       string // <title>
	Heading     string // the text of the first <h1>, if any
	Description string
	// Alternates maps a language to the same page's path in it, as the page's
	// <link rel="alternate" hreflang> say (the page's own language included).
	Alternates map[string]string
	Main       string // the inner HTML of <main>
}

// pathOf is the URL path of a page: "/<lang>/" for the home page, else "/<lang>/<slug>".
func pathOf(lang, slug string) string {
	if slug == "index" {
		return "/" + lang + "/"
	}
	return "/" + lang + "/" + slug
}

// slugOf is the inverse of pathOf for a site-relative path, "" for one outside the languages.
func slugOf(p string) (lang, slug string) {
	parts := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)
	if len(parts) != 2 {
		return "", ""
	}
	if parts[1] == "" {
		return parts[0], "index"
	}
	return parts[0], parts[1]
}

// readSources reads every page of every language, sorted by language (in the order of langs)
// and slug.
func readSources(src string, langs []string) ([]source, error) {
	var out []source
	for _, lang := range langs {
		files, err := filepath.Glob(filepath.Join(src, "pages", lang, "*.html"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no pages in %s", filepath.Join(src, "pages", lang))
		}
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			s, err := parseSource(lang, strings.TrimSuffix(filepath.Base(f), ".html"), b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// parseSource reads the parts of a reduced page that the rendered page is built from.
func parseSource(lang, slug string, page []byte) (source, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return source{}, err
	}
	s := source{Lang: lang, Slug: slug, Path: pathOf(lang, slug), Alternates: map[string]string{}}
	var main *html.Node
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.DataAtom {
		case atom.Title:
			s.Title = strings.TrimSpace(text(n))
		case atom.Meta:
			if attr(n, "name") == "description" {
				s.Description = attr(n, "content")
			}
		case atom.Link:
			if attr(n, "rel") == "alternate" && attr(n, "hreflang") != "" {
				s.Alternates[attr(n, "hreflang")] = attr(n, "href")
			}
		case atom.H1:
			if s.Heading == "" {
				s.Heading = strings.Join(strings.Fields(text(n)), " ")
			}
		case atom.Main:
			if main == nil {
				main = n
			}
		}
	}
	if main == nil {
		return source{}, fmt.Errorf("no <main>")
	}
	if got := s.Alternates[lang]; got != s.Path {
		return source{}, fmt.Errorf("its own alternate is %q, want %q", got, s.Path)
	}
	var b strings.Builder
	for c := range main.ChildNodes() {
		if err := html.Render(&b, c); err != nil {
			return source{}, err
		}
	}
	s.Main = b.String()
	return s, nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
