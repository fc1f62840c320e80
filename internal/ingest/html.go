package ingest

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"svc/internal/kb"
	"svc/internal/store"
)

// readHTML reads an HTML file the way the crawler reads a page (kb.Build: chrome pruned,
// main content extracted for a whole document, headings kept), after writing each table's
// rows out with their column headers, which the page cleaner would run together.
func readHTML(rd *reader, data []byte, rec kb.Record) (store.Document, error) {
	src := decode(data, "text/html")
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil { // too deeply nested (x/net/html refuses over 512 elements)
		return store.Document{}, fail(CodeXMLDepth, rd.name, err, 512)
	}
	b := &body{reader: rd}
	if err := tablesToRows(b, doc); err != nil {
		return store.Document{}, err
	}
	var out bytes.Buffer
	if err := html.Render(&out, doc); err != nil {
		return store.Document{}, rd.corrupt(HTML, err)
	}
	if err := rd.alive(); err != nil {
		return store.Document{}, err
	}
	// The page's own <title> names it when the caller gave no title; the file's name is
	// the last resort.
	fileTitle := rec.Title
	if rec.Title == FileTitle(rd.name) {
		rec.Title = ""
	}
	rec.Body = out.String()
	d, err := kb.Build(rec)
	if err != nil {
		return store.Document{}, fail(CodeNoText, rd.name, err)
	}
	if d.Title == "" {
		d.Title = fileTitle
	}
	return d, nil
}

// tablesToRows replaces every outermost <table> by one <p> a row, written as rowText
// writes a spreadsheet's rows. A header row is a <thead> row or a first row of <th> cells.
func tablesToRows(b *body, n *html.Node) error {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && c.DataAtom == atom.Table {
			rows, header := tableRows(c)
			sub := &body{reader: b.reader}
			if err := sub.table(rows, header); err != nil {
				return err
			}
			div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
			if cap := caption(c); cap != "" {
				div.AppendChild(element(atom.P, cap))
			}
			for _, blk := range sub.blocks {
				div.AppendChild(element(atom.P, blk.Text))
			}
			n.InsertBefore(div, c)
			n.RemoveChild(c)
		} else if err := tablesToRows(b, c); err != nil {
			return err
		}
		c = next
	}
	return nil
}

func element(a atom.Atom, text string) *html.Node {
	e := &html.Node{Type: html.ElementNode, Data: a.String(), DataAtom: a}
	e.AppendChild(&html.Node{Type: html.TextNode, Data: text})
	return e
}

func caption(t *html.Node) string {
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Caption {
			return oneLine(nodeText(c))
		}
	}
	return ""
}

// tableRows reads a table's rows (nested tables' text flattened into their cell) and
// whether its first row is a header.
func tableRows(t *html.Node) ([][]string, bool) {
	var rows [][]string
	header := false
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inHead bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Thead:
				walk(c, true)
			case atom.Tbody, atom.Tfoot:
				walk(c, false)
			case atom.Tr:
				var cells []string
				allTH := true
				for td := c.FirstChild; td != nil; td = td.NextSibling {
					if td.Type == html.ElementNode && (td.DataAtom == atom.Td || td.DataAtom == atom.Th) {
						cells = append(cells, nodeText(td))
						allTH = allTH && td.DataAtom == atom.Th
					}
				}
				if len(rows) == 0 && len(cells) > 0 && (inHead || allTH) {
					header = true
				}
				rows = append(rows, cells)
			}
		}
	}
	walk(t, false)
	return rows, header
}

// nodeText is the text inside n, blocks separated by spaces, scripts and styles left out.
func nodeText(n *html.Node) string {
	var sb strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			sb.WriteString(n.Data)
		case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style):
			return
		case n.Type == html.ElementNode:
			sb.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return sb.String()
}
