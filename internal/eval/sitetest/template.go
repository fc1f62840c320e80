package sitetest

import (
	"html/template"
	"strings"
)

// pageTemplate is every page's HTML: a documentation site's usual furniture around the
// article, with nothing that marks it up as a help centre. Its delimiters are [[ ]] so that
// the literal {{BASE}} placeholder of internal/crawl/crawltest passes through unescaped.
var pageTemplate = template.Must(template.New("page").Delims("[[", "]]").Funcs(template.FuncMap{"lower": strings.ToLower}).Parse(`<!doctype html>
<html lang="[[.Lang]]">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>[[.Title]] | [[.C.Site]]</title>
[[if .Description]]<meta name="description" content="[[.Description]]">
[[end]]<link rel="canonical" href="{{BASE}}[[.Path]]">
[[range .Switch]]<link rel="alternate" hreflang="[[.Name | lower]]" href="{{BASE}}[[.URL]]">
[[end]]<link rel="stylesheet" href="/css/main.css">
[[if .JSONLD]]<script type="application/ld+json">
[[.JSONLD]]
</script>
[[end]]</head>
<body>
<header class="site-header">
  <a class="logo" href="/[[.Lang]]/">[[.C.Site]]</a>
  <nav class="main-nav" aria-label="Main">
    <ul>[[range .Nav]]<li><a href="[[.URL]]">[[.Name]]</a></li>[[end]]</ul>
  </nav>
  <div class="language-switcher" aria-label="[[.C.Language]]">[[range .Switch]]<a href="[[.URL]]" hreflang="[[.Name | lower]]">[[.Name]]</a> [[end]]</div>
</header>
<nav class="breadcrumbs" aria-label="[[.C.Crumbs]]">
  <ol>[[range .Crumbs]]<li>[[if .URL]]<a href="[[.URL]]">[[.Name]]</a>[[else]]<span aria-current="page">[[.Name]]</span>[[end]]</li>[[end]]</ol>
</nav>
<main id="main">
<article>
<h1>[[.Title]]</h1>
[[.Body]]
</article>
</main>
<footer class="site-footer">
  <ul class="footer-links">[[range .Footer]]<li><a href="[[.URL]]">[[.Name]]</a></li>[[end]]</ul>
  <p class="copyright">[[.C.Copyright]]</p>
</footer>
</body>
</html>
`))
