// Package crawl learns an account's KB from its website: it walks a site from a start URL and
// its sitemaps, within the site's host and subdomains, politely and within hard limits, and
// keeps the site's documents in step with its pages through the store's per-page document
// sets. Fetching (address guard, limits, charsets, robots.txt, sitemaps) is package fetch;
// structured data (products, breadcrumbs, FAQ) is package extract; cleaning and chunking is
// package kb, the same code that cleans imported HTML.
package crawl
