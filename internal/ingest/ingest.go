package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"svc/internal/errs"
	"svc/internal/kb"
	"svc/internal/store"
)

// Options describe one file.
type Options struct {
	// Name is the file's name as uploaded ("returns.pdf"): its extension helps decide the
	// format, errors name the file by it, and it titles the document when Title is empty.
	Name string
	// Lang is the documents' language ("tr", "en", "de"); "" detects it from the text.
	Lang string
	// Title and URL are the document's title and address; both optional.
	Title string
	URL   string
	// Limits bound the file; zero fields take DefaultLimits.
	Limits Limits
}

// Result is what one file yielded.
type Result struct {
	Format Format
	// Documents are built and chunked for the store (kb.Build's output), in the order the
	// file holds them; AccountID, SiteID and Origin are the caller's to set. A file yields
	// one document today; callers must not rely on that.
	Documents []store.Document
}

// Chunks counts the chunks of the result's documents.
func (r Result) Chunks() int {
	n := 0
	for _, d := range r.Documents {
		n += len(d.Chunks)
	}
	return n
}

// Read reads one file into knowledge-base documents: the format is detected (Detect), the
// file is read with its structure within opt.Limits, and the text is built into documents
// as `svc kb import` builds a page (kb.BuildBlocks), in opt.Lang or the language its text is
// in. A bad file is an error naming it and its problem (see the Err* values), and nothing
// of it is returned. Nothing is stored.
func Read(ctx context.Context, r io.Reader, opt Options) (Result, error) {
	lim := opt.Limits.withDefaults()
	name := displayName(opt.Name)
	if err := checkLang(opt.Lang); err != nil {
		return Result{}, err
	}
	data, err := readAll(r, lim.MaxBytes, name)
	if err != nil {
		return Result{}, err
	}
	f, err := Detect(opt.Name, data)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	rd := &reader{ctx: ctx, name: name, lim: lim}
	doc, err := readFormat(rd, f, data, opt)
	if err != nil {
		return Result{}, err
	}
	return Result{Format: f, Documents: []store.Document{doc}}, nil
}

// readFormat reads data as f and builds its document. A panic in a parsing library (they
// read a stranger's bytes) is the file's damage, not the server's crash.
func readFormat(rd *reader, f Format, data []byte, opt Options) (doc store.Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = store.Document{}, rd.corrupt(f, fmt.Errorf("panic: %v", p))
		}
	}()
	rec := kb.Record{Type: kb.TypePage, Lang: opt.Lang, Title: opt.Title, URL: opt.URL}
	if rec.Title == "" {
		rec.Title = FileTitle(opt.Name)
	}
	if f == HTML {
		return readHTML(rd, data, rec)
	}
	b := &body{reader: rd}
	switch f {
	case PDF:
		err = readPDF(b, data)
	case DOCX:
		err = readDOCX(b, data)
	case ODT:
		err = readODT(b, data)
	case XLSX:
		err = readXLSX(b, data)
	case ODS:
		err = readODS(b, data)
	case CSV:
		err = readCSV(b, data)
	case Markdown:
		err = readMarkdown(b, data)
	default:
		err = readText(b, data)
	}
	if err != nil {
		return store.Document{}, err
	}
	if err := rd.alive(); err != nil {
		return store.Document{}, err
	}
	if len(b.blocks) == 0 {
		return store.Document{}, fail(CodeNoText, rd.name, nil)
	}
	doc, err = kb.BuildBlocks(rec, b.blocks)
	if err != nil {
		return store.Document{}, fail(CodeNoText, rd.name, err)
	}
	return doc, nil
}

// readAll reads the file up to max bytes; a larger one is refused as too large.
func readAll(r io.Reader, max int64, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		var me interface{ Timeout() bool }
		if errors.As(err, &me) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fail(CodeTooLarge, name, nil, max>>20)
	}
	if len(data) == 0 {
		return nil, fail(CodeNoText, name, errors.New("empty file"))
	}
	return data, nil
}

func checkLang(l string) error {
	switch l {
	case "", "tr", "en", "de":
		return nil
	}
	return errs.Coded(errs.BadRequest, "err.kb.lang_invalid", "lang %q is not one of tr, en, de", l)
}

// displayName is the file's name as errors show it: its last path element, or "the file".
func displayName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	if name == "." || name == "/" || name == "" {
		return "the file"
	}
	return name
}

// FileTitle names a document by its file's name: "size-chart_2024.xlsx" becomes "size chart
// 2024". "" for a file without a name.
func FileTitle(name string) string {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if base == "." || base == "/" {
		return ""
	}
	base = strings.TrimSuffix(base, path.Ext(base))
	return strings.Join(strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '+' || r == ' ' }), " ")
}
