package sitetest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

// source is one Markdown page of the Monero site with its front matter read.
type source struct {
	Slug    string
	Entry   string   // front matter "entry" (a few glossary pages name themselves)
	Title   string   // front matter "title", when a page has one
	Summary string   // front matter "summary" (glossary pages)
	Terms   []string // front matter "terms": the words other pages link with @word
	Body    string   // Markdown after the front matter
}

// parseSource splits Jekyll front matter (the block between the first two "---" lines) from
// the Markdown. The site's front matter holds only one-line scalars and one JSON-style list,
// so a line reader is enough; no YAML library is needed.
func parseSource(slug, text string) source {
	s := source{Slug: slug, Body: text}
	text = strings.TrimPrefix(text, "\ufeff")
	if !strings.HasPrefix(text, "---") {
		return s
	}
	rest := text[3:]
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return s
	}
	front := rest[:end]
	body := rest[end+4:]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	s.Body = body
	for _, line := range strings.Split(front, "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "title":
			s.Title = unquote(value)
		case "entry":
			s.Entry = unquote(value)
		case "summary":
			s.Summary = unquote(value)
		case "terms":
			var terms []string
			if json.Unmarshal([]byte(value), &terms) == nil {
				s.Terms = terms
			}
		}
	}
	return s
}

// unquote removes YAML's single or double quotes from a scalar (” is an escaped ').
func unquote(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

var (
	liquidTag   = regexp.MustCompile(`(?s)\{%.*?%\}`)
	liquidVar   = regexp.MustCompile(`\{\{\s*([\w.]+)\s*\}\}`)
	termLink    = regexp.MustCompile(`(^|[^\w@/.])@([\p{L}\p{N}][\p{L}\p{N}_-]*[\p{L}\p{N}]|[\p{L}\p{N}])`)
	fenceMarker = regexp.MustCompile("^\\s*(```|~~~)")
)

// expandLiquid drops Jekyll's {% … %} tags (includes of the translation disclaimer and the
// like, which hold no text of the page) and resolves the {{ site.* }} variables to this
// site's URLs; unknown variables are dropped.
func expandLiquid(md, lang string) string {
	md = liquidTag.ReplaceAllString(md, "")
	return liquidVar.ReplaceAllStringFunc(md, func(m string) string {
		switch liquidVar.FindStringSubmatch(m)[1] {
		case "site.baseurl":
			return "/" + lang
		case "site.docsurl":
			return "https://docs.getmonero.org"
		default: // site.baseurl_root and anything else
			return ""
		}
	})
}

// linkTerms turns the site's "@word" glossary references into links to the glossary entry
// whose terms list the word, outside code; an unknown word loses its "@" only.
func linkTerms(md, lang string, terms map[string]string) string {
	lines := strings.Split(md, "\n")
	inFence := false
	for i, line := range lines {
		if fenceMarker.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		// Even parts lie outside `inline code`.
		parts := strings.Split(line, "`")
		for j := 0; j < len(parts); j += 2 {
			parts[j] = linkTermsIn(parts[j], lang, terms)
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

func linkTermsIn(text, lang string, terms map[string]string) string {
	return termLink.ReplaceAllStringFunc(text, func(m string) string {
		sub := termLink.FindStringSubmatch(m)
		lead, word := sub[1], sub[2]
		if slug, ok := terms[strings.ToLower(word)]; ok {
			return lead + "[" + word + "](/" + lang + "/resources/moneropedia/" + slug + ".html)"
		}
		return lead + word
	})
}

// markdown renders with CommonMark plus GitHub's tables and autolinks; raw HTML in the
// sources (<sub>, <br>, <img>) is kept, as Jekyll keeps it.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

func renderMarkdown(md string) (string, error) {
	var b bytes.Buffer
	if err := markdown.Convert([]byte(md), &b); err != nil {
		return "", err
	}
	return b.String(), nil
}
