// Package crawltest serves the test websites of internal/crawl/testdata/sites on loopback, for
// the crawler's tests and the command-line tests that crawl and then ask questions.
//
// A site is a folder: URL path = file path, "/a/" serves "a/index.html". The placeholder
// {{BASE}} in any file becomes the server's base URL. ".html" goes out as text/html without a
// charset unless a sidecar "<file>.headers" holds header lines (and optionally "Status: 301"),
// which is how the tests publish pages in ISO-8859-1 or Windows-1254 and redirects. Every
// response carries an ETag of its bytes and honours If-None-Match, like a real web server.
package crawltest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Site is a running test website.
type Site struct {
	*httptest.Server
	dir string

	mu        sync.Mutex
	hits      map[string]int
	overrides map[string][]byte // path -> body; nil body = 404
}

// Serve starts the site in dir; it stops when the test ends.
func Serve(t testing.TB, dir string) *Site {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("test site: %v", err)
	}
	s := &Site{dir: dir, hits: map[string]int{}, overrides: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Hits returns how many times each request URI (path and query) was requested.
func (s *Site) Hits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.hits))
	for k, v := range s.hits {
		out[k] = v
	}
	return out
}

// Replace serves body at path instead of the file (with {{BASE}} still replaced).
func (s *Site) Replace(p string, body string) {
	s.mu.Lock()
	s.overrides[p] = []byte(body)
	s.mu.Unlock()
}

// Remove makes path answer 404.
func (s *Site) Remove(p string) {
	s.mu.Lock()
	s.overrides[p] = nil
	s.mu.Unlock()
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.RequestURI()]++
	body, overridden := s.overrides[r.URL.Path]
	s.mu.Unlock()

	file := filepath.Join(s.dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
	if strings.HasSuffix(r.URL.Path, "/") {
		file = filepath.Join(file, "index.html")
	}
	header := http.Header{}
	status := http.StatusOK
	if overridden {
		if body == nil {
			http.NotFound(w, r)
			return
		}
	} else {
		b, err := os.ReadFile(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		body = b
		if side, err := os.ReadFile(file + ".headers"); err == nil {
			status = readHeaders(side, header)
		}
	}
	body = bytes.ReplaceAll(body, []byte("{{BASE}}"), []byte(s.URL))
	if header.Get("Content-Type") == "" {
		header.Set("Content-Type", contentType(file))
	}
	if loc := header.Get("Location"); loc != "" {
		header.Set("Location", strings.ReplaceAll(loc, "{{BASE}}", s.URL))
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	for k, v := range header {
		w.Header()[k] = v
	}
	if status == http.StatusOK {
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if status == http.StatusOK {
		w.Write(body)
	}
}

// readHeaders applies a sidecar's "Name: value" lines and returns its status (200 by default).
func readHeaders(side []byte, h http.Header) int {
	status := http.StatusOK
	sc := bufio.NewScanner(bytes.NewReader(side))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if strings.EqualFold(name, "Status") {
			if n, err := strconv.Atoi(value); err == nil {
				status = n
			}
			continue
		}
		h.Set(name, value)
	}
	return status
}

func contentType(file string) string {
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case ".html", ".htm":
		return "text/html"
	case ".xml":
		return "application/xml"
	case ".txt":
		return "text/plain"
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
		return "application/octet-stream"
	}
}
