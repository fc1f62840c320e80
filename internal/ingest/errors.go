package ingest

import (
	"context"
	"errors"
	"fmt"

	"svc/internal/errs"
)

// What can be wrong with a file. Every error Read and Products return for a bad file is an
// *errs.Error (Kind BadRequest, or TooLarge for ErrTooLarge) whose chain holds one of these,
// so errors.Is tells them apart; Code names the problem more finely.
var (
	ErrUnknownFormat = errors.New("unknown file format")
	ErrTooLarge      = errors.New("file too large")
	ErrEncrypted     = errors.New("file is encrypted")
	ErrNoText        = errors.New("file holds no text")
	ErrCorrupt       = errors.New("file is damaged")
	ErrTooManyPages  = errors.New("too many pages")
	ErrTooManyRows   = errors.New("too many rows, cells or sheets")
	ErrTooMuchText   = errors.New("too much text")
	ErrTooComplex    = errors.New("file too complex") // zip bomb, too many members, XML too deep
	ErrTimeout       = errors.New("reading took too long")
	ErrNoHeader      = errors.New("no products header row")
)

// Accepted names the formats Read accepts, for messages that list them.
const Accepted = "PDF, DOCX, ODT, XLSX, ODS, CSV, Markdown, plain text and HTML"

// Problem codes (Code's results), also the catalog keys' last part: err.ingest.<code>.
const (
	CodeUnknownFormat = "unknown_format"
	CodeTooLarge      = "too_large"
	CodeEncrypted     = "encrypted"
	CodeNoText        = "no_text"
	CodeCorrupt       = "corrupt"
	CodeTooManyPages  = "too_many_pages"
	CodeTooManyRows   = "too_many_rows"
	CodeTooManyCells  = "too_many_cells"
	CodeTooManySheets = "too_many_sheets"
	CodeTooMuchText   = "too_much_text"
	CodeZipBomb       = "zip_bomb"
	CodeZipEntries    = "zip_entries"
	CodeXMLDepth      = "xml_depth"
	CodeTimeout       = "timeout"
	CodeNoHeader      = "no_header"
	CodeNotProducts   = "not_products"
)

// problem is the cause of a file's error: its code, the sentinel it is, and the reader's
// own detail (logged, never shown).
type problem struct {
	code   string
	is     error
	detail error
}

func (p *problem) Error() string {
	if p.detail != nil {
		return p.is.Error() + ": " + p.detail.Error()
	}
	return p.is.Error()
}

func (p *problem) Unwrap() []error {
	if p.detail != nil {
		return []error{p.is, p.detail}
	}
	return []error{p.is}
}

// Code is the problem code of an error from Read or Products (CodeEncrypted, …), "" for
// any other error.
func Code(err error) string {
	var p *problem
	if errors.As(err, &p) {
		return p.code
	}
	return ""
}

// messages are the English sentences of the problems, formatted with the file's name first;
// the catalog's err.ingest.<code> take the same arguments.
var messages = map[string]struct {
	is     error
	format string
}{
	CodeUnknownFormat: {ErrUnknownFormat, "%s: this kind of file cannot be read. Accepted formats: " + Accepted + "."},
	CodeTooLarge:      {ErrTooLarge, "%s is larger than %d MiB."},
	CodeEncrypted:     {ErrEncrypted, "%s is protected by a password: save it without one and upload it again."},
	CodeNoText:        {ErrNoText, "%s holds no text that can be read (a scanned document needs text recognition first)."},
	CodeCorrupt:       {ErrCorrupt, "%s is damaged or is not a valid %s file."},
	CodeTooManyPages:  {ErrTooManyPages, "%s has more than %d pages."},
	CodeTooManyRows:   {ErrTooManyRows, "%s has more than %d rows."},
	CodeTooManyCells:  {ErrTooManyRows, "%s has more than %d filled cells."},
	CodeTooManySheets: {ErrTooManyRows, "%s has more than %d sheets."},
	CodeTooMuchText:   {ErrTooMuchText, "%s holds more than %d MiB of text."},
	CodeZipBomb:       {ErrTooComplex, "%s expands to more than %d MiB."},
	CodeZipEntries:    {ErrTooComplex, "%s holds more than %d parts."},
	CodeXMLDepth:      {ErrTooComplex, "%s is nested more than %d levels deep."},
	CodeTimeout:       {ErrTimeout, "%s took longer than %d seconds to read."},
	CodeNoHeader:      {ErrNoHeader, "%s: the first row must name the columns (a name column at least; also url, price, category, image, description, sku)."},
	CodeNotProducts:   {ErrUnknownFormat, "%s: a products file must be CSV or XLSX."},
}

// fail is the error of a file's problem: code names it, args follow the file's name in its
// message, and detail (may be nil) is kept for the logs.
func fail(code, file string, detail error, args ...any) error {
	m := messages[code]
	kind := errs.BadRequest
	if code == CodeTooLarge {
		kind = errs.TooLarge
	}
	all := append([]any{file}, args...)
	e := errs.Coded(kind, "err.ingest."+code, m.format, all...)
	e.Cause = &problem{code: code, is: m.is, detail: detail}
	return e
}

// reader is what every format's reader shares: the file's name for errors, the limits,
// the deadline, and the running totals the limits bound.
type reader struct {
	ctx  context.Context
	name string
	lim  Limits
	text int // bytes of text taken so far
	rows int
	cell int
}

// alive reports the deadline: a reader calls it between pages and rows.
func (r *reader) alive() error {
	if err := r.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fail(CodeTimeout, r.name, err, int(r.lim.Timeout.Seconds()))
		}
		return err
	}
	return nil
}

// took counts n bytes of text against MaxText.
func (r *reader) took(n int) error {
	r.text += n
	if r.text > r.lim.MaxText {
		return fail(CodeTooMuchText, r.name, nil, r.lim.MaxText>>20)
	}
	return nil
}

// row counts a non-empty row of cells non-empty cells against MaxRows and MaxCells, and
// checks the deadline every thousand rows.
func (r *reader) row(cells int) error {
	r.rows++
	r.cell += cells
	switch {
	case r.rows > r.lim.MaxRows:
		return fail(CodeTooManyRows, r.name, nil, r.lim.MaxRows)
	case r.cell > r.lim.MaxCells:
		return fail(CodeTooManyCells, r.name, nil, r.lim.MaxCells)
	case r.rows%1000 == 0:
		return r.alive()
	}
	return nil
}

// corrupt is the error of a file that is not a valid one of its format.
func (r *reader) corrupt(f Format, detail error) error {
	return fail(CodeCorrupt, r.name, detail, f.Name())
}

// wrapf adds context to a detail.
func wrapf(format string, args ...any) error { return fmt.Errorf(format, args...) }
