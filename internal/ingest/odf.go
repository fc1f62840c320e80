package ingest

import (
	"encoding/xml"
	"errors"
	"strconv"
	"strings"
)

// OpenDocument files keep their text in content.xml. The two readers share the walk of
// its text elements (paragraphs, spans, spaces, tabs, line breaks) and of its tables,
// whose repeated rows and columns are expanded only while they hold something.

// readODT reads a text document: text:h headings by their outline level, text:p
// paragraphs, text:list items (nested lists indented), tables with their header rows.
// Annotations, notes and tracked deletions are left out.
func readODT(b *body, data []byte) error {
	x, closeFn, err := odfContent(b.reader, ODT, data)
	if err != nil {
		return err
	}
	defer closeFn()
	w := odfWalker{b: b, x: x, f: ODT}
	return w.run()
}

// readODS reads a spreadsheet: every sheet is a section under its name, its rows a table.
func readODS(b *body, data []byte) error {
	x, closeFn, err := odfContent(b.reader, ODS, data)
	if err != nil {
		return err
	}
	defer closeFn()
	w := odfWalker{b: b, x: x, f: ODS}
	return w.run()
}

func odfContent(rd *reader, f Format, data []byte) (*xmlStream, func(), error) {
	z, err := openZip(rd, f, data)
	if err != nil {
		return nil, nil, err
	}
	rc, err := z.member("content.xml")
	if err != nil {
		return nil, nil, err
	}
	if rc == nil {
		return nil, nil, rd.corrupt(f, errors.New("no content.xml"))
	}
	return newXMLStream(rd, f, rc), func() { rc.Close() }, nil
}

// maxColumns is the widest sheet LibreOffice and Excel make.
const maxColumns = 16384

// odfPara is a paragraph or heading being read.
type odfPara struct {
	text  strings.Builder
	level int // heading level, 0 for a paragraph
}

// odfTable is a table being read.
type odfTable struct {
	name       string
	rows       [][]string
	row        []string
	rowRepeat  int
	cell       []string
	cellRepeat int
	headerRows int  // rows inside table:table-header-rows so far
	inHeader   bool // inside table:table-header-rows
	pending    int  // empty rows seen and not yet kept (kept only if a filled row follows)
}

type odfWalker struct {
	b      *body
	x      *xmlStream
	f      Format
	paras  []*odfPara
	tables []*odfTable
	lists  int // list nesting
	sheets int
}

func (w *odfWalker) run() error { return w.x.walk(w) }

// chars is text between the tags.
func (w *odfWalker) chars(s string) { w.write(s) }

func (w *odfWalker) write(s string) {
	if n := len(w.paras); n > 0 {
		w.paras[n-1].text.WriteString(s)
	}
}

func (w *odfWalker) table() *odfTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

// repeat reads a repetition attribute, at least 1.
func repeat(t xml.StartElement, local string) int {
	n, err := strconv.Atoi(attr(t, local))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

func (w *odfWalker) start(t xml.StartElement) error {
	switch t.Name.Local {
	case "p":
		w.paras = append(w.paras, &odfPara{})
	case "h":
		lv, err := strconv.Atoi(attr(t, "outline-level"))
		if err != nil || lv < 1 {
			lv = 1
		}
		w.paras = append(w.paras, &odfPara{level: min(lv, 6)})
	case "s":
		w.write(strings.Repeat(" ", min(repeat(t, "c"), 8)))
	case "tab":
		w.write(" ")
	case "line-break":
		w.write("\n")
	case "list":
		w.lists++
	case "annotation", "note", "tracked-changes", "bookmark-ref", "sequence-decls":
		return w.x.skip()
	case "table":
		if w.f == ODS && len(w.tables) == 0 {
			w.sheets++
			if w.sheets > w.b.lim.MaxSheets {
				return fail(CodeTooManySheets, w.b.name, nil, w.b.lim.MaxSheets)
			}
		}
		w.tables = append(w.tables, &odfTable{name: attr(t, "name")})
	case "table-header-rows":
		if tb := w.table(); tb != nil {
			tb.inHeader = true
		}
	case "table-row":
		if tb := w.table(); tb != nil {
			tb.row, tb.rowRepeat = nil, repeat(t, "number-rows-repeated")
		}
	case "table-cell", "covered-table-cell":
		if tb := w.table(); tb != nil {
			tb.cell, tb.cellRepeat = nil, repeat(t, "number-columns-repeated")
		}
	}
	return nil
}

func (w *odfWalker) end(local string) error {
	switch local {
	case "p", "h":
		if len(w.paras) == 0 {
			return nil
		}
		p := w.paras[len(w.paras)-1]
		w.paras = w.paras[:len(w.paras)-1]
		return w.endPara(p)
	case "list":
		w.lists = max(w.lists-1, 0)
	case "table-header-rows":
		if tb := w.table(); tb != nil {
			tb.inHeader = false
		}
	case "table-cell", "covered-table-cell":
		return w.endCell()
	case "table-row":
		return w.endRow()
	case "table":
		return w.endTable()
	}
	return nil
}

func (w *odfWalker) endPara(p *odfPara) error {
	text := p.text.String()
	if tb := w.table(); tb != nil {
		tb.cell = append(tb.cell, text)
		return nil
	}
	if len(w.paras) > 0 { // a frame's paragraph inside another: its text stands on its own
		return w.b.para(text)
	}
	switch {
	case p.level > 0:
		return w.b.heading(p.level, text)
	case w.lists > 0:
		return w.b.item(w.lists-1, oneLine(text))
	}
	return w.b.para(text)
}

// endCell adds the cell to its row, repeated as the file says: an empty cell repeated to
// the sheet's last column (as every ODS file ends its rows) costs nothing, a filled one
// counts every copy against MaxCells.
func (w *odfWalker) endCell() error {
	tb := w.table()
	if tb == nil {
		return nil
	}
	v := oneLine(strings.Join(tb.cell, " "))
	n := tb.cellRepeat
	switch {
	case v == "":
		// Empty cells only matter before a filled one: past the widest sheet a program
		// makes they are the row's padding.
		n = min(n, maxColumns-len(tb.row))
	case len(tb.row)+n > maxColumns || w.b.cell+n > w.b.lim.MaxCells:
		return fail(CodeTooManyCells, w.b.name, nil, w.b.lim.MaxCells)
	}
	for range n {
		tb.row = append(tb.row, v)
	}
	tb.cell = nil
	return nil
}

// endRow adds the row, repeated as the file says; an empty row (ODS ends every sheet with a
// million of them) is kept back until a filled row shows it was a gap.
func (w *odfWalker) endRow() error {
	tb := w.table()
	if tb == nil {
		return nil
	}
	last := -1
	filled := 0
	for i, v := range tb.row {
		if v != "" {
			last, filled = i, filled+1
		}
	}
	row := tb.row[:last+1]
	tb.row = nil
	if last < 0 {
		tb.pending += tb.rowRepeat
		return nil
	}
	tb.pending = 0
	for range tb.rowRepeat {
		if len(w.tables) == 1 { // nested tables' rows are counted as their cell's text
			if err := w.b.row(filled); err != nil {
				return err
			}
		}
		tb.rows = append(tb.rows, row)
		if tb.inHeader {
			tb.headerRows++
		}
	}
	return nil
}

func (w *odfWalker) endTable() error {
	if len(w.tables) == 0 {
		return nil
	}
	tb := w.tables[len(w.tables)-1]
	w.tables = w.tables[:len(w.tables)-1]
	if outer := w.table(); outer != nil {
		for _, r := range tb.rows {
			outer.cell = append(outer.cell, strings.Join(r, " "))
		}
		return nil
	}
	if w.f == ODS {
		if len(trimTable(cloneRows(tb.rows))) == 0 {
			return nil // an empty sheet adds no section
		}
		if err := w.b.heading(1, tb.name); err != nil {
			return err
		}
	}
	return w.b.table(tb.rows, tb.headerRows > 0)
}

func cloneRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = append([]string(nil), r...)
	}
	return out
}
