package ingest

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"svc/internal/fetch"
	"svc/internal/kb"
)

// decode is a text file as UTF-8 (fetch.DecodeFile: byte order marks, else UTF-8, else
// the Windows code page of Turkish or Western text), with Windows line ends made "\n".
func decode(data []byte, mediaType string) []byte {
	out := fetch.DecodeFile(data, mediaType)
	out = bytes.TrimPrefix(out, []byte("\uFEFF"))
	if bytes.IndexByte(out, '\r') >= 0 {
		out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
		out = bytes.ReplaceAll(out, []byte("\r"), []byte("\n"))
	}
	return out
}

// readText reads plain text as a page's text body is read: paragraphs at blank lines, a
// "# heading" line a heading. Markup in it stays text: a .txt file is never taken for HTML.
func readText(b *body, data []byte) error {
	for _, blk := range kb.TextBlocks(string(decode(data, "text/plain"))) {
		var err error
		if blk.Level > 0 {
			err = b.heading(blk.Level, blk.Text)
		} else {
			err = b.para(blk.Text)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// markdown is the CommonMark parser with GitHub's tables (a size chart in a README).
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// readMarkdown reads Markdown with goldmark: headings, paragraphs, list items (nested lists
// indented), tables with their header row, code blocks as text. Raw HTML inside is dropped.
func readMarkdown(b *body, data []byte) error {
	src := decode(data, "text/markdown")
	root := markdown.Parser().Parse(text.NewReader(src))
	w := mdWalker{b: b, src: src}
	return w.blocks(root, 0, 0)
}

type mdWalker struct {
	b   *body
	src []byte
}

// blocks reads the block children of n; depth is the list nesting, nest the element depth
// (bounded like an Office file's XML).
func (w *mdWalker) blocks(n ast.Node, depth, nest int) error {
	if nest > w.b.lim.MaxXMLDepth {
		return fail(CodeXMLDepth, w.b.name, nil, w.b.lim.MaxXMLDepth)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		var err error
		switch c := c.(type) {
		case *ast.Heading:
			err = w.b.heading(c.Level, w.inline(c))
		case *ast.Paragraph, *ast.TextBlock:
			err = w.b.para(w.inline(c))
		case *ast.List:
			err = w.list(c, depth, nest+1)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			err = w.b.para(w.lines(c))
		case *east.Table:
			err = w.table(c)
		case *ast.HTMLBlock, *ast.ThematicBreak:
		default:
			err = w.blocks(c, depth, nest+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// list writes each item as "- text" at its depth; an item's own paragraphs are joined on
// its line, a nested list follows it one level deeper.
func (w *mdWalker) list(l *ast.List, depth, nest int) error {
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		var own []string
		var nested []*ast.List
		for c := it.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.List:
				nested = append(nested, c)
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				own = append(own, oneLine(w.lines(c)))
			default:
				own = append(own, w.inline(c))
			}
		}
		if err := w.b.item(depth, strings.Join(own, " ")); err != nil {
			return err
		}
		for _, sub := range nested {
			if nest > w.b.lim.MaxXMLDepth {
				return fail(CodeXMLDepth, w.b.name, nil, w.b.lim.MaxXMLDepth)
			}
			if err := w.list(sub, depth+1, nest+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *mdWalker) table(t *east.Table) error {
	var rows [][]string
	header := false
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, w.inline(c))
		}
		if _, ok := r.(*east.TableHeader); ok && len(rows) == 0 {
			header = true
		}
		rows = append(rows, cells)
	}
	return w.b.table(rows, header)
}

// lines is a code block's text.
func (w *mdWalker) lines(n ast.Node) string {
	var sb strings.Builder
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		sb.Write(s.Value(w.src))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// inline is the text of a block's inline content: link and emphasis text kept, images by
// their alt text, raw HTML dropped, line breaks as spaces.
func (w *mdWalker) inline(n ast.Node) string {
	var sb strings.Builder
	var walk func(ast.Node, int)
	walk = func(n ast.Node, nest int) {
		if nest > w.b.lim.MaxXMLDepth {
			return
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				sb.Write(c.Value(w.src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					sb.WriteByte(' ')
				}
			case *ast.String:
				sb.Write(c.Value)
			case *ast.AutoLink:
				sb.Write(c.Label(w.src))
			case *ast.RawHTML:
			default:
				walk(c, nest+1)
			}
		}
	}
	walk(n, 0)
	return oneLine(sb.String())
}
