package kb

import (
	"strings"

	"svc/internal/nultext"
	"svc/internal/store"
)

// Block is one unit of a document whose structure its reader already knows (an uploaded
// file read by internal/ingest): a heading when Level is 1 (outermost) to 6, else a
// paragraph, a list item or a table row. BuildBlocks chunks blocks exactly as it chunks the
// headings and paragraphs it finds in HTML, so a section's heading heads its chunks.
type Block struct {
	Level int
	Text  string
}

// TextBlocks splits plain text into blocks the way a page's plain-text body is split:
// paragraphs at blank lines, a paragraph that is one "# heading" line a heading.
func TextBlocks(s string) []Block {
	bs := textBlocks(s)
	out := make([]Block, len(bs))
	for i, b := range bs {
		out[i] = Block{Level: b.level, Text: b.text}
	}
	return out
}

// BuildBlocks is Build for a page whose body is given as blocks rather than as text or
// HTML: rec gives the type (TypePage or TypeArticle), title, URL, language and article
// fields, and its Body is ignored. Blocks without text are dropped and white space inside a
// line is collapsed; line breaks inside a block and a line's indentation are kept (a
// nested list item).
func BuildBlocks(rec Record, in []Block) (store.Document, error) {
	for _, f := range rec.textFields() {
		*f.v = nultext.Strip(*f.v)
	}
	blocks := make([]block, 0, len(in))
	for _, b := range in {
		lines := strings.Split(nultext.Strip(b.Text), "\n")
		kept := lines[:0]
		for _, l := range lines {
			// A nested list item keeps its indentation (two spaces a level).
			indent := min(len(l)-len(strings.TrimLeft(l, " ")), 16)
			if l = collapseSpace(l); l != "" {
				kept = append(kept, strings.Repeat(" ", indent)+l)
			}
		}
		if len(kept) == 0 {
			continue
		}
		level := min(max(b.Level, 0), 6)
		text := strings.Join(kept, "\n")
		if level > 0 {
			text = strings.Join(kept, " ")
		}
		blocks = append(blocks, block{heading: level > 0, level: level, text: text})
	}
	if len(blocks) == 0 {
		return store.Document{}, lineErrOf(rec.Line, because("err.kb.page_body_empty", "page body has no text after cleaning"))
	}
	title := firstNonEmpty(rec.Title, firstHeading(blocks), rec.URL)
	text := blocksText(blocks)
	lg := resolveLang(rec, title+"\n"+text)
	doc := store.Document{
		Type:   store.DocPage,
		URL:    rec.URL,
		Title:  title,
		Body:   text,
		Lang:   lg,
		Hash:   contentHash(rec.Type, lg, rec.URL, rec.Title, "blocks", text),
		Chunks: analyze(chunkBlocks(title, blocks), title, lg, ""),
	}
	if rec.Type == TypeArticle {
		doc.Type = store.DocArticle
		doc.Article = &store.ArticleMeta{Slug: rec.Slug, Excerpt: excerpt(blocks, excerptLen),
			CategorySlug: rec.CategorySlug, CategoryName: rec.CategoryName}
	}
	return doc, nil
}
