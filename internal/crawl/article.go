package crawl

import (
	"net/url"
	"path"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"svc/internal/extract"
	"svc/internal/textindex"
)

// articleMeta is what makes a page an article of a help centre.
type articleMeta struct {
	slug, categorySlug, categoryName string
}

// articleTypes are schema.org types (and og:type "article") that declare an article.
var articleTypes = map[string]bool{
	"Article": true, "BlogPosting": true, "NewsArticle": true, "TechArticle": true, "HowTo": true,
	"Report": true, "ScholarlyArticle": true, "SocialMediaPosting": true,
}

// helpSegments are path segments of help centres, blogs and knowledge bases in the three
// languages and of the common help-desk products (Zendesk's /hc/, Intercom's /articles/).
var helpSegments = map[string]bool{
	"article": true, "articles": true, "help": true, "hc": true, "support": true, "kb": true,
	"knowledge-base": true, "knowledgebase": true, "faq": true, "faqs": true, "blog": true, "guide": true,
	"guides": true, "docs": true, "help-center": true, "helpcenter": true, "yardim": true, "destek": true,
	"makale": true, "makaleler": true, "sss": true, "rehber": true, "blog-yazilari": true, "hilfe": true,
	"artikel": true, "ratgeber": true, "hilfe-center": true, "hilfecenter": true, "wissen": true,
}

// listingSegments mark index pages of a help centre, which list articles but are not one.
var listingSegments = map[string]bool{
	"categories": true, "category": true, "sections": true, "section": true, "kategori": true,
	"kategoriler": true, "kategorie": true, "kategorien": true, "tag": true, "tags": true, "page": true,
	"search": true, "arama": true, "suche": true,
}

// homeNames are first breadcrumbs that stand for the home page, not a category.
var homeNames = map[string]bool{
	"home": true, "homepage": true, "start": true, "startseite": true, "anasayfa": true, "ana sayfa": true,
	"help center": true, "help centre": true, "yardım merkezi": true, "hilfe-center": true, "hilfecenter": true,
	"hilfe": true, "yardım": true, "support": true,
}

// articleOf decides whether a page is an article. Declared article markup wins; then a page
// under a help-centre path with a category in its breadcrumbs, which is how help centres are
// built; then any page that reads as documentation (docArticleOf), so that a documentation
// site without help-centre markup still has articles.
func articleOf(doc *html.Node, u *url.URL, meta extract.Meta, crumbs []extract.Crumb) (articleMeta, bool) {
	if a, ok := helpArticleOf(u, meta, crumbs); ok {
		return a, true
	}
	name, at := category(u, crumbs)
	return docArticleOf(doc, u, name, categorySlug(name, at))
}

// categorySlug is the slug of a breadcrumb category: its URL's last segment, else its name.
func categorySlug(name string, at *url.URL) string {
	if name == "" {
		return ""
	}
	if at != nil {
		if cs := pathSegments(at); len(cs) > 0 {
			if s := slugOf(cs[len(cs)-1]); s != "" {
				return s
			}
		}
	}
	return slugOf(name)
}

// helpArticleOf is the help-centre rule: declared article markup, or a help-centre path and
// a breadcrumb category.
func helpArticleOf(u *url.URL, meta extract.Meta, crumbs []extract.Crumb) (articleMeta, bool) {
	segs := pathSegments(u)
	if len(segs) == 0 {
		return articleMeta{}, false
	}
	for _, s := range segs {
		if listingSegments[s] {
			return articleMeta{}, false
		}
	}
	declared := meta.OGType == "article"
	for _, t := range meta.Types {
		if articleTypes[t] {
			declared = true
		}
	}
	underHelp := false
	for _, s := range segs[:len(segs)-1] {
		if helpSegments[s] {
			underHelp = true
		}
	}
	catName, catURL := category(u, crumbs)
	if !declared && !(underHelp && catName != "") {
		return articleMeta{}, false
	}
	return articleMeta{slug: slugOf(segs[len(segs)-1]), categoryName: catName,
		categorySlug: categorySlug(catName, catURL)}, true
}

// category is the last breadcrumb above the page itself, skipping the home crumb and any
// crumb that is a language root ("/en/").
func category(u *url.URL, crumbs []extract.Crumb) (string, *url.URL) {
	var name string
	var at *url.URL
	for i, c := range crumbs {
		var cu *url.URL
		if c.URL != "" {
			if v, err := NormalizeURL(c.URL); err == nil {
				cu = v
			}
		}
		switch {
		case i == len(crumbs)-1 && (cu == nil || samePage(cu, u)):
			continue // the page itself
		case cu != nil && samePage(cu, u):
			continue
		case homeNames[strings.ToLower(strings.TrimSpace(c.Name))]:
			continue
		case cu != nil && len(pathSegments(cu)) <= 1 && (len(pathSegments(cu)) == 0 || len(pathSegments(cu)[0]) <= 5):
			continue // "/" or a language root such as "/de/" or "/en-us/"
		}
		name, at = strings.TrimSpace(c.Name), cu
	}
	return name, at
}

func pathSegments(u *url.URL) []string {
	var out []string
	for _, s := range strings.Split(u.Path, "/") {
		if s != "" {
			out = append(out, strings.ToLower(s))
		}
	}
	return out
}

// slugOf makes a URL segment or a name into a slug: the file extension dropped, letters
// folded to ASCII as the index folds them, anything else a single hyphen.
func slugOf(s string) string {
	if ext := path.Ext(s); ext == ".html" || ext == ".htm" || ext == ".php" || ext == ".aspx" {
		s = strings.TrimSuffix(s, ext)
	}
	if dec, err := url.PathUnescape(s); err == nil {
		s = dec
	}
	var b strings.Builder
	dash := false
	for _, r := range textindex.Fold(s) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
