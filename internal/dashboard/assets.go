package dashboard

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// The dashboard's static files: our stylesheet and script, and the vendored htmx and
// uPlot (pinned in package-lock.json and copied by `go generate`). Nothing is fetched at run
// time.
//
//go:generate sh -c "npm ci --no-audit --no-fund --loglevel=error && cp node_modules/htmx.org/dist/htmx.min.js assets/vendor/ && cp node_modules/uplot/dist/uPlot.iife.min.js node_modules/uplot/dist/uPlot.min.css assets/vendor/"
//go:embed assets
var assetFS embed.FS

// asset is one static file, held with its gzip form and a content hash.
type asset struct {
	body, gz []byte
	ctype    string
	etag     string
	version  string
}

type assetSet struct {
	files map[string]*asset // by path below assets/
}

func loadAssets() (*assetSet, error) {
	set := &assetSet{files: map[string]*asset{}}
	err := fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".LICENSE") {
			return err
		}
		b, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		a := &asset{body: b, ctype: mime.TypeByExtension(path.Ext(p)), version: hex.EncodeToString(sum[:6])}
		a.etag = `"` + a.version + `"`
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		a.gz = buf.Bytes()
		set.files[strings.TrimPrefix(p, "assets/")] = a
		return nil
	})
	return set, err
}

// url is an asset's address with its content hash, so it can be cached for good and a new
// release is fetched anew.
func (s *assetSet) url(name string) string {
	a, ok := s.files[name]
	if !ok {
		return "/dashboard/assets/" + name
	}
	return "/dashboard/assets/" + name + "?v=" + a.version
}

func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := s.assets.files[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", a.etag)
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") == a.version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}
