package ingest

import (
	"bytes"
	"fmt"
	"os"

	"github.com/xuri/excelize/v2"
)

// readXLSX reads a workbook with excelize: every sheet with something in it is a section
// under its name, its rows a table with the first row as the header when it reads as one;
// cells are read as Excel shows them (number formats, dates), formulas by their cached
// value. The zip is checked (openZip) before excelize expands it.
func readXLSX(b *body, data []byte) error {
	return xlsxSheets(b.reader, data, func(name string, rows [][]string, _ []int) error {
		if len(trimTable(cloneRows(rows))) == 0 {
			return nil
		}
		if err := b.heading(1, name); err != nil {
			return err
		}
		return b.table(rows, false)
	})
}

// xlsxSheets calls fn with every sheet's name and rows (empty rows left out) with their
// row numbers, in order.
func xlsxSheets(rd *reader, data []byte, fn func(name string, rows [][]string, nums []int) error) error {
	if _, err := openZip(rd, XLSX, data); err != nil {
		return err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    rd.lim.MaxUnzipped,
		UnzipXMLSizeLimit: min(rd.lim.MaxUnzipped, 16<<20),
		TmpDir:            os.TempDir(),
	})
	if err != nil {
		return rd.corrupt(XLSX, err)
	}
	defer f.Close() // removes the temporary files of large sheets
	sheets := f.GetSheetList()
	if len(sheets) > rd.lim.MaxSheets {
		return fail(CodeTooManySheets, rd.name, nil, rd.lim.MaxSheets)
	}
	for _, name := range sheets {
		rows, nums, err := xlsxRows(rd, f, name)
		if err != nil {
			return err
		}
		if err := fn(name, rows, nums); err != nil {
			return err
		}
	}
	return nil
}

func xlsxRows(rd *reader, f *excelize.File, sheet string) ([][]string, []int, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, nil, rd.corrupt(XLSX, fmt.Errorf("sheet %q: %w", sheet, err))
	}
	defer it.Close()
	var rows [][]string
	var nums []int
	for n := 1; it.Next(); n++ {
		cols, err := it.Columns()
		if err != nil {
			return nil, nil, rd.corrupt(XLSX, fmt.Errorf("sheet %q: %w", sheet, err))
		}
		filled := 0
		for _, v := range cols {
			if v != "" {
				filled++
			}
		}
		if filled == 0 {
			continue
		}
		if len(cols) > maxColumns {
			return nil, nil, fail(CodeTooManyCells, rd.name, nil, rd.lim.MaxCells)
		}
		if err := rd.row(filled); err != nil {
			return nil, nil, err
		}
		rows, nums = append(rows, cols), append(nums, n)
	}
	if err := it.Error(); err != nil {
		return nil, nil, rd.corrupt(XLSX, fmt.Errorf("sheet %q: %w", sheet, err))
	}
	return rows, nums, nil
}
