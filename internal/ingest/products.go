package ingest

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/kb"
	"svc/internal/lang"
	"svc/internal/store"
	"svc/internal/textindex"
)

// The fields of a product, as a products spreadsheet's header row and the KB API name them.
const (
	FieldName        = "name"
	FieldURL         = "url"
	FieldPrice       = "price"
	FieldCategory    = "category"
	FieldImage       = "image"
	FieldDescription = "description"
	FieldSKU         = "sku"
)

// ProductRow is one product of a spreadsheet or of a KB API request, before it is checked.
// Row numbers the rows of its sheet as the file shows them (the header row is row 1), for
// errors; Sheet names an XLSX file's sheet ("" for CSV and the API).
type ProductRow struct {
	Row         int
	Sheet       string
	Name        string
	URL         string
	Price       string
	Category    string
	Image       string
	Description string
	SKU         string
}

// RowError is the problem of one product row: Field names its column ("" for the row as a
// whole), Reason says what is wrong in English, and Key and Args are the same in the i18n
// catalog's words (a "err.kb.…" or "err.ingest.…" key), for the dashboard.
type RowError struct {
	Row    int
	Sheet  string
	Field  string
	Reason string
	Key    string
	Args   []any
}

func (e RowError) String() string {
	if e.Sheet != "" {
		return fmt.Sprintf("%s row %d: %s", e.Sheet, e.Row, e.Reason)
	}
	return fmt.Sprintf("row %d: %s", e.Row, e.Reason)
}

// RowErrors is every bad row of a products file or request; nothing of it may be stored.
// It is a client error: errs.As finds its *errs.Error (Kind BadRequest), whose message
// lists the first rows.
type RowErrors struct {
	Rows []RowError
}

func (e *RowErrors) Error() string { return e.safe().Safe }

func (e *RowErrors) Unwrap() error { return e.safe() }

// maxListedRows is how many bad rows the error's message names.
const maxListedRows = 20

func (e *RowErrors) safe() *errs.Error {
	parts := make([]string, 0, min(len(e.Rows), maxListedRows))
	for _, r := range e.Rows[:min(len(e.Rows), maxListedRows)] {
		parts = append(parts, r.String())
	}
	msg := strings.Join(parts, "; ")
	if more := len(e.Rows) - maxListedRows; more > 0 {
		msg += fmt.Sprintf("; and %d more", more)
	}
	return errs.Coded(errs.BadRequest, "err.ingest.product_rows", "%d product rows cannot be imported, so none was: %s",
		len(e.Rows), msg)
}

//go:embed headers.tsv
var headersTSV []byte

// headerFields maps a folded header (headerKey) to the field it names.
var headerFields = func() map[string]string {
	m, err := parseHeaders(headersTSV)
	if err != nil {
		panic(err) // the file is compiled in: a bad one is a build defect, and its test fails
	}
	return m
}()

// parseHeaders reads headers.tsv: a field and a header a line; every field known, no
// header twice.
func parseHeaders(data []byte) (map[string]string, error) {
	known := []string{FieldName, FieldURL, FieldPrice, FieldCategory, FieldImage, FieldDescription, FieldSKU}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		field, header, ok := strings.Cut(line, "\t")
		if !ok || !slices.Contains(known, field) || strings.TrimSpace(header) == "" {
			return nil, fmt.Errorf("headers.tsv line %d: want a field and a header", n)
		}
		k := headerKey(header)
		if prev, dup := m[k]; dup {
			return nil, fmt.Errorf("headers.tsv line %d: %q already names %s", n, header, prev)
		}
		m[k] = field
	}
	for _, f := range known {
		if m[headerKey(f)] != f {
			return nil, fmt.Errorf("headers.tsv: the field %s must name itself", f)
		}
	}
	return m, sc.Err()
}

// headerKey folds a header for matching: lower case, ASCII (textindex.Fold: "Ürün Adı" is
// "urun adi"), letters and digits only.
func headerKey(h string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, textindex.Fold(strings.TrimSpace(h)))
}

// Products reads a products spreadsheet (CSV or XLSX; every sheet of a workbook whose
// header row names the products' columns) and builds its product documents (ReadProducts,
// then BuildProducts). Columns it does not know are kept in each product's description as
// "Header: value" lines (stock, colour, material). Every bad row is reported at once, as
// *RowErrors; nothing is stored.
func Products(ctx context.Context, r io.Reader, opt Options) ([]store.Document, error) {
	rows, err := ReadProducts(ctx, r, opt)
	if err != nil {
		return nil, err
	}
	return BuildProducts(rows, opt.Lang)
}

// ReadProducts reads a products spreadsheet's rows without checking them.
func ReadProducts(ctx context.Context, r io.Reader, opt Options) ([]ProductRow, error) {
	lim := opt.Limits.withDefaults()
	name := displayName(opt.Name)
	data, err := readAll(r, lim.MaxBytes, name)
	if err != nil {
		return nil, err
	}
	f, err := Detect(opt.Name, data)
	if err != nil {
		return nil, err
	}
	if f == Text {
		f = CSV // a CSV export saved as .txt
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	rd := &reader{ctx: ctx, name: name, lim: lim}
	var out []ProductRow
	found := false
	take := func(sheet string, rows [][]string, nums []int) error {
		ps, ok := productRows(sheet, rows, nums)
		found = found || ok
		out = append(out, ps...)
		return nil
	}
	switch f {
	case CSV:
		rows, nums, err := csvRows(rd, data)
		if err != nil {
			return nil, err
		}
		take("", rows, nums)
	case XLSX:
		if err := xlsxSheets(rd, data, take); err != nil {
			return nil, err
		}
	default:
		return nil, fail(CodeNotProducts, name, nil)
	}
	if !found {
		return nil, fail(CodeNoHeader, name, nil)
	}
	return out, nil
}

// productRows reads one table (rows numbered by nums): its first non-empty row is the
// header, which must name the name column; false when it does not (a notes sheet beside
// the catalogue).
func productRows(sheet string, rows [][]string, nums []int) ([]ProductRow, bool) {
	head := -1
	for i, r := range rows {
		if slices.ContainsFunc(r, func(v string) bool { return strings.TrimSpace(v) != "" }) {
			head = i
			break
		}
	}
	if head < 0 {
		return nil, false
	}
	cols := make([]string, len(rows[head]))
	extra := make([]string, len(rows[head]))
	hasName := false
	for i, h := range rows[head] {
		f := headerFields[headerKey(h)]
		if f != "" && !slices.Contains(cols, f) {
			cols[i] = f
			hasName = hasName || f == FieldName
		} else if strings.TrimSpace(h) != "" {
			extra[i] = oneLine(h)
		}
	}
	if !hasName {
		return nil, false
	}
	var out []ProductRow
	for i := head + 1; i < len(rows); i++ {
		p := ProductRow{Row: nums[i], Sheet: sheet}
		var more []string
		empty := true
		for c, v := range rows[i] {
			v = strings.TrimSpace(v)
			if v == "" || c >= len(cols) {
				continue
			}
			empty = false
			switch cols[c] {
			case FieldName:
				p.Name = v
			case FieldURL:
				p.URL = v
			case FieldPrice:
				p.Price = v
			case FieldCategory:
				p.Category = v
			case FieldImage:
				p.Image = v
			case FieldDescription:
				p.Description = v
			case FieldSKU:
				p.SKU = v
			default:
				if extra[c] != "" {
					more = append(more, extra[c]+": "+oneLine(v))
				}
			}
		}
		if empty {
			continue
		}
		if len(more) > 0 {
			p.Description = strings.TrimSpace(p.Description + "\n" + strings.Join(more, "\n"))
		}
		out = append(out, p)
	}
	return out, true
}

// BuildProducts checks rows and builds their product documents, in lang ("" detects the
// language of all of them together: a catalogue is written in one). A row with a bad field
// (no name, a price that is not an amount, a URL that is not http(s), a field too long) or
// a SKU another row has, or, without a SKU, a URL another SKU-less row has, is reported;
// with any bad row the result is *RowErrors listing them all and no documents.
func BuildProducts(rows []ProductRow, lang string) ([]store.Document, error) {
	if err := checkLang(lang); err != nil {
		return nil, err
	}
	if lang == "" {
		lang = catalogueLang(rows)
	}
	var bad []RowError
	rowErr := func(p ProductRow, field string, err error) {
		re := RowError{Row: p.Row, Sheet: p.Sheet, Field: field, Reason: err.Error()}
		if e, ok := errs.As(err); ok {
			re.Reason, re.Key, re.Args = e.Safe, e.Key, e.Args
		}
		bad = append(bad, re)
	}
	skus := map[string]int{}
	urls := map[string]int{}
	docs := make([]store.Document, 0, len(rows))
	for _, p := range rows {
		rec := kb.Record{Line: p.Row, Type: kb.TypeProduct, Lang: lang, Name: p.Name, URL: p.URL, Price: p.Price,
			Category: p.Category, Image: p.Image, Description: p.Description, SKU: p.SKU}
		if err := kb.Validate(&rec); err != nil {
			rowErr(p, "", err)
			continue
		}
		if rec.Price != "" && !validPrice(rec.Price) {
			rowErr(p, FieldPrice, errs.Coded(errs.BadRequest, "err.ingest.price", "price %q is not an amount", rec.Price))
			continue
		}
		if rec.SKU != "" {
			if first, dup := skus[rec.SKU]; dup {
				rowErr(p, FieldSKU, errs.Coded(errs.BadRequest, "err.ingest.sku_repeated", "sku %q is also on row %d", rec.SKU, first))
				continue
			}
			skus[rec.SKU] = p.Row
		} else if rec.URL != "" {
			if first, dup := urls[rec.URL]; dup {
				rowErr(p, FieldURL, errs.Coded(errs.BadRequest, "err.ingest.url_repeated",
					"url is also on row %d, and neither row has a sku to tell them apart", first))
				continue
			}
			urls[rec.URL] = p.Row
		}
		if len(bad) > 0 {
			continue // nothing will be stored: building the rest is wasted work
		}
		doc, err := kb.Build(rec)
		if err != nil {
			rowErr(p, "", err)
			continue
		}
		docs = append(docs, doc)
	}
	if len(bad) > 0 {
		return nil, &RowErrors{Rows: bad}
	}
	return docs, nil
}

// catalogueLang detects the language of a catalogue from its names, categories and
// descriptions together (a product name alone is too short to tell).
func catalogueLang(rows []ProductRow) string {
	var sb strings.Builder
	for _, p := range rows {
		if sb.Len() > 8000 {
			break
		}
		sb.WriteString(p.Name + ". " + p.Category + ". " + p.Description + "\n")
	}
	return lang.DetectOr(sb.String(), "en")
}

// priceRE is a displayed amount: a number (digits with thousands and decimal separators)
// with an optional currency symbol or code before or after it, and nothing else.
var priceRE = regexp.MustCompile(`^(?:[\p{Sc}]|\p{L}{1,3}\.?)?\s?\d[\d.,'’\s]*(?:[\p{Sc}]|\p{L}{1,3}\.?|,-|\.-)?$`)

// validPrice reports whether a price reads as an amount: "19.90", "119,90 €", "€ 5",
// "1.299,00 TL", "USD 12", "CHF 9.-". Words ("free", "on request"), ranges and negative
// amounts are refused.
func validPrice(p string) bool {
	return utf8.RuneCountInString(p) <= 64 && priceRE.MatchString(strings.TrimSpace(p))
}
