package cli

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// `svc demo` prints the dashboard's URL and a demo owner's sign-in, which works; a second
// run gives a new password and the first one no longer signs in.
func TestDemoPrintsAWorkingDashboardSignIn(t *testing.T) {
	dir := t.TempDir()
	var earlier string
	for run := range 2 {
		srv := startServer(t, dir, "demo")
		var out struct {
			URL      string `json:"dashboard_url"`
			Email    string `json:"dashboard_email"`
			Password string `json:"dashboard_password"`
		}
		if err := json.Unmarshal(srv.stdout.Bytes(), &out); err != nil || out.URL != srv.base+"/dashboard/" ||
			out.Email == "" || len(out.Password) < 10 {
			t.Fatalf("run %d: demo output %q: %v", run, srv.stdout.String(), err)
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		signIn := func(pw string) *http.Response {
			req, _ := http.NewRequest(http.MethodPost, srv.base+"/dashboard/login",
				strings.NewReader(url.Values{"email": {out.Email}, "password": {pw}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", srv.base)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		if resp := signIn(out.Password); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/dashboard/" {
			t.Fatalf("run %d: sign in with the printed password: %d %q", run, resp.StatusCode, resp.Header.Get("Location"))
		}
		if earlier != "" {
			if resp := signIn(earlier); resp.StatusCode == http.StatusSeeOther {
				t.Fatalf("run %d: the previous run's password still signs in", run)
			}
		}
		earlier = out.Password
		srv.stop(t)
		if !strings.Contains(srv.stderr.String(), out.URL) {
			t.Errorf("the dashboard URL is not in the human message: %s", srv.stderr.String())
		}
	}
}
