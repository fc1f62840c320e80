// Package nultext is svc's one rule for the NUL character (U+0000) in text.
//
// No text svc keeps may hold a NUL: PostgreSQL refuses it in every text column (SQLSTATE
// 22021), SQLite would keep it, and no person types one. So, once and alike everywhere:
//
//   - Text a client sends (an API parameter, a dashboard form field or search, a line of an
//     import file, a password on standard input) is refused when it holds a NUL, naming the
//     field: Field and Values give the client error (errs.BadRequest, a 400 `bad_request` on
//     the API, the form's error in the dashboard, exit 2 or a numbered line on the command
//     line). It is never silently changed: a changed password or e-mail would not be the one
//     the person typed.
//   - Text svc takes from elsewhere (a crawled page, an extracted PDF, a model's reply) has
//     its NULs dropped with Strip: nobody there can be asked to send it again.
//   - Both stores refuse a query argument holding a NUL with the same client error (Stored),
//     before the database sees it, so a boundary that forgot the rule still answers alike on
//     SQLite and PostgreSQL and never with a 500.
package nultext

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
)

// In reports whether s holds a NUL.
func In(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// Strip drops every NUL of s: for text svc takes from a page, a file or a model, never for
// a client's own field (see Field).
func Strip(s string) string {
	if !In(s) {
		return s
	}
	return strings.ReplaceAll(s, "\x00", "")
}

// maxNameChars bounds a field name echoed in a refusal: the name is the client's own text.
const maxNameChars = 40

// Field returns nil, or, when value holds a NUL, the client error naming the field.
func Field(name, value string) error {
	if !In(value) {
		return nil
	}
	return refusal(name)
}

// Values checks every name and value of a form or query, in name order so that the field
// named is the same on every run; nil when none holds a NUL.
func Values(v url.Values) error {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if In(k) {
			return refusal(k)
		}
		for _, s := range v[k] {
			if In(s) {
				return refusal(k)
			}
		}
	}
	return nil
}

// refusal is the client error for a field holding a NUL. The name is shown without its
// NULs and clipped, since it is the client's text too.
func refusal(name string) error {
	name = Strip(name)
	if utf8.RuneCountInString(name) > maxNameChars {
		name = string([]rune(name)[:maxNameChars]) + "…"
	}
	return &refused{&errs.Error{Kind: errs.BadRequest,
		Safe: "The field " + strconv.Quote(name) + " contains a NUL character (U+0000), which no text may contain.",
		Key:  "err.text.nul_field", Args: []any{name}}}
}

// refused is a refusal of this package: the client error (errs.As finds it), worded by it
// alone, and errors.Is ErrNUL.
type refused struct{ client *errs.Error }

func (e *refused) Error() string        { return e.client.Safe }
func (e *refused) Unwrap() error        { return e.client }
func (e *refused) Is(target error) bool { return target == ErrNUL }

// ErrNUL matches every refusal of this package (errors.Is), telling a text refused for a
// NUL from other bad input.
var ErrNUL = errors.New("text contains a NUL character (U+0000)")

// Stored is what a store answers for a query argument holding a NUL: the same client error
// on every store, without a field name (a store does not know which field of the request
// the argument came from).
func Stored() error {
	return &refused{&errs.Error{Kind: errs.BadRequest,
		Safe: "A text field contains a NUL character (U+0000), which no text may contain.",
		Key:  "err.text.nul"}}
}
