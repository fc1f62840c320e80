package sitetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Page is one rendered page of the site.
type Page struct {
	Path  string // URL path, e.g. "/en/resources/user-guides/view_only.html"
	Lang  string // en, de or tr
	Kind  string // home, listing, guide, glossary, faq, shop, product
	Title string
}

// Render writes the site built from the Monero sources in src (the shared monero-site folder)
// into out and returns its pages. Links inside the pages are root-relative; the canonical
// links and the sitemap use the {{BASE}} placeholder that internal/crawl/crawltest replaces
// with the server's address.
func Render(src, out string) ([]Page, error) {
	r := &renderer{src: src, out: out}
	for _, lang := range Langs {
		if err := r.language(lang); err != nil {
			return nil, err
		}
	}
	if err := r.root(); err != nil {
		return nil, err
	}
	return r.pages, nil
}

type renderer struct {
	src, out string
	pages    []Page
}

// crumb is one step of a page's breadcrumbs; the last has no URL.
type crumb struct{ Name, URL string }

// view is what the page template needs.
type view struct {
	Lang, Title, Description, Path string
	C                              chrome
	Nav                            []crumb
	Switch                         []crumb // language switcher: language code and URL
	Crumbs                         []crumb
	Body                           template.HTML
	JSONLD                         template.JS
	Footer                         []crumb
	// Has lists the languages this page exists in (nil: all); the switcher and the
	// alternates leave the others out.
	Has []string
}

func (r *renderer) write(v view, kind string) error {
	v.C = chromes[v.Lang]
	v.Nav = []crumb{
		{v.C.Home, "/" + v.Lang + "/"},
		{v.C.Guides, "/" + v.Lang + "/resources/user-guides/"},
		{v.C.Glossary, "/" + v.Lang + "/resources/moneropedia/"},
		{v.C.FAQ, "/" + v.Lang + "/get-started/faq/"},
		{v.C.Shop, "/" + v.Lang + "/shop/"},
	}
	for _, l := range Langs {
		if v.Has != nil && !slices.Contains(v.Has, l) {
			continue
		}
		v.Switch = append(v.Switch, crumb{strings.ToUpper(l), "/" + l + strings.TrimPrefix(v.Path, "/"+v.Lang)})
	}
	for i, name := range v.C.Footer {
		v.Footer = append(v.Footer, crumb{name, "https://www.getmonero.org/" + footerPaths[i] + "/"})
	}
	file := filepath.Join(r.out, filepath.FromSlash(strings.TrimPrefix(v.Path, "/")))
	if strings.HasSuffix(v.Path, "/") {
		file = filepath.Join(file, "index.html")
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := pageTemplate.Execute(f, v); err != nil {
		f.Close()
		return fmt.Errorf("render %s: %w", v.Path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	r.pages = append(r.pages, Page{Path: v.Path, Lang: v.Lang, Kind: kind, Title: v.Title})
	return nil
}

var footerPaths = []string{"legal/privacy", "legal", "press-kit", "contact", "community/hangouts", "blog", "downloads"}

// readSources reads the Markdown files of one section in one language, sorted by slug.
func (r *renderer) readSources(lang, section string) ([]source, error) {
	dir := filepath.Join(r.src, "pages", lang, "resources", section)
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no pages in %s", dir)
	}
	sort.Strings(files)
	var out []source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, parseSource(strings.TrimSuffix(filepath.Base(f), ".md"), string(b)))
	}
	return out, nil
}

func (r *renderer) language(lang string) error {
	c := chromes[lang]
	home := crumb{c.Home, "/" + lang + "/"}
	guides, err := r.readSources(lang, "user-guides")
	if err != nil {
		return err
	}
	glossary, err := r.readSources(lang, "moneropedia")
	if err != nil {
		return err
	}
	terms := map[string]string{}
	for _, g := range glossary {
		for _, t := range g.Terms {
			terms[strings.ToLower(t)] = g.Slug
		}
	}
	sections := []struct {
		name, kind, intro string
		pages             []source
		title             func(source) string
	}{
		{"user-guides", "guide", c.GuidesIntro, guides, func(s source) string {
			if s.Title != "" {
				return s.Title
			}
			return guideTitle(s.Slug, lang)
		}},
		{"moneropedia", "glossary", c.GlossaryIntro, glossary, entryTitle},
	}
	for _, sec := range sections {
		secName := c.Guides
		if sec.kind == "glossary" {
			secName = c.Glossary
		}
		base := "/" + lang + "/resources/" + sec.name + "/"
		var list strings.Builder
		list.WriteString("<p>" + template.HTMLEscapeString(sec.intro) + "</p>\n<ul class=\"resource-list\">\n")
		for _, s := range sec.pages {
			title := sec.title(s)
			md := linkTerms(expandLiquid(s.Body, lang), lang, terms)
			body, err := renderMarkdown(md)
			if err != nil {
				return fmt.Errorf("%s/%s: %w", lang, s.Slug, err)
			}
			if s.Summary != "" {
				body = "<p class=\"summary\"><strong>" + template.HTMLEscapeString(capitalize(s.Summary)) + ".</strong></p>\n" + body
			}
			path := base + s.Slug + ".html"
			var has []string
			for _, l := range Langs {
				if _, err := os.Stat(filepath.Join(r.src, "pages", l, "resources", sec.name, s.Slug+".md")); err == nil {
					has = append(has, l)
				}
			}
			err = r.write(view{Has: has,
				Lang: lang, Title: title, Description: s.Summary, Path: path,
				Crumbs: []crumb{home, {secName, base}, {title, ""}},
				Body:   template.HTML(body),
			}, sec.kind)
			if err != nil {
				return err
			}
			fmt.Fprintf(&list, "<li><a href=\"%s\">%s</a>", path, template.HTMLEscapeString(title))
			if s.Summary != "" {
				fmt.Fprintf(&list, " – %s", template.HTMLEscapeString(s.Summary))
			}
			list.WriteString("</li>\n")
		}
		list.WriteString("</ul>\n")
		if err := r.write(view{Lang: lang, Title: secName, Description: sec.intro, Path: base,
			Crumbs: []crumb{home, {secName, ""}}, Body: template.HTML(list.String())}, "listing"); err != nil {
			return err
		}
	}
	if err := r.faq(lang, terms); err != nil {
		return err
	}
	if err := r.shop(lang); err != nil {
		return err
	}
	var body strings.Builder
	fmt.Fprintf(&body, "<p>%s</p>\n<ul class=\"home-links\">\n", template.HTMLEscapeString(c.Tagline))
	for _, l := range [][2]string{{c.Guides, "resources/user-guides/"}, {c.Glossary, "resources/moneropedia/"}, {c.FAQ, "get-started/faq/"}, {c.Shop, "shop/"}} {
		fmt.Fprintf(&body, "<li><a href=\"/%s/%s\">%s</a></li>\n", lang, l[1], template.HTMLEscapeString(l[0]))
	}
	body.WriteString("</ul>\n")
	return r.write(view{Lang: lang, Title: c.Site, Description: c.Tagline, Path: "/" + lang + "/",
		Crumbs: []crumb{{c.Home, ""}}, Body: template.HTML(body.String())}, "home")
}

// faqEntry is one line of faq.<lang>.jsonl.
type faqEntry struct {
	Key      string `json:"key"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// faq renders faq.<lang>.jsonl as one page: a heading per question, its answer below.
func (r *renderer) faq(lang string, terms map[string]string) error {
	c := chromes[lang]
	f, err := os.Open(filepath.Join(r.src, "faq."+lang+".jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	var body strings.Builder
	body.WriteString("<p>" + template.HTMLEscapeString(c.FAQIntro) + "</p>\n")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var e faqEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("faq.%s.jsonl line %d: %w", lang, n, err)
		}
		answer, err := renderMarkdown(linkTerms(expandLiquid(e.Answer, lang), lang, terms))
		if err != nil {
			return err
		}
		fmt.Fprintf(&body, "<section class=\"faq-item\" id=\"%s\">\n<h2>%s</h2>\n%s</section>\n",
			template.HTMLEscapeString(e.Key), template.HTMLEscapeString(e.Question), answer)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return r.write(view{Lang: lang, Title: c.FAQ, Description: c.FAQIntro, Path: "/" + lang + "/get-started/faq/",
		Crumbs: []crumb{{c.Home, "/" + lang + "/"}, {c.FAQ, ""}}, Body: template.HTML(body.String())}, "faq")
}

// shop renders the product listing and one page per product with schema.org Product JSON-LD.
func (r *renderer) shop(lang string) error {
	c := chromes[lang]
	base := "/" + lang + "/shop/"
	var list strings.Builder
	list.WriteString("<p>" + template.HTMLEscapeString(c.ShopIntro) + "</p>\n<ul class=\"product-grid\">\n")
	for _, p := range products {
		name := p.Name[lang]
		path := base + p.Slug + ".html"
		price := shownPrice(p.Price[lang], lang)
		var body strings.Builder
		fmt.Fprintf(&body, "<div class=\"product-price\"><span class=\"price\">%s</span></div>\n", template.HTMLEscapeString(price))
		fmt.Fprintf(&body, "<p class=\"stock\">%s</p>\n", template.HTMLEscapeString(c.InStock))
		fmt.Fprintf(&body, "<form method=\"post\" action=\"/cart/add\"><input type=\"hidden\" name=\"sku\" value=\"%s\"><button type=\"submit\">%s</button></form>\n", p.SKU, template.HTMLEscapeString(c.AddToCart))
		body.WriteString("<section class=\"description\">\n")
		for _, para := range p.Desc[lang] {
			body.WriteString("<p>" + template.HTMLEscapeString(para) + "</p>\n")
		}
		body.WriteString("</section>\n<table class=\"specs\">\n")
		for _, s := range p.Specs[lang] {
			fmt.Fprintf(&body, "<tr><th>%s</th><td>%s</td></tr>\n", template.HTMLEscapeString(s[0]), template.HTMLEscapeString(s[1]))
		}
		body.WriteString("</table>\n")
		ld, err := json.MarshalIndent(map[string]any{
			"@context":    "https://schema.org",
			"@type":       "Product",
			"name":        name,
			"description": strings.Join(p.Desc[lang], " "),
			"sku":         p.SKU,
			"image":       "{{BASE}}/img/" + p.Slug + ".jpg",
			"brand":       map[string]string{"@type": "Brand", "name": "Monero Community Shop"},
			"offers": map[string]string{
				"@type":         "Offer",
				"url":           "{{BASE}}" + path,
				"price":         p.Price[lang],
				"priceCurrency": currency[lang],
				"availability":  "https://schema.org/InStock",
			},
		}, "", "  ")
		if err != nil {
			return err
		}
		if err := r.write(view{Lang: lang, Title: name, Description: p.Desc[lang][0], Path: path,
			Crumbs: []crumb{{c.Home, "/" + lang + "/"}, {c.Shop, base}, {name, ""}},
			Body:   template.HTML(body.String()), JSONLD: template.JS(ld)}, "product"); err != nil {
			return err
		}
		fmt.Fprintf(&list, "<li class=\"card\"><a href=\"%s\">%s</a> <span class=\"price\">%s</span></li>\n",
			path, template.HTMLEscapeString(name), template.HTMLEscapeString(price))
	}
	list.WriteString("</ul>\n")
	return r.write(view{Lang: lang, Title: c.Shop, Description: c.ShopIntro, Path: base,
		Crumbs: []crumb{{c.Home, "/" + lang + "/"}, {c.Shop, ""}}, Body: template.HTML(list.String())}, "listing")
}

// root writes the language chooser, robots.txt and sitemap.xml.
func (r *renderer) root() error {
	var chooser strings.Builder
	chooser.WriteString("<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>The Monero Project</title>\n")
	for _, l := range Langs {
		fmt.Fprintf(&chooser, "<link rel=\"alternate\" hreflang=\"%s\" href=\"{{BASE}}/%s/\">\n", l, l)
	}
	chooser.WriteString("</head>\n<body>\n<ul>\n")
	for _, l := range Langs {
		fmt.Fprintf(&chooser, "<li><a href=\"/%s/\" hreflang=\"%s\">%s</a></li>\n", l, l, template.HTMLEscapeString(chromes[l].Site))
	}
	chooser.WriteString("</ul>\n</body>\n</html>\n")
	if err := os.WriteFile(filepath.Join(r.out, "index.html"), []byte(chooser.String()), 0o644); err != nil {
		return err
	}
	robots := "User-agent: *\nDisallow: /cart/\nSitemap: {{BASE}}/sitemap.xml\n"
	if err := os.WriteFile(filepath.Join(r.out, "robots.txt"), []byte(robots), 0o644); err != nil {
		return err
	}
	var sm strings.Builder
	sm.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for _, p := range r.pages {
		fmt.Fprintf(&sm, "  <url><loc>{{BASE}}%s</loc></url>\n", p.Path)
	}
	sm.WriteString("</urlset>\n")
	return os.WriteFile(filepath.Join(r.out, "sitemap.xml"), []byte(sm.String()), 0o644)
}
