package kb

import (
	"regexp"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// wholeDocumentRE tells a whole HTML page (which carries site chrome and needs main-content
// extraction) from a fragment (an import's article body, which is all content).
var wholeDocumentRE = regexp.MustCompile(`(?i)<\s*(html|body)[\s>]|<!doctype\s+html`)

// mainContentMin is the share of the chrome-stripped text that readability's pick must keep
// for us to trust it. Readability scores paragraphs and can elect a comment box or a
// sidebar on short pages (a product page, an FAQ of one-line answers); when it keeps less
// than this share of what the structural cleaner found, the structural result wins.
const mainContentMin = 0.3

// documentBlocks extracts the main content of a whole page. Readability removes what the
// structural cleaner cannot recognise (chrome built from divs with class names like
// "cookie-banner", "mega-menu", "related"); the structural cleaner, which drops nav, header,
// footer, aside and forms, is the fallback when readability fails or keeps too little. The
// title is readability's, which strips the " | Shop name" suffix of <title>.
func documentBlocks(doc *html.Node) ([]block, string) {
	// Readability sees the page without the chrome the structural rules recognise, so it
	// can neither elect a footer nor append a cookie banner as a sibling of the content.
	pruneChrome(doc)
	structural, htmlTitle := nodeBlocks(doc)
	art, err := readability.FromDocument(doc, nil)
	title := strings.TrimSpace(collapseSpace(art.Title))
	if title == "" {
		title = htmlTitle
	}
	title = siteNameCut(title, firstH1(doc))
	if err != nil || art.Node == nil {
		return structural, title
	}
	main, _ := nodeBlocks(art.Node)
	if float64(blocksRunes(main)) < mainContentMin*float64(blocksRunes(structural)) {
		return structural, title
	}
	return main, title
}

func blocksRunes(bs []block) int {
	n := 0
	for _, b := range bs {
		n += utf8.RuneCountInString(b.text)
	}
	return n
}

// pruneChrome removes, in place, every element the structural cleaner would skip, except
// <head>, whose <title> and metadata readability reads.
func pruneChrome(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if IsChrome(c) {
			n.RemoveChild(c)
		} else {
			pruneChrome(c)
		}
		c = next
	}
}

// titleSeparators divide a page's own title from the site name in <title>.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " :: ", " » "}

// siteNameCut drops the " | Shop" part of a title when the page's <h1> is the part before it.
// Readability keeps the whole title when the page's part is one or two words ("Versand |
// Teehaus"), which would put the shop's name into every title.
func siteNameCut(title, h1 string) string {
	if h1 == "" {
		return title
	}
	for _, sep := range titleSeparators {
		if head, _, ok := strings.Cut(title, sep); ok && strings.EqualFold(strings.TrimSpace(head), h1) {
			return strings.TrimSpace(head)
		}
	}
	return title
}

// firstH1 is the text of the page's first <h1>.
func firstH1(n *html.Node) string {
	if n.Type == html.ElementNode && n.DataAtom == atom.H1 {
		return collapseSpace(textOf(n))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := firstH1(c); t != "" {
			return t
		}
	}
	return ""
}
