// Package fetch is the crawler's network edge: an HTTP client that is safe to
// point at URLs chosen by strangers, plus robots.txt and sitemap handling on
// top of it.
//
// Everything a crawled site controls is treated as hostile: the addresses its
// names resolve to (server-side request forgery, DNS rebinding), its redirects,
// the size and speed of its bodies and headers, its compression, its charset
// declarations and the syntax of its robots.txt and sitemaps. Each of those is
// bounded here so the crawler above can stay simple.
//
// The pieces:
//
//   - guard.go: which IP addresses and host names may be contacted, and the
//     dialer that enforces it on every connection after DNS resolution.
//   - client.go: Options, Client, Get and the shared request plumbing.
//   - redirect.go: the redirect loop (hop limit, scope, per-hop URL checks).
//   - body.go: size-capped, gzip-aware, deadline-aware body readers.
//   - charset.go: decoding HTML and text bodies to UTF-8.
//   - robots.go, robotsnorm.go: RFC 9309 robots.txt with a per-host cache.
//   - sitemap.go: sitemaps, sitemap indexes, gzip and plain-text sitemaps.
package fetch
