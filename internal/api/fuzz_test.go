package api

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"svc/internal/errs"
)

// FuzzRequestParams drives request decoding (form, multipart, JSON and untyped bodies, plus
// the query string) through a real *http.Request with the API's body limit, and holds it to
// its promises beyond "no panic" (FuzzReadParams in params_fuzz_test.go checks the error kinds
// alone):
//   - a refusal is a 400 or 413 with a one-line message and no half-read params;
//   - the query's fields are there unless the body named them;
//   - every list reads as trimmed, non-empty items;
//   - round trips: the params sent again as a JSON object, or (list fields aside) as a form,
//     decode to the same params.
//
// Seeds run with `go test`; `go test -run='^$' -fuzz='^FuzzRequestParams$' ./internal/api`
// explores further.
func FuzzRequestParams(f *testing.F) {
	for _, s := range []struct{ body, ct string }{
		{"message=hi&conversationId=12", "application/x-www-form-urlencoded"},
		{"items[]=a&items[]=+b+&items=c&items=d&fields=x,%20y%0Az", "application/x-www-form-urlencoded; charset=UTF-8"},
		{"brief=50% off", "application/x-www-form-urlencoded"},
		{"sinceId=7&sinceId=8", "application/x-www-form-urlencoded"},
		{`{"message":"merhaba","n":5,"f":1.5e3,"b":true,"z":null,"items":["a",2," "]}`, "application/json"},
		{`{"message":{"x":1}}`, "application/ld+json; charset=utf-8"},
		{`{"items":[true]}`, "application/json"},
		{`{"a":"\ud800","":"empty key","k[]":"not a list"}`, "application/json"},
		{`{"a":1} {"b":2}`, "application/json"},
		{"   ", "application/json"},
		{`["not","an","object"]`, "application/json"},
		{"--b\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi\r\n--b\r\nContent-Disposition: form-data; name=\"items[]\"\r\n\r\nx\r\n--b--\r\n", "multipart/form-data; boundary=b"},
		{"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n\r\nfile\r\n--b--\r\n", "multipart/form-data; boundary=b"},
		{"--b\r\n\r\n", "multipart/form-data; boundary=b"},
		{"x", "multipart/form-data"},
		{`{"message":"x"}`, ""},
		{"message=%zz", ""},
		{"<x/>", "text/xml"},
		{"", ";;;"},
		{"a=1", "application/x-www-form-urlencoded; charset=\x7f"},
	} {
		f.Add(s.body, s.ct)
	}
	f.Fuzz(func(t *testing.T, body, ct string) {
		p, err := decodeFuzzRequest(body, ct)
		if err != nil {
			if p != nil {
				t.Fatalf("params %v returned with error %v", p, err)
			}
			e, ok := errs.As(err)
			if !ok || (e.Kind != errs.BadRequest && e.Kind != errs.TooLarge) {
				t.Fatalf("body %q, type %q: %v is not a client error", body, ct, err)
			}
			if e.Safe == "" || strings.IndexFunc(e.Safe, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
				t.Fatalf("body %q, type %q: message %q is not one printable line", body, ct, e.Safe)
			}
			return
		}
		if _, ok := p["sinceId"]; !ok {
			t.Fatalf("body %q, type %q: the query's sinceId is lost: %v", body, ct, p)
		}
		for k := range p {
			name := strings.TrimSuffix(k, "[]")
			for _, it := range p.list(name) {
				if it == "" || strings.TrimSpace(it) != it {
					t.Fatalf("list %q has item %q", name, it)
				}
			}
		}

		// The same params as a JSON object decode to themselves (encoding/json would turn
		// invalid UTF-8 into U+FFFD, so only valid text round-trips).
		if allUTF8(p) {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(map[string]string(p)); err != nil {
				t.Fatal(err)
			}
			if b.Len() <= maxBody {
				again, err := decodeFuzzRequest(b.String(), "application/json")
				if err != nil || !maps.Equal(again, p) {
					t.Fatalf("JSON round trip of %q:\n got %q, %v\nwant %q", b.String(), again, err, p)
				}
			}
		}
		// And as a form, for the fields that are not lists (a list field's value is the
		// JSON array params keep it as, which a form would send as one item).
		form, plain := url.Values{}, params{}
		for k, v := range p {
			if !strings.HasSuffix(k, "[]") {
				form.Set(k, v)
				plain[k] = v
			}
		}
		if enc := form.Encode(); len(enc) <= maxBody {
			again, err := decodeFuzzRequest(enc, "application/x-www-form-urlencoded")
			if err != nil || !maps.Equal(again, plain) {
				t.Fatalf("form round trip of %q:\n got %q, %v\nwant %q", enc, again, err, plain)
			}
		}
	})
}

// decodeFuzzRequest reads a POST with body and Content-Type as the server would: through the
// API's body limit, with a query string that the body may override.
func decodeFuzzRequest(body, ct string) (params, error) {
	r := httptest.NewRequest(http.MethodPost, "/api/v1/chat/send?sinceId=1", strings.NewReader(body))
	r.Header.Set("Content-Type", ct)
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, maxBody)
	return readParams(r)
}

func allUTF8(p params) bool {
	for k, v := range p {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}
