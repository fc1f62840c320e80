package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"svc/internal/errs"
	"svc/internal/nultext"
)

// params are the request's named parameters, read from whichever encoding the caller used:
// form, multipart or JSON bodies (DECISIONS.md), and the query string.
type params map[string]string

// readParams collects body fields first and query parameters second, so a body field wins.
// The query is decoded first, so that a malformed query is reported as the query's fault
// rather than the body's (ParseMultipartForm reads the query too).
func readParams(r *http.Request) (params, error) {
	vals, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, encodingError("query string", r.URL.RawQuery, err)
	}
	query := params{}
	query.addForm(vals)
	p := params{}
	if r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch {
		if err := readBody(r, p); err != nil {
			return nil, err
		}
	}
	for k, v := range query {
		if _, ok := p[k]; !ok {
			p[k] = v
		}
	}
	if err := p.checkNUL(); err != nil {
		return nil, err
	}
	return p, nil
}

// checkNUL refuses a request with a NUL in any parameter's name or value, naming the
// parameter (nultext: a NUL is refused at every boundary, never dropped), so no handler
// and no store meets one.
func (p params) checkNUL() error {
	vals := make(url.Values, len(p))
	for k, v := range p {
		name, isList := strings.CutSuffix(k, "[]")
		if !isList {
			vals[name] = append(vals[name], v)
			continue
		}
		var items []string
		if json.Unmarshal([]byte(v), &items) == nil {
			vals[name] = append(vals[name], items...)
		}
	}
	return nultext.Values(vals)
}

func readBody(r *http.Request, p params) error {
	ct := r.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return readJSON(r.Body, p)
	case mt == "multipart/form-data":
		if err := r.ParseMultipartForm(maxBody); err != nil {
			if errors.Is(err, http.ErrMissingBoundary) {
				return errs.Wrap(errs.BadRequest,
					"The multipart/form-data Content-Type has no boundary parameter; let your HTTP client set the header for a multipart body, or send a URL-encoded form or JSON.", err)
			}
			return bodyError(err, "The multipart body could not be read: its parts or their headers are malformed.")
		}
		p.addForm(r.MultipartForm.Value)
	case mt == "application/x-www-form-urlencoded":
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return bodyError(err, "The form body could not be read.")
		}
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return encodingError("form body", string(raw), err)
		}
		p.addForm(vals)
	case mt == "":
		// No Content-Type: callers that forget the header get JSON read as JSON and
		// anything else read as a URL-encoded form.
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return bodyError(err, "The body could not be read.")
		}
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
			return readJSON(bytes.NewReader(raw), p)
		}
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return encodingError("form body", string(raw), err)
		}
		p.addForm(vals)
	default:
		// Drain to apply the size limit before refusing.
		if _, err := io.Copy(io.Discard, r.Body); err != nil && isMaxBytes(err) {
			return bodyError(err, "")
		}
		return errs.Newf(errs.BadRequest, "Content-Type %q is not supported; send form fields or JSON.", mt)
	}
	return nil
}

func bodyError(err error, msg string) error {
	if isMaxBytes(err) {
		return errs.Wrap(errs.TooLarge, fmt.Sprintf("The request body is larger than %d KiB.", maxBody>>10), err)
	}
	return errs.Wrap(errs.BadRequest, msg, err)
}

func readJSON(body io.Reader, p params) error {
	raw, err := io.ReadAll(body)
	if err != nil {
		return bodyError(err, "The JSON body could not be read.")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return jsonError(raw, err)
	}
	if end := skipSpace(raw, dec.InputOffset()); end < len(raw) {
		line, col := position(raw, end)
		return errs.Newf(errs.BadRequest,
			"The JSON body has more after its object, at line %d, column %d; send exactly one JSON object.", line, col)
	}
	for k, v := range obj {
		switch t := v.(type) {
		case string:
			p[k] = t
		case json.Number:
			p[k] = t.String()
		case bool:
			p[k] = strconv.FormatBool(t)
		case nil:
		case []any:
			list := make([]string, 0, len(t))
			for _, e := range t {
				switch x := e.(type) {
				case string:
					list = append(list, x)
				case json.Number:
					list = append(list, x.String())
				default:
					return errs.Newf(errs.BadRequest, "Field %q must be a list of strings.", k)
				}
			}
			p[k+"[]"] = encodeList(list)
		default:
			return errs.Newf(errs.BadRequest, "Field %q must be a string, a number or a list of strings.", k)
		}
	}
	return nil
}

// int64Param parses an optional integer parameter.
func (p params) int64Param(name string, def int64) (int64, error) {
	v := strings.TrimSpace(p[name])
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, errs.Newf(errs.BadRequest, "%s must be an integer.", name)
	}
	return n, nil
}

// addForm copies form or query values into p: each field's first value, and every value
// of a repeated field, or of one named with the PHP convention "items[]", as a list under
// "items[]" (see list).
func (p params) addForm(vals url.Values) {
	for k, v := range vals {
		if len(v) == 0 {
			continue
		}
		name, isList := strings.CutSuffix(k, "[]")
		if isList || len(v) > 1 {
			p[name+"[]"] = encodeList(v)
		}
		if !isList {
			p[name] = v[0]
		}
	}
}

// encodeList keeps a list inside params as a JSON array in one string.
func encodeList(v []string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// list reads a list parameter: the values of "name[]" (a JSON array in the body, a repeated
// form field or the PHP convention), or else the one string "name" split at commas and new
// lines. Items are trimmed and empty ones dropped.
func (p params) list(name string) []string {
	var items []string
	if raw, ok := p[name+"[]"]; !ok || json.Unmarshal([]byte(raw), &items) != nil {
		items = strings.FieldsFunc(p[name], func(r rune) bool { return r == ',' || r == '\n' })
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}
