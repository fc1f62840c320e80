package testsets

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"svc/internal/errs"
	"svc/internal/store"
)

// Line is one test in the JSON Lines format of import and export (DECISIONS.md, "Owner
// test sets"):
//
//	{"q":"Do you ship to Austria?","lang":"en","expect":["Austria","5 days"],"answerable":true}
//	{"q":"Do you sell gift cards?","answerable":false}
//	{"q":"Kestrel X2 Pro ne kadar?","lang":"tr","expect":["18.499"],"product":"Kestrel X2 Pro","answerable":true}
//
// lang may be left out (the question's language is detected). answerable is required: a
// test says whether the assistant should know the answer. expect (every substring must be
// in the reply, compared without case and accents) and product (one of the reply's product
// cards, by name, URL or document id) belong to answerable tests; an answerable test with
// neither passes whenever the assistant answers confidently.
type Line struct {
	Q          string   `json:"q"`
	Lang       string   `json:"lang,omitempty"`
	Expect     []string `json:"expect,omitempty"`
	Answerable *bool    `json:"answerable"`
	Product    string   `json:"product,omitempty"`
}

// LineError is one bad line of an import.
type LineError struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
	// Key and Args are Err's catalog message, when it has one: the dashboard words the
	// line's reason in the user's language (Err stays the CLI's English).
	Key  string `json:"-"`
	Args []any  `json:"-"`
}

// ImportError lists every bad line of a file; nothing of the file was stored.
type ImportError struct {
	Lines []LineError
	// More counts the bad lines past the ones listed (MaxLineErrors).
	More int
}

// MaxLineErrors bounds the lines an ImportError lists.
const MaxLineErrors = 50

func (e *ImportError) Error() string {
	var b strings.Builder
	for i, l := range e.Lines {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "line %d: %s", l.Line, l.Err)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "; and %d more bad lines", e.More)
	}
	b.WriteString(" (nothing was imported)")
	return b.String()
}

// AsClientError is e as a BadRequest for the API, dashboard and CLI (exit 2): its message
// names every bad line.
func (e *ImportError) AsClientError() *errs.Error {
	return &errs.Error{Kind: errs.BadRequest, Safe: e.Error()}
}

// Parse reads a JSON Lines file of tests. Every bad line is reported by number (up to
// MaxLineErrors), and then nothing of the file is returned: an import is all or nothing, so
// that a fixed file can simply be imported again. Blank lines are skipped. Validation is
// Validate's; origin is store.TestOriginImport.
func Parse(r io.Reader) ([]store.TestCase, error) {
	var out []store.TestCase
	bad := &ImportError{}
	fail := func(n int, err error) {
		le := LineError{Line: n, Err: err.Error()}
		if e, ok := errs.As(err); ok {
			le.Err, le.Key, le.Args = e.Safe, e.Key, e.Args
		}
		if len(bad.Lines) < MaxLineErrors {
			bad.Lines = append(bad.Lines, le)
		} else {
			bad.More++
		}
	}
	sc := bufio.NewScanner(io.LimitReader(r, MaxImportBytes+1))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	read := 0
	n := 0
	for sc.Scan() {
		n++
		read += len(sc.Bytes()) + 1
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, err := parseLine(line)
		if err != nil {
			fail(n, err)
			continue
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			fail(n+1, errs.Coded(errs.BadRequest, "err.tests.line_too_long", "The line is longer than 1 MiB."))
			return nil, bad
		}
		return nil, fmt.Errorf("read tests: %w", err)
	}
	if read > MaxImportBytes {
		return nil, errs.Coded(errs.BadRequest, "err.tests.file_too_large", "The file is larger than %d MiB.", MaxImportBytes>>20)
	}
	if len(bad.Lines) > 0 {
		return nil, bad
	}
	if len(out) == 0 {
		return nil, errs.Coded(errs.BadRequest, "err.tests.file_empty", "The file holds no tests.")
	}
	return out, nil
}

func parseLine(line []byte) (store.TestCase, error) {
	var l Line
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		// The decoder's own words name the field or the position: kept as they are.
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.line_not_object", "not a test object: %v", err.Error())
	}
	if dec.More() {
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.line_many_values", "more than one JSON value on the line")
	}
	if l.Answerable == nil {
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.answerable_required",
			`"answerable" is required: true when the assistant should know the answer, false when it should say it does not know`)
	}
	return Validate(Input{Question: l.Q, Lang: l.Lang, Expect: l.Expect, Answerable: *l.Answerable, Product: l.Product,
		Origin: store.TestOriginImport})
}

// LineOf is a test in the import format.
func LineOf(c store.TestCase) Line {
	a := c.Answerable
	l := Line{Q: c.Question, Lang: c.Lang, Answerable: &a, Product: c.Product}
	if len(c.Expect) > 0 {
		l.Expect = c.Expect
	}
	return l
}

// Export writes tests in the import format, one line each, so that an export imports again
// as the same set.
func Export(w io.Writer, cases []store.TestCase) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		if err := enc.Encode(LineOf(c)); err != nil {
			return err
		}
	}
	return nil
}
