package ingest

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
)

// readDOCX reads a Word document's main part (word/document.xml) as a stream: paragraphs
// whose style is a heading (by the style's built-in name, "heading 1", which Word keeps in
// English whatever the interface language, or its outline level) become headings;
// numbered and bulleted paragraphs are list items; tables keep their rows, with the row
// Word marks "repeat as header row" (or one that reads as a header) as the header. Deleted
// tracked changes, field codes and the fallback copies of drawings are left out.
func readDOCX(b *body, data []byte) error {
	z, err := openZip(b.reader, DOCX, data)
	if err != nil {
		return err
	}
	levels, err := docxStyles(z)
	if err != nil {
		return err
	}
	rc, err := z.member("word/document.xml")
	if err != nil {
		return err
	}
	if rc == nil {
		return b.corrupt(DOCX, errors.New("no word/document.xml"))
	}
	defer rc.Close()
	w := docxWalker{b: b, levels: levels, x: newXMLStream(b.reader, DOCX, rc)}
	return w.run()
}

// docxPara is a paragraph being read.
type docxPara struct {
	text    strings.Builder
	style   string
	list    bool
	ilvl    int
	outline int // the paragraph's own outline level + 1; 0 for none
}

// docxTable is a table being read.
type docxTable struct {
	rows   [][]string
	row    []string
	cell   []string
	header bool // the first row is marked as a header row
}

type docxWalker struct {
	b      *body
	x      *xmlStream
	levels map[string]int
	paras  []*docxPara
	tables []*docxTable
	inText bool
}

func (w *docxWalker) para() *docxPara {
	if len(w.paras) == 0 {
		return nil
	}
	return w.paras[len(w.paras)-1]
}

func (w *docxWalker) write(s string) {
	if p := w.para(); p != nil {
		p.text.WriteString(s)
	}
}

func (w *docxWalker) run() error { return w.x.walk(w) }

// chars is text between the tags: a run's text (w:t) only.
func (w *docxWalker) chars(s string) {
	if w.inText {
		w.write(s)
	}
}

func (w *docxWalker) start(t xml.StartElement) error {
	p := w.para()
	switch t.Name.Local {
	case "p":
		w.paras = append(w.paras, &docxPara{})
	case "pStyle":
		if p != nil {
			p.style = attr(t, "val")
		}
	case "numPr":
		if p != nil {
			p.list = true
		}
	case "ilvl":
		if p != nil {
			p.ilvl, _ = strconv.Atoi(attr(t, "val"))
		}
	case "outlineLvl":
		if p != nil {
			if v, err := strconv.Atoi(attr(t, "val")); err == nil && v >= 0 && v < 9 {
				p.outline = v + 1
			}
		}
	case "t":
		w.inText = true
	case "tab":
		w.write(" ")
	case "br", "cr":
		w.write("\n")
	case "noBreakHyphen":
		w.write("-")
	case "delText", "instrText", "Fallback", "footnoteReference", "commentReference":
		return w.x.skip()
	case "tbl":
		w.tables = append(w.tables, &docxTable{})
	case "tblHeader":
		if n := len(w.tables); n > 0 && len(w.tables[n-1].rows) == 0 {
			w.tables[n-1].header = true
		}
	}
	return nil
}

func (w *docxWalker) end(local string) error {
	switch local {
	case "t":
		w.inText = false
	case "p":
		if len(w.paras) == 0 {
			return nil
		}
		p := w.paras[len(w.paras)-1]
		w.paras = w.paras[:len(w.paras)-1]
		return w.endPara(p)
	case "tc":
		if t := w.table(); t != nil {
			t.row = append(t.row, strings.Join(t.cell, " "))
			t.cell = nil
		}
	case "tr":
		if t := w.table(); t != nil {
			t.rows = append(t.rows, t.row)
			t.row = nil
		}
	case "tbl":
		if len(w.tables) == 0 {
			return nil
		}
		t := w.tables[len(w.tables)-1]
		w.tables = w.tables[:len(w.tables)-1]
		if outer := w.table(); outer != nil {
			// A table inside a cell: its text joins the cell's.
			for _, r := range t.rows {
				outer.cell = append(outer.cell, strings.Join(r, " "))
			}
			return nil
		}
		return w.b.table(t.rows, t.header)
	}
	return nil
}

func (w *docxWalker) table() *docxTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

// endPara emits a finished paragraph: into its table cell, or as a heading, a list item or
// a paragraph.
func (w *docxWalker) endPara(p *docxPara) error {
	text := p.text.String()
	if t := w.table(); t != nil {
		t.cell = append(t.cell, text)
		return nil
	}
	if outer := w.para(); outer != nil {
		// A text box's paragraph inside another paragraph: it stands on its own.
		return w.b.para(text)
	}
	level := p.outline
	if level == 0 {
		level = w.levels[p.style]
	}
	switch {
	case level > 0 && strings.TrimSpace(text) != "":
		return w.b.heading(level, text)
	case p.list:
		return w.b.item(p.ilvl, oneLine(text))
	}
	return w.b.para(text)
}

// docxStyle is a paragraph style of word/styles.xml.
type docxStyle struct {
	name, basedOn string
	outline       int // outline level + 1; 0 for none
}

// docxStyles maps paragraph style ids to heading levels: "Title" is 1, "heading N" is N+1,
// a style with an outline level N (0-based) is N+2, and a style based on one of these
// inherits its level. Ids are not used: Word localises them ("berschrift1").
func docxStyles(z *officeZip) (map[string]int, error) {
	rc, err := z.member("word/styles.xml")
	if err != nil || rc == nil {
		return map[string]int{}, err
	}
	defer rc.Close()
	x := newXMLStream(z.rd, DOCX, rc)
	styles := map[string]*docxStyle{}
	var cur *docxStyle
	for {
		tok, err := x.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "style":
				cur = nil
				if attr(t, "type") == "paragraph" {
					cur = &docxStyle{}
					styles[attr(t, "styleId")] = cur
				}
			case "name":
				if cur != nil {
					cur.name = strings.ToLower(strings.TrimSpace(attr(t, "val")))
				}
			case "basedOn":
				if cur != nil {
					cur.basedOn = attr(t, "val")
				}
			case "outlineLvl":
				if cur != nil {
					if v, err := strconv.Atoi(attr(t, "val")); err == nil && v >= 0 && v < 9 {
						cur.outline = v + 1
					}
				}
			}
		}
	}
	own := func(s *docxStyle) int {
		switch {
		case s.name == "title":
			return 1
		case strings.HasPrefix(s.name, "heading "):
			if n, err := strconv.Atoi(strings.TrimPrefix(s.name, "heading ")); err == nil && n >= 1 && n <= 9 {
				return min(n+1, 6)
			}
		case s.outline > 0:
			return min(s.outline+1, 6)
		}
		return 0
	}
	levels := map[string]int{}
	for id, s := range styles {
		// Follow basedOn a few steps: custom heading styles derive from the built-in ones.
		for hop := 0; s != nil && hop < 10; hop++ {
			if l := own(s); l > 0 {
				levels[id] = l
				break
			}
			s = styles[s.basedOn]
		}
	}
	return levels, nil
}
