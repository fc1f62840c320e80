package crawl

import (
	"errors"
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"svc/internal/extract"
	"svc/internal/kb"
	"svc/internal/store"
)

// isListing tells a page that is a list of links (a help centre's home or category page, a
// shop's category page) from a page of content: under 500 characters of text outside links,
// with a quarter or more of all its text inside links. Measured on the test sites: listings
// have 0–314 own characters and link text at 40–65 % of it; articles have 800 and more with
// almost none; a short page of facts ("Opening hours: ...") has little text but few links.
func isListing(doc *html.Node) bool {
	own, linked := textShares(doc)
	return own < 500 && linked > 0 && 3*linked >= own
}

// errListing marks a page that is only a list of links: crawled for its links, not stored.
var errListing = errors.New("a list of links")

// builtPage is what one HTML page yields for the KB.
type builtPage struct {
	docs     []store.Document
	products int
	articles int
	qa       int
	// elsewhere are in-scope product URLs the page lists; their own pages say more, so they
	// are crawled rather than stored from the listing.
	elsewhere []*url.URL
}

// buildPage turns a page into documents. A page whose one product is the page itself becomes
// that product, with the page's main text as its description, so the KB holds it once; a
// help-centre page becomes an article; any other page is a page. Products of a listing and
// FAQ entries become documents of their own besides the page.
func buildPage(body string, doc *html.Node, u *url.URL, sc scope, info pageInfo) (builtPage, error) {
	var out builtPage
	meta := extract.PageMeta(doc)
	crumbs := extract.Breadcrumbs(doc, u)
	products := extract.Products(doc, u, info.lang)

	var own *extract.Product
	var listed []extract.Product
	for i := range products {
		p := products[i]
		pu, err := NormalizeURL(p.URL)
		switch {
		case p.URL == "" || (err == nil && samePage(pu, u)):
			if own == nil {
				own = &products[i]
				continue
			}
			listed = append(listed, p)
		case err == nil && sc.contains(pu):
			out.elsewhere = append(out.elsewhere, pu)
		default:
			listed = append(listed, p)
		}
	}
	if own != nil && len(listed) > 0 {
		// Several products and one without its own URL: a listing, not a product page.
		listed = append([]extract.Product{*own}, listed...)
		own = nil
	}

	faq := extract.FAQ(doc)
	var main kb.Record
	switch {
	case own != nil:
		main = kb.Record{Type: kb.TypeProduct, Name: own.Name, URL: u.String(), Price: own.Price,
			Category: own.Category, Image: own.Image, Description: body}
		out.products++
	default:
		if art, ok := articleOf(doc, u, meta, crumbs); ok {
			main = kb.Record{Type: kb.TypeArticle, URL: u.String(), Slug: art.slug, Body: body,
				CategorySlug: art.categorySlug, CategoryName: art.categoryName}
			out.articles++
		} else {
			main = kb.Record{Type: kb.TypePage, URL: u.String(), Body: body}
			if len(listed) == 0 && len(faq) == 0 && isListing(doc) {
				return out, errListing
			}
		}
	}
	main.LangHint = info.lang
	first, err := kb.Build(main)
	if err == nil && main.Type == kb.TypeArticle && untranslated(u, first.Lang) {
		// The edition of another language serving this language's text: the article is
		// that language's own page; this copy stays searchable as a page.
		main = kb.Record{Type: kb.TypePage, URL: u.String(), Body: body, LangHint: info.lang}
		out.articles--
		first, err = kb.Build(main)
	}
	if err != nil {
		if own == nil && len(listed) == 0 {
			return out, err // nothing on this page to learn
		}
		// A product page whose text is all chrome still has its product.
		if own != nil {
			main.Description = own.Description
			if first, err = kb.Build(main); err != nil {
				return out, err
			}
		}
	}
	if err == nil {
		out.docs = append(out.docs, first)
	}
	lang := first.Lang
	if lang == "" {
		lang = info.lang
	}

	for _, p := range listed {
		d, err := kb.Build(kb.Record{Type: kb.TypeProduct, Lang: lang, Name: p.Name, URL: p.URL, Price: p.Price,
			Category: p.Category, Image: p.Image, Description: p.Description})
		if err != nil {
			continue
		}
		out.docs = append(out.docs, d)
		out.products++
	}
	for _, q := range faq {
		d, err := kb.Build(kb.Record{Type: kb.TypeQA, Lang: lang, Question: q.Question, Answer: q.Answer})
		if err != nil {
			continue
		}
		out.docs = append(out.docs, d)
		out.qa++
	}
	return out, nil
}

// samePage compares two URLs as pages: a product's declared URL often differs from the page
// URL by a variant query or a trailing slash.
func samePage(a, b *url.URL) bool {
	return a.Host == b.Host && strings.TrimSuffix(a.Path, "/") == strings.TrimSuffix(b.Path, "/")
}

// untranslated tells a page of one language's edition ("/tr/…") whose text is in another
// language: a documentation site's untranslated copy, whose category is in the edition's
// language and whose text repeats the original's. A wrong <html lang> is a different case:
// the text matches the URL's edition, and the page stays an article.
func untranslated(u *url.URL, textLang string) bool {
	raw, off := contentPath(u)
	if off == 0 {
		return false
	}
	root := strings.ToLower(raw[0])[:2]
	return (root == "tr" || root == "en" || root == "de") && textLang != "" && textLang != root
}
