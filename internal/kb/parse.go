package kb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"svc/internal/errs"
)

// The wire shapes, one per type, so that a field that belongs to another type (a "question"
// on a page) is rejected as unknown instead of silently ignored.
type (
	pageLine struct {
		Type  string `json:"type"`
		URL   string `json:"url"`
		Title string `json:"title"`
		Body  string `json:"body"`
		Lang  string `json:"lang"`
	}
	qaLine struct {
		Type     string `json:"type"`
		Question string `json:"question"`
		Answer   string `json:"answer"`
		Lang     string `json:"lang"`
	}
	productLine struct {
		Type        string    `json:"type"`
		Name        string    `json:"name"`
		URL         string    `json:"url"`
		Price       priceText `json:"price"`
		Category    string    `json:"category"`
		Image       string    `json:"image"`
		Description string    `json:"description"`
		Lang        string    `json:"lang"`
	}
	articleLine struct {
		Type         string `json:"type"`
		Slug         string `json:"slug"`
		Title        string `json:"title"`
		Body         string `json:"body"`
		CategorySlug string `json:"category_slug"`
		CategoryName string `json:"category_name"`
		Lang         string `json:"lang"`
	}
)

// priceText accepts a price as a string or a bare number: shop exports often write 129.9
// where the format asks for display text, and refusing the whole file for that helps nobody.
type priceText string

func (p *priceText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*p = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*p = priceText(s)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return errors.New("price must be text or a number")
		}
		*p = priceText(n.String())
	}
	return nil
}

// ParseJSONL reads an import file: one JSON object per line, blank lines skipped, a leading
// UTF-8 byte order mark tolerated. It validates every record and returns the first problem
// as a *LineError, so that the caller can refuse the file as a whole.
func ParseJSONL(r io.Reader) ([]Record, error) {
	var recs []Record
	err := ScanJSONL(r, func(rec Record) error {
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// ScanJSONL reads an import file as ParseJSONL does, handing each valid record to fn as it
// is read instead of keeping them all; it stops at the first problem or at fn's first error.
func ScanJSONL(r io.Reader, fn func(Record) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	line, n := 0, 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if n == maxRecords {
			return lineErr(line, "err.kb.too_many_records", "too many records (at most %d a file)", maxRecords)
		}
		n++
		rec, err := parseLine(b)
		if err != nil {
			return lineErrOf(line, err)
		}
		rec.Line = line
		if err := Validate(&rec); err != nil {
			return lineErrOf(line, err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return lineErr(line+1, "err.kb.line_too_long", "line longer than %d MiB", maxLineBytes>>20)
		}
		return fmt.Errorf("read import file: %w", err)
	}
	return nil
}

// parseLine decodes one non-blank line into a Record, by its type.
func parseLine(b []byte) (Record, error) {
	if b[0] != '{' {
		return Record{}, because("err.kb.not_object", "not a JSON object")
	}
	var probe struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return Record{}, jsonProblem(err)
	}
	if probe.Type == nil || *probe.Type == "" {
		return Record{}, because("err.kb.type_missing", `missing "type" (page, qa, product or article)`)
	}
	switch *probe.Type {
	case TypePage:
		var l pageLine
		if err := decodeStrict(b, &l); err != nil {
			return Record{}, err
		}
		return Record{Type: TypePage, URL: l.URL, Title: l.Title, Body: l.Body, Lang: l.Lang}, nil
	case TypeQA:
		var l qaLine
		if err := decodeStrict(b, &l); err != nil {
			return Record{}, err
		}
		return Record{Type: TypeQA, Question: l.Question, Answer: l.Answer, Lang: l.Lang}, nil
	case TypeProduct:
		var l productLine
		if err := decodeStrict(b, &l); err != nil {
			return Record{}, err
		}
		return Record{Type: TypeProduct, Name: l.Name, URL: l.URL, Price: string(l.Price),
			Category: l.Category, Image: l.Image, Description: l.Description, Lang: l.Lang}, nil
	case TypeArticle:
		var l articleLine
		if err := decodeStrict(b, &l); err != nil {
			return Record{}, err
		}
		return Record{Type: TypeArticle, Slug: l.Slug, Title: l.Title, Body: l.Body,
			CategorySlug: l.CategorySlug, CategoryName: l.CategoryName, Lang: l.Lang}, nil
	}
	return Record{}, because("err.kb.type_unknown", "unknown type %q (want page, qa, product or article)", *probe.Type)
}

// decodeStrict decodes exactly one object into v, refusing unknown fields and trailing data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonProblem(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return because("err.kb.trailing_data", "unexpected data after the JSON object")
	}
	return nil
}

// jsonProblem rewords encoding/json errors for an operator reading a line number.
func jsonProblem(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		key := "err.kb.field_text"
		if te.Field == "price" {
			key = "err.kb.field_text_or_number"
		}
		return errs.Newf(errs.BadRequest, "field %q must be %s", te.Field, wantKind(te.Field)).WithKey(key, te.Field)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return errs.New(errs.BadRequest, msg).WithKey("err.kb.unknown_field", name)
	}
	if strings.Contains(msg, "after top-level value") {
		return because("err.kb.trailing_data", "unexpected data after the JSON object")
	}
	return because("err.kb.invalid_json", "invalid JSON: %s", msg)
}

func wantKind(field string) string {
	if field == "price" {
		return "text or a number"
	}
	return "text"
}
