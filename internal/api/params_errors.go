package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/redact"
)

// Messages for input that cannot be decoded say what is wrong, where, and how to fix it,
// quoting at most a short excerpt of the caller's own input, and never one that holds
// anything shaped like a secret (an excerpt could show part of a key without its prefix,
// which no redaction would recognise).

// excerptBytes bounds the input quoted on each side of the fault.
const excerptBytes = 16

// encodingError explains why url.ParseQuery refused raw, the decoded part (what: "form
// body" or "query string").
func encodingError(what, raw string, err error) error {
	if strings.Contains(err.Error(), "semicolon") {
		return errs.Wrap(errs.BadRequest, "The "+what+` separates fields with ";": use "&" between fields, and write a literal ; as %3B.`, err)
	}
	at := badEscape(raw)
	if at < 0 {
		return errs.Wrap(errs.BadRequest, "The "+what+" is not valid URL encoding: encode each name and value (a space as + or %20, a literal % as %25).", err)
	}
	if ex, ok := excerpt(raw, at); ok {
		return errs.Wrap(errs.BadRequest, "The "+what+" is not valid URL encoding near "+ex+": write a literal % as %25.", err)
	}
	return errs.Wrap(errs.BadRequest, "The "+what+" is not valid URL encoding: a % must start an escape such as %20; write a literal % as %25.", err)
}

// badEscape is the index of the first "%" in s not followed by two hex digits, or -1.
func badEscape(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			return i
		}
	}
	return -1
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// excerpt quotes the value around s[at] (the field's value, or its name when the fault is
// there), cut to excerptBytes on each side. It reports false when the field holds anything
// shaped like a secret, which is then not quoted at all.
func excerpt(s string, at int) (string, bool) {
	start := strings.LastIndexAny(s[:at], "&;") + 1
	end := len(s)
	if i := strings.IndexAny(s[at:], "&;"); i >= 0 {
		end = at + i
	}
	if eq := strings.IndexByte(s[start:end], '='); eq >= 0 && start+eq < at {
		start += eq + 1
	}
	if field := s[start:end]; redact.Contains(field) || redact.Contains(lenientUnescape(field)) {
		return "", false
	}
	from, to := max(start, at-excerptBytes), min(end, at+excerptBytes)
	for from > start && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < end && !utf8.RuneStart(s[to]) {
		to++
	}
	// Quoted so that control characters, DEL and invalid UTF-8 are escaped and the message
	// stays one printable line; the quotes are put back around the ellipses.
	q := strconv.Quote(s[from:to])
	q = q[1 : len(q)-1]
	if from > start {
		q = "…" + q
	}
	if to < end {
		q += "…"
	}
	return `"` + q + `"`, true
}

// lenientUnescape decodes the valid escapes of s and keeps the rest as written, so a secret
// disguised by escaping some of its letters is still seen.
func lenientUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// jsonError explains why a JSON body did not decode into an object.
func jsonError(raw []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(raw, int(syn.Offset)-1)
		// encoding/json's text quotes at most one character of the input.
		return errs.Wrap(errs.BadRequest, fmt.Sprintf("The JSON body is not valid at line %d, column %d: %s.", line, col, syn.Error()), err)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := position(raw, len(raw))
		return errs.Wrap(errs.BadRequest, fmt.Sprintf("The JSON body ends at line %d, column %d before its object is complete.", line, col), err)
	case errors.As(err, &typ):
		return errs.Wrap(errs.BadRequest, fmt.Sprintf(`The JSON body must be an object ({"name": "value", …}), not %s.`, article(typ.Value)), err)
	default:
		return errs.Wrap(errs.BadRequest, "The body is not a JSON object.", err)
	}
}

// article names a JSON value's kind with its indefinite article.
func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "":
		return "another value"
	default:
		return "a " + kind
	}
}

// position is the 1-based line and column (in characters) of byte offset off in raw.
func position(raw []byte, off int) (line, col int) {
	off = max(0, min(off, len(raw)))
	line = 1 + bytes.Count(raw[:off], []byte("\n"))
	lineStart := bytes.LastIndexByte(raw[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(raw[lineStart:off])
}

// skipSpace is the offset of the first byte at or after off that is not JSON white space.
func skipSpace(raw []byte, off int64) int {
	i := int(off)
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}
