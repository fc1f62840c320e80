package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"svc/internal/errs"
)

// paramsOf decodes a request as the server would: through the API's body limit.
func paramsOf(method, target, body, ct string) (params, error) {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, maxBody)
	return readParams(r)
}

// A body or query that cannot be decoded is refused with a sentence that says what is wrong,
// where, and how to fix it, quoting a short excerpt (never a secret).
func TestUndecodableParamsSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	const form = "application/x-www-form-urlencoded"
	const key = "svc_pk_0123456789abcdef0123456789abcdef"
	tests := []struct {
		name, method, target, body, ct string
		want                           []string // substrings of the message
		not                            []string // must not appear in it
	}{
		{"raw percent in a form", "POST", "/x", "brief=50% off&tone=warm", form,
			[]string{`form body`, `"50% off"`, `%25`}, nil},
		{"raw percent, no Content-Type", "POST", "/x", "brief=50% off", "",
			[]string{`form body`, `"50% off"`, `%25`}, nil},
		{"percent at the end", "POST", "/x", "message=100%", form,
			[]string{`"100%"`, `%25`}, nil},
		{"long value, excerpt only", "POST", "/x", "message=" + strings.Repeat("a", 200) + "%zz" + strings.Repeat("b", 200), form,
			[]string{`%zz`, `%25`}, []string{strings.Repeat("a", 60), strings.Repeat("b", 60)}},
		{"raw percent in the query of a GET", "GET", "/x?sinceId=5&q=50%off", "", "",
			[]string{`query string`, `"50%off"`, `%25`}, nil},
		{"raw percent in the query of a form POST", "POST", "/x?q=50%off", "message=hi", form,
			[]string{`query string`, `"50%off"`}, []string{"form body"}},
		{"raw percent in the query of a JSON POST", "POST", "/x?q=50%off", `{"message":"hi"}`, "application/json",
			[]string{`query string`, `"50%off"`}, nil},
		{"semicolon separator", "POST", "/x", "message=hi;tone=warm", form,
			[]string{`";"`, `"&"`}, nil},
		{"a key is never quoted", "POST", "/x", "message=" + key + "%zz", form,
			[]string{`%25`}, []string{"0123456789abcdef", "89abcdef"}},
		{"an escaped key is never quoted", "POST", "/x", "message=%73vc_pk_0123456789abcdef0123456789abcdef%zz", form,
			[]string{`%25`}, []string{"0123456789abcdef", "89abcdef"}},
		{"JSON syntax error", "POST", "/x", "{\n  \"message\": \"hi\",\n}", "application/json",
			[]string{`line 3, column 1`}, nil},
		{"JSON cut short", "POST", "/x", `{"message": "hi"`, "application/json",
			[]string{`ends`, `line 1`}, nil},
		{"JSON array", "POST", "/x", `["a"]`, "application/json",
			[]string{`object`, `array`}, nil},
		{"JSON trailing data", "POST", "/x", `{"a":"1"} {"b":"2"}`, "application/json",
			[]string{`one JSON object`, `line 1, column 11`}, nil},
		{"multipart without boundary", "POST", "/x", "x", "multipart/form-data",
			[]string{`boundary`}, nil},
	}
	for _, tc := range tests {
		p, err := paramsOf(tc.method, tc.target, tc.body, tc.ct)
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.BadRequest || p != nil {
			t.Errorf("%s: params %v, error %v", tc.name, p, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(e.Safe, w) {
				t.Errorf("%s: message %q does not say %q", tc.name, e.Safe, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(e.Safe, n) {
				t.Errorf("%s: message %q holds %q", tc.name, e.Safe, n)
			}
		}
		if strings.Contains(e.Safe, "could not be read") || len(e.Safe) > 240 {
			t.Errorf("%s: message %q is vague or long", tc.name, e.Safe)
		}
	}
}

// Valid input still decodes, a literal % written as %25 included.
func TestEncodedParamsStillDecode(t *testing.T) {
	t.Parallel()
	p, err := paramsOf("POST", "/x?sinceId=3&q=50%25", "brief=50%25+off&tone=warm", "application/x-www-form-urlencoded")
	if err != nil || p["brief"] != "50% off" || p["tone"] != "warm" || p["sinceId"] != "3" || p["q"] != "50%" {
		t.Fatalf("params %v, %v", p, err)
	}
	p, err = paramsOf("POST", "/x", "{\"message\": \"hi\"}\n", "application/json")
	if err != nil || p["message"] != "hi" {
		t.Fatalf("JSON params %v, %v", p, err)
	}
}
