// Package sitetest builds the real-world test site that `svc eval site` and the engine's
// helpers measure on: the Monero project's user guides, glossary ("Moneropedia") and FAQ in
// English, German and Turkish (../shared/eval/monero-site beside the repository, BSD-3, read at
// test time and never copied into the repository), rendered into HTML pages the way a
// documentation site serves them, plus a small shop of product pages beside it.
//
// The documentation half has no help-centre markup: each page is an ordinary HTML page with a
// header menu, a language switcher, breadcrumbs ("Home › User guides › Title"), the article in
// <main>, and a footer of boilerplate links. The shop half is a handful of products with
// schema.org Product JSON-LD in the three languages, including sibling variants ("… Lite" and
// "… Pro", 500 ml and 750 ml) at different prices and a water bottle whose text says "best",
// which are the traps the private site showed.
//
// Layout of the rendered site (URL path = file path; "/a/" serves "a/index.html"):
//
//	/                                       language chooser
//	/robots.txt, /sitemap.xml
//	/{en,de,tr}/                            home: links to the sections and the shop
//	/{lang}/resources/user-guides/          listing of the guides
//	/{lang}/resources/user-guides/<slug>.html
//	/{lang}/resources/moneropedia/          listing of the glossary entries
//	/{lang}/resources/moneropedia/<slug>.html
//	/{lang}/get-started/faq/                the FAQ of faq.<lang>.jsonl as one page
//	/{lang}/shop/                           product listing
//	/{lang}/shop/<slug>.html                product pages with Product JSON-LD
//
// Use it from a test:
//
//	site := sitetest.Serve(t)          // skips the test when the shared files are absent
//	// crawl site.URL+"/" with the real crawler (allow private addresses: it is loopback)
//
// or render it once into a folder with Render(Dir(t), out) and serve that folder with
// internal/crawl/crawltest. Note that the Turkish pages of the source are untranslated
// English (only the Turkish FAQ is Turkish), as on the real site: they still carry
// <html lang="tr"> and the Turkish chrome.
package sitetest
