package extract

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// parse parses an HTML test page.
func parse(t testing.TB, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// mustURL parses a page URL of a test.
func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// walkScripts calls fn for every JSON-LD script of doc.
func walkScripts(doc *html.Node, fn func()) {
	walk(doc, func(n *html.Node) bool {
		if isLDScript(n) {
			fn()
		}
		return true
	})
}
