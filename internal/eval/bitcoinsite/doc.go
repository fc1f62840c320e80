// Package bitcoinsite builds the second real-world test site: the user-facing pages of
// bitcoin.org in English, German and Turkish (../shared/eval/bitcoin-org beside the
// repository, MIT, read at test time and never copied into the repository; see its
// SOURCE.md), served on loopback the way the live site serves them.
//
// The shared pages are already reduced to their content (a <title>, a meta description, the
// hreflang alternates and the article in <main>). Render puts the site's furniture back around
// each: a header menu, a language switcher, breadcrumbs ("Home › Resources › Title"), a
// footer of boilerplate links, a canonical link; and it writes a language chooser at "/", a
// sitemap.xml and a robots.txt. The pages' own alternates and links are kept as the site
// writes them, site-relative and without ".html" ("/de/faq", "/tr/sss#..."), so some point to
// pages outside the set and answer 404, as on any partial copy of a site.
//
// Layout of the rendered site:
//
//	/                        language chooser
//	/robots.txt, /sitemap.xml
//	/{en,de,tr}/             the language's home page
//	/{lang}/<slug>           every other page, served as text/html (a .headers sidecar)
//
// The furniture's words (menu order, sections, footer labels) live in chrome.json; the menu
// shows each page under its own heading in the page's language.
//
// Use it from a test:
//
//	site := bitcoinsite.Serve(t)   // skips the test when the shared folder is absent
//	// crawl site.URL+"/" with the real crawler (allow private addresses: it is loopback)
//	file, _ := bitcoinsite.QuestionFile(site.Src, "de") // the questions in `svc eval site` form
package bitcoinsite
