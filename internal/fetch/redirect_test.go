package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// Redirects are checked hop by hop: metadata targets are refused even with
// AllowPrivate, in any spelling, and before any connection is attempted.
func TestRedirectToMetadataBlocked(t *testing.T) {
	targets := []string{
		"http://169.254.169.254/latest/meta-data",
		"http://169.254.169.254:80/latest/meta-data/iam/security-credentials/",
		"http://[::ffff:169.254.169.254]/latest/meta-data",
		"http://[fd00:ec2::254]/latest/meta-data",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://100.100.100.200/latest/meta-data",
		"http://meta.test/latest/meta-data", // resolves to 169.254.169.254 (fake DNS)
	}
	for _, target := range targets {
		t.Run(target, func(t *testing.T) {
			srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target, http.StatusFound)
			}))
			c := privateClient(t, Options{})
			fakeDNS(c, map[string][]string{"meta.test": {"169.254.169.254"}})
			resp, err := c.Get(testContext(t), Request{URL: srv.URL + "/start"})
			if !errors.Is(err, ErrBlocked) {
				t.Fatalf("Get = %+v, %v; want ErrBlocked", resp, err)
			}
		})
	}
}

func TestRedirectPolicy(t *testing.T) {
	var hits atomic.Int64
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch {
		case r.URL.Path == "/loop":
			http.Redirect(w, r, "/loop", http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, "/chain/"):
			var n int
			_, _ = fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			if n == 0 {
				_, _ = w.Write([]byte("end of chain"))
				return
			}
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusTemporaryRedirect)
		case r.URL.Path == "/in/start":
			http.Redirect(w, r, "/out/page", http.StatusFound)
		case r.URL.Path == "/in/ok":
			http.Redirect(w, r, "/in/page", http.StatusSeeOther)
		case r.URL.Path == "/in/page":
			_, _ = w.Write([]byte("in scope"))
		case r.URL.Path == "/to-ftp":
			http.Redirect(w, r, "ftp://example.com/file", http.StatusFound)
		case r.URL.Path == "/to-creds":
			w.Header().Set("Location", "http://user:pw@"+r.Host+"/in/page")
			w.WriteHeader(http.StatusFound)
		case r.URL.Path == "/no-location":
			w.WriteHeader(http.StatusFound)
		case r.URL.Path == "/out/page":
			t.Error("off-scope page was fetched")
		default:
			http.NotFound(w, r)
		}
	}))
	inScope := func(u *url.URL) bool {
		return strings.HasPrefix(u.Path, "/in/") || strings.HasPrefix(u.Path, "/chain/") || u.Path == "/loop"
	}

	tests := []struct {
		name         string
		path         string
		maxRedirects int
		wantErr      error
		wantBody     string
		wantStatus   int
		wantHits     int64
		wantFinal    string
	}{
		{name: "loop", path: "/loop", wantErr: ErrTooManyRedirects, wantHits: 6},
		{name: "endless chain", path: "/chain/1000", wantErr: ErrTooManyRedirects, wantHits: 6},
		{name: "exactly max", path: "/chain/5", wantBody: "end of chain", wantHits: 6, wantFinal: "/chain/0"},
		{name: "one over max", path: "/chain/6", wantErr: ErrTooManyRedirects, wantHits: 6},
		{name: "custom max", path: "/chain/2", maxRedirects: 1, wantErr: ErrTooManyRedirects, wantHits: 2},
		{name: "no redirects", path: "/chain/1", maxRedirects: -1, wantErr: ErrTooManyRedirects, wantHits: 1},
		{name: "off scope", path: "/in/start", wantErr: ErrOffScope, wantHits: 1},
		{name: "in scope", path: "/in/ok", wantBody: "in scope", wantHits: 2, wantFinal: "/in/page"},
		{name: "non-http target", path: "/to-ftp", wantErr: ErrBadURL, wantHits: 1},
		{name: "credentials in target", path: "/to-creds", wantErr: ErrBadURL, wantHits: 1},
		{name: "redirect without location", path: "/no-location", wantStatus: http.StatusFound, wantHits: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			c := privateClient(t, Options{MaxRedirects: tc.maxRedirects, InScope: inScope})
			resp, err := c.Get(testContext(t), Request{URL: srv.URL + tc.path})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if tc.wantBody != "" && string(resp.Body) != tc.wantBody {
					t.Fatalf("body %q", resp.Body)
				}
				if tc.wantStatus != 0 && resp.Status != tc.wantStatus {
					t.Fatalf("status %d", resp.Status)
				}
				if tc.wantFinal != "" && resp.URL.Path != tc.wantFinal {
					t.Fatalf("final URL %s", resp.URL)
				}
			}
			if got := hits.Load(); got != tc.wantHits {
				t.Fatalf("server hits = %d, want %d", got, tc.wantHits)
			}
		})
	}
}
