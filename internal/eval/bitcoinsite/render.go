package bitcoinsite

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
)

// Page is one rendered page of the site.
type Page struct {
	Path  string // URL path, e.g. "/de/faq" or "/tr/"
	Lang  string // en, de or tr
	Key   string // the page's English slug, the same in every language ("faq" for /tr/sss)
	Title string // its heading, or its <title> where it has none
}

// chromeJSON holds the site furniture's words and structure (siteChrome).
//
//go:embed chrome.json
var chromeJSON []byte

// siteChrome is chrome.json: the languages in switcher order, the menu and section pages by
// key, the footer's links, and each language's words for them.
type siteChrome struct {
	Langs    []string `json:"langs"`
	Menu     []string `json:"menu"`
	Sections []struct {
		ID    string   `json:"id"`
		Pages []string `json:"pages"`
	} `json:"sections"`
	Footer []struct {
		Page string `json:"page"` // a page key, linked in the page's language or else in English
		ID   string `json:"id"`   // an outside link's label key
		URL  string `json:"url"`
	} `json:"footer"`
	Words map[string]words `json:"words"`
}

// words are the furniture's words in one language.
type words struct {
	Name, Site, Home, Language, Crumbs, Copyright, Chooser string
	Sections                                               map[string]string
	Footer                                                 map[string]string
}

func loadChrome() (siteChrome, error) {
	var c siteChrome
	if err := json.Unmarshal(chromeJSON, &c); err != nil {
		return c, fmt.Errorf("chrome.json: %w", err)
	}
	for _, l := range c.Langs {
		if _, ok := c.Words[l]; !ok {
			return c, fmt.Errorf("chrome.json: no words for %s", l)
		}
	}
	return c, nil
}

// link is a named URL; the last breadcrumb has none.
type link struct{ Name, URL string }

// view is what the page template needs.
type view struct {
	Lang, Title, Description, Path string
	W                              words
	Nav, Switch, Crumbs, Footer    []link
	Alternates                     []link // hreflang (Name) and href as the source page has them
	Body                           template.HTML
}

// Render writes the site built from the bitcoin-org folder src into out and returns its
// pages. Canonical links and the sitemap use the {{BASE}} placeholder that
// internal/crawl/crawltest replaces with the server's address.
func Render(src, out string) ([]Page, error) {
	c, err := loadChrome()
	if err != nil {
		return nil, err
	}
	srcs, err := readSources(src, c.Langs)
	if err != nil {
		return nil, err
	}
	// byKey finds a page of a language by its key.
	byKey := map[string]map[string]source{}
	keys := make([]string, len(srcs))
	for i, s := range srcs {
		keys[i] = keyOf(s)
		if byKey[keys[i]] == nil {
			byKey[keys[i]] = map[string]source{}
		}
		byKey[keys[i]][s.Lang] = s
	}
	section := map[string]string{}
	for _, sec := range c.Sections {
		for _, k := range sec.Pages {
			section[k] = sec.ID
		}
	}
	var pages []Page
	for i, s := range srcs {
		w := c.Words[s.Lang]
		home := link{w.Home, pathOf(s.Lang, "index")}
		v := view{Lang: s.Lang, Title: s.Title, Description: s.Description, Path: s.Path, W: w, Body: template.HTML(s.Main)}
		for _, k := range c.Menu {
			if p, ok := byKey[k][s.Lang]; ok {
				v.Nav = append(v.Nav, link{p.Heading, p.Path})
			}
		}
		for _, l := range c.Langs {
			if href, ok := s.Alternates[l]; ok {
				v.Switch = append(v.Switch, link{c.Words[l].Name, href})
				v.Alternates = append(v.Alternates, link{l, href})
			}
		}
		title := s.Heading
		if title == "" {
			title = s.Title
		}
		switch sec, ok := section[keys[i]]; {
		case keys[i] == "index":
			v.Crumbs = []link{{w.Home, ""}}
		case ok:
			v.Crumbs = []link{home, {w.Sections[sec], ""}, {title, ""}}
		default:
			v.Crumbs = []link{home, {title, ""}}
		}
		for _, f := range c.Footer {
			switch p, ok := byKey[f.Page][s.Lang]; {
			case f.URL != "":
				v.Footer = append(v.Footer, link{w.Footer[f.ID], f.URL})
			case ok:
				v.Footer = append(v.Footer, link{w.Footer[f.Page], p.Path})
			default: // untranslated: the English page, as the live site links it
				v.Footer = append(v.Footer, link{w.Footer[f.Page], pathOf("en", f.Page)})
			}
		}
		if err := write(out, v); err != nil {
			return nil, err
		}
		pages = append(pages, Page{Path: s.Path, Lang: s.Lang, Key: keys[i], Title: title})
	}
	if err := root(out, c, pages); err != nil {
		return nil, err
	}
	return pages, nil
}

// keyOf names a page the same in every language: its English slug, or its German one for the
// page the site has no English version of.
func keyOf(s source) string {
	for _, l := range []string{"en", "de"} {
		if href, ok := s.Alternates[l]; ok {
			if _, slug := slugOf(href); slug != "" {
				return slug
			}
		}
	}
	return s.Slug
}

// write renders one page. A path without an extension ("/de/faq") is a file of that name
// with a .headers sidecar that serves it as HTML; "/de/" is de/index.html.
func write(out string, v view) error {
	file := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(v.Path, "/")))
	if strings.HasSuffix(v.Path, "/") {
		file = filepath.Join(file, "index.html")
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	if err := pageTemplate.Execute(&b, v); err != nil {
		return fmt.Errorf("render %s: %w", v.Path, err)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return err
	}
	if filepath.Ext(file) == "" {
		return os.WriteFile(file+".headers", []byte("Content-Type: text/html; charset=utf-8\n"), 0o644)
	}
	return nil
}

// root writes the language chooser, robots.txt and sitemap.xml.
func root(out string, c siteChrome, pages []Page) error {
	var chooser strings.Builder
	chooser.WriteString("<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Bitcoin</title>\n")
	for _, l := range c.Langs {
		fmt.Fprintf(&chooser, "<link rel=\"alternate\" hreflang=\"%s\" href=\"{{BASE}}/%s/\">\n", l, l)
	}
	chooser.WriteString("</head>\n<body>\n<ul>\n")
	for _, l := range c.Langs {
		w := c.Words[l]
		fmt.Fprintf(&chooser, "<li><a href=\"/%s/\" hreflang=\"%s\">%s – %s</a></li>\n", l, l,
			template.HTMLEscapeString(w.Name), template.HTMLEscapeString(w.Chooser))
	}
	chooser.WriteString("</ul>\n</body>\n</html>\n")
	if err := os.WriteFile(filepath.Join(out, "index.html"), []byte(chooser.String()), 0o644); err != nil {
		return err
	}
	robots := "User-agent: *\nDisallow: /bin/\nSitemap: {{BASE}}/sitemap.xml\n"
	if err := os.WriteFile(filepath.Join(out, "robots.txt"), []byte(robots), 0o644); err != nil {
		return err
	}
	var sm strings.Builder
	sm.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for _, p := range pages {
		fmt.Fprintf(&sm, "  <url><loc>{{BASE}}%s</loc></url>\n", p.Path)
	}
	sm.WriteString("</urlset>\n")
	return os.WriteFile(filepath.Join(out, "sitemap.xml"), []byte(sm.String()), 0o644)
}

// pageTemplate is every page's HTML: the site's furniture around the page's own content,
// which brings its own <h1>. Its delimiters are [[ ]] so that the literal {{BASE}}
// placeholder of internal/crawl/crawltest passes through unescaped.
var pageTemplate = template.Must(template.New("page").Delims("[[", "]]").Parse(`<!doctype html>
<html lang="[[.Lang]]">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>[[.Title]]</title>
[[if .Description]]<meta name="description" content="[[.Description]]">
[[end]]<link rel="canonical" href="{{BASE}}[[.Path]]">
[[range .Alternates]]<link rel="alternate" hreflang="[[.Name]]" href="[[.URL]]">
[[end]]<link rel="stylesheet" href="/css/main.css">
</head>
<body>
<header class="site-header">
  <a class="logo" href="/[[.Lang]]/">[[.W.Site]]</a>
  <nav class="main-nav" aria-label="Main">
    <ul>[[range .Nav]]<li><a href="[[.URL]]">[[.Name]]</a></li>[[end]]</ul>
  </nav>
  <div class="language-switcher" aria-label="[[.W.Language]]">[[range .Switch]]<a href="[[.URL]]">[[.Name]]</a> [[end]]</div>
</header>
<nav class="breadcrumbs" aria-label="[[.W.Crumbs]]">
  <ol>[[range .Crumbs]]<li>[[if .URL]]<a href="[[.URL]]">[[.Name]]</a>[[else]]<span>[[.Name]]</span>[[end]]</li>[[end]]</ol>
</nav>
<main id="main">
<article>
[[.Body]]
</article>
</main>
<footer class="site-footer">
  <ul class="footer-links">[[range .Footer]]<li><a href="[[.URL]]">[[.Name]]</a></li>[[end]]</ul>
  <p class="copyright">[[.W.Copyright]]</p>
</footer>
</body>
</html>
`))
