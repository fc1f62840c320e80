package validate

import "net/http"

// TB is the part of testing.TB that Check needs; *testing.T and *testing.B satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// Check reports through t any way in which resp (whose body the caller has already read
// into body) departs from the document. It is ValidateResponse for HTTP tests:
//
//	resp, _ := srv.Client().Do(req)
//	body, _ := io.ReadAll(resp.Body)
//	v.Check(t, req, resp, body)
func (v *Validator) Check(t TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if err := v.ValidateResponse(req.Method, req.URL, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("%v", err)
	}
}
