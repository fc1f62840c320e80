package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/kb"
)

// body collects what a reader found, as kb blocks, counting the text against the limits.
type body struct {
	*reader
	blocks []kb.Block
}

// heading adds a heading of level (1 outermost).
func (b *body) heading(level int, text string) error {
	text = oneLine(text)
	if text == "" {
		return nil
	}
	b.blocks = append(b.blocks, kb.Block{Level: min(max(level, 1), 6), Text: text})
	return b.took(len(text))
}

// para adds a paragraph, a list item or a table row.
func (b *body) para(text string) error {
	return b.add(strings.TrimSpace(text))
}

func (b *body) add(text string) error {
	if text == "" {
		return nil
	}
	b.blocks = append(b.blocks, kb.Block{Text: text})
	return b.took(len(text))
}

// item adds a list item at depth (0 outermost): "- text", indented two spaces a level, so
// a list stays a list in the chunk a visitor is quoted from.
func (b *body) item(depth int, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	return b.add(strings.Repeat("  ", min(max(depth, 0), 8)) + "- " + text)
}

// table adds a table's rows, each one block that carries the column headers: with a
// header row, "Size: M, Chest: 96–101 cm"; a two-column table without one is a list of
// "key: value"; other rows keep their cells apart with " | ". header says whether the
// format marked the first row as the header; when it did not, a first row that reads as
// one (every cell filled with text that is not a number, all different) is taken as it.
func (b *body) table(rows [][]string, header bool) error {
	rows = trimTable(rows)
	if len(rows) == 0 {
		return nil
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if width == 1 {
		for _, r := range rows {
			if err := b.para(r[0]); err != nil {
				return err
			}
		}
		return nil
	}
	if !header {
		header = len(rows) > 1 && looksHeader(rows[0], width)
	}
	var head []string
	if header {
		head, rows = rows[0], rows[1:]
		if len(rows) == 0 { // a header alone is a line of text
			return b.para(strings.Join(head, " | "))
		}
	}
	for _, r := range rows {
		if err := b.para(rowText(head, r, width)); err != nil {
			return err
		}
	}
	return nil
}

// rowText writes one row with its headers.
func rowText(head, row []string, width int) string {
	var parts []string
	switch {
	case head != nil:
		for i, v := range row {
			if v == "" {
				continue
			}
			if i < len(head) && head[i] != "" {
				parts = append(parts, head[i]+": "+v)
			} else {
				parts = append(parts, v)
			}
		}
		return strings.Join(parts, ", ")
	case width == 2 && len(row) == 2 && row[0] != "" && row[1] != "":
		return row[0] + ": " + row[1]
	}
	for _, v := range row {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " | ")
}

// trimTable cleans cells (one line each), drops empty rows and the columns empty in every row.
func trimTable(rows [][]string) [][]string {
	out := rows[:0]
	used := 0
	for _, r := range rows {
		last := -1
		for i := range r {
			r[i] = oneLine(r[i])
			if r[i] != "" {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		r = r[:last+1]
		used = max(used, len(r))
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	// Columns empty throughout (a spreadsheet's spacer column) are dropped.
	empty := make([]bool, used)
	for c := range used {
		empty[c] = true
		for _, r := range out {
			if c < len(r) && r[c] != "" {
				empty[c] = false
				break
			}
		}
	}
	for i, r := range out {
		kept := r[:0]
		for c, v := range r {
			if !empty[c] {
				kept = append(kept, v)
			}
		}
		out[i] = kept
	}
	return out
}

// looksHeader reports a first row that names columns: as wide as the table, every cell
// filled, none a number, no two alike, none longer than a label.
func looksHeader(r []string, width int) bool {
	if len(r) < width {
		return false
	}
	seen := map[string]bool{}
	for _, v := range r {
		if v == "" || utf8.RuneCountInString(v) > 80 || numeric(v) || seen[strings.ToLower(v)] {
			return false
		}
		seen[strings.ToLower(v)] = true
	}
	return true
}

// numeric reports a cell that is a number, an amount or a date rather than a label.
func numeric(v string) bool {
	letters := 0
	for _, r := range v {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	digits := 0
	for _, r := range v {
		if unicode.IsDigit(r) {
			digits++
		}
	}
	return digits > 0 && letters <= 3
}

// oneLine collapses white space, line breaks included, to single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
