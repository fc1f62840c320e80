package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"path"
	"strings"
)

// readCSV reads a CSV file as one table: the delimiter is sniffed (comma, semicolon, tab
// or pipe; Excel in Germany and Turkey saves with semicolons), quotes are read leniently,
// and the first row is the header when it reads as one.
func readCSV(b *body, data []byte) error {
	rows, _, err := csvRows(b.reader, data)
	if err != nil {
		return err
	}
	return b.table(rows, false)
}

// csvRows reads every non-empty row of a CSV file within the row and cell bounds, with the
// line each starts on.
func csvRows(rd *reader, data []byte) ([][]string, []int, error) {
	src := decode(data, "text/csv")
	cr := csv.NewReader(bytes.NewReader(src))
	cr.Comma = sniffDelimiter(src, rd.name)
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	var rows [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, rd.corrupt(CSV, err)
		}
		filled := 0
		for _, v := range rec {
			if strings.TrimSpace(v) != "" {
				filled++
			}
		}
		if filled == 0 {
			continue
		}
		if err := rd.row(filled); err != nil {
			return nil, nil, err
		}
		line, _ := cr.FieldPos(0)
		rows, lines = append(rows, rec), append(lines, line)
	}
	return rows, lines, nil
}

// sniffDelimiter picks the separator that splits the first lines most often, outside
// quotes; a .tsv file is tab-separated.
func sniffDelimiter(src []byte, name string) rune {
	if ext := strings.ToLower(path.Ext(name)); ext == ".tsv" || ext == ".tab" {
		return '\t'
	}
	best, bestN := ',', 0
	for _, d := range []rune{',', ';', '\t', '|'} {
		n := 0
		lines := 0
		quoted := false
		for _, c := range string(src[:min(len(src), 8192)]) {
			switch {
			case c == '"':
				quoted = !quoted
			case c == '\n' && !quoted:
				lines++
			case c == d && !quoted:
				n++
			}
			if lines >= 5 {
				break
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	return best
}
