package ingest

import "time"

// Limits bound what one file may cost. The zero value of a field means its default
// (DefaultLimits), so a caller sets only the bounds it needs changed.
type Limits struct {
	// MaxBytes is the file's size: DECISIONS.md's 20 MiB for uploads.
	MaxBytes int64
	// MaxPages bounds a PDF's pages; a longer one is refused before it is read.
	MaxPages int
	// MaxSheets, MaxRows and MaxCells bound a spreadsheet or CSV file: sheets, rows of all
	// sheets together (empty ones not counted), and non-empty cells.
	MaxSheets int
	MaxRows   int
	MaxCells  int
	// MaxText bounds the text taken from the file, in bytes; a file with more is refused,
	// not cut, so an upload never stores half a document silently.
	MaxText int
	// MaxZipEntries and MaxUnzipped bound an Office file (a zip): its members, and the sum
	// of their expanded sizes (a zip bomb is refused before anything is expanded). For a
	// PDF, MaxUnzipped bounds its content streams expanded.
	MaxZipEntries int
	MaxUnzipped   int64
	// MaxXMLDepth bounds the nesting of an Office file's XML.
	MaxXMLDepth int
	// Timeout bounds reading one file; the readers check it between pages and rows.
	Timeout time.Duration
}

// DefaultLimits are the bounds of an upload. A 20 MiB spreadsheet of short rows holds
// about 100,000 of them; 500 PDF pages are a long manual; 32 MiB of text is several
// thousand pages of prose.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:      20 << 20,
		MaxPages:      500,
		MaxSheets:     100,
		MaxRows:       100_000,
		MaxCells:      2_000_000,
		MaxText:       32 << 20,
		MaxZipEntries: 10_000,
		MaxUnzipped:   256 << 20,
		MaxXMLDepth:   256,
		Timeout:       2 * time.Minute,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	pick := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	pick64 := func(v, def int64) int64 {
		if v <= 0 {
			return def
		}
		return v
	}
	l.MaxBytes = pick64(l.MaxBytes, d.MaxBytes)
	l.MaxPages = pick(l.MaxPages, d.MaxPages)
	l.MaxSheets = pick(l.MaxSheets, d.MaxSheets)
	l.MaxRows = pick(l.MaxRows, d.MaxRows)
	l.MaxCells = pick(l.MaxCells, d.MaxCells)
	l.MaxText = pick(l.MaxText, d.MaxText)
	l.MaxZipEntries = pick(l.MaxZipEntries, d.MaxZipEntries)
	l.MaxUnzipped = pick64(l.MaxUnzipped, d.MaxUnzipped)
	l.MaxXMLDepth = pick(l.MaxXMLDepth, d.MaxXMLDepth)
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	return l
}
