package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"svc/internal/errs"
)

// FuzzReadParams: whatever body and Content-Type arrive, decoding either succeeds or fails
// with a client error (400 or 413), never a panic or a server error.
func FuzzReadParams(f *testing.F) {
	f.Add("message=hi", "application/x-www-form-urlencoded")
	f.Add(`{"message":"hi","n":5,"b":true,"z":null}`, "application/json")
	f.Add(`{"message":{"x":1}}`, "application/json; charset=utf-8")
	f.Add("--b\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi\r\n--b--\r\n", "multipart/form-data; boundary=b")
	f.Add("message=%zz", "")
	f.Add(`{"message":"x"}`, "")
	f.Add("<x/>", "text/xml")
	f.Add("", ";;;")
	f.Fuzz(func(t *testing.T, body, ct string) {
		r := httptest.NewRequest(http.MethodPost, "/api/v1/chat/send?sinceId=1", strings.NewReader(body))
		r.Header.Set("Content-Type", ct)
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, maxBody)
		_, err := readParams(r)
		if err != nil {
			if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooLarge {
				t.Fatalf("body %q, type %q: kind %v: %v", body, ct, k, err)
			}
		}
	})
}
