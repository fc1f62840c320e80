package kb

import (
	"regexp"
	"strings"
)

// block is one unit of cleaned text: a heading or a paragraph (a list item and a table row
// count as paragraphs). Chunking works on blocks so that it never glues a heading to the
// text of another section.
type block struct {
	heading bool
	// level is a heading's rank, 1 for the outermost (<h1>, "# "), 6 for the innermost; 0
	// for a paragraph.
	level int
	text  string
}

// htmlTagRE recognises markup that a plain-text body would not contain: an opening or closing
// tag of a common element. A bare "<" in text ("price < 100 TL") does not match.
var htmlTagRE = regexp.MustCompile(`(?i)<\s*/?\s*(html|head|body|p|div|span|br|hr|h[1-6]|ul|ol|li|dl|dt|dd|table|thead|tbody|tr|td|th|a|b|i|em|strong|small|img|section|article|main|nav|header|footer|aside|script|style|form|blockquote|pre|code|figure|figcaption|noscript|template|label|button|meta|link|title)(\s[^<>]*)?/?>|<!--|<!doctype`)

// looksLikeHTML reports whether a body should go through the HTML cleaner.
func looksLikeHTML(s string) bool {
	return htmlTagRE.MatchString(s)
}

// toBlocks cleans a body (HTML or plain text) into blocks. title is the HTML document's
// <title>, when there is one, so that a page imported without a title still gets a name.
func toBlocks(body string) (blocks []block, title string) {
	if looksLikeHTML(body) {
		return htmlBlocks(body)
	}
	return textBlocks(body), ""
}

// textBlocks splits plain text into paragraphs at blank lines, keeping the line breaks inside
// a paragraph (addresses, short lists) but collapsing runs of spaces. A paragraph that is a
// single Markdown-style "# heading" line becomes a heading.
func textBlocks(s string) []block {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var out []block
	var para []string
	flush := func() {
		if len(para) == 0 {
			return
		}
		if len(para) == 1 && strings.HasPrefix(para[0], "#") {
			if h := strings.TrimSpace(strings.TrimLeft(para[0], "#")); h != "" {
				level := min(len(para[0])-len(strings.TrimLeft(para[0], "#")), 6)
				out = append(out, block{heading: true, level: level, text: h})
				para = para[:0]
				return
			}
		}
		out = append(out, block{text: strings.Join(para, "\n")})
		para = para[:0]
	}
	for _, line := range strings.Split(s, "\n") {
		line = collapseSpace(line)
		if line == "" {
			flush()
			continue
		}
		para = append(para, line)
	}
	flush()
	return out
}

// collapseSpace trims s and turns every run of white space (including no-break spaces) into
// one ASCII space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// blocksText renders blocks as the document body: blocks separated by blank lines.
func blocksText(blocks []block) string {
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		parts = append(parts, b.text)
	}
	return strings.Join(parts, "\n\n")
}
