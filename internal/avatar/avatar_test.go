package avatar_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"svc/internal/avatar"
	"svc/internal/errs"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64"/></svg>`

// server is a local https server with an image per path; the fetcher trusts its certificate
// and may reach loopback (allowPrivate) or not.
func server(t *testing.T, allowPrivate bool) (*httptest.Server, *avatar.Fetcher, []byte) {
	t.Helper()
	small := pngOf(t, 64, 64)
	var jpg, gf bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 32, 32)), nil); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gf, image.NewPaletted(image.Rect(0, 0, 20, 20), color.Palette{color.Black, color.White}), nil); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	serve := func(path, ctype string, body []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			_, _ = w.Write(body)
		})
	}
	serve("/a.png", "image/png", small)
	serve("/lying.jpg", "image/jpeg", small) // the type is read from the bytes
	serve("/b.jpg", "image/jpeg", jpg.Bytes())
	serve("/c.gif", "image/gif", gf.Bytes())
	serve("/logo.svg", "image/svg+xml", []byte(svg))
	serve("/svg-as-png.png", "image/png", []byte(svg))
	serve("/page.html", "text/html", []byte("<!doctype html><p>hello"))
	serve("/huge.png", "image/png", pngOf(t, 600, 600))
	serve("/tiny.png", "image/png", pngOf(t, 8, 8))
	big := append(pngOf(t, 64, 64), bytes.Repeat([]byte{0}, avatar.MaxBytes)...)
	serve("/heavy.png", "image/png", big)
	mux.HandleFunc("/chunked.png", func(w http.ResponseWriter, r *http.Request) {
		// No Content-Length: the body limit must cut it while reading.
		w.Header().Set("Content-Type", "image/png")
		for range 20 {
			_, _ = w.Write(bytes.Repeat([]byte{1}, 32<<10))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/to-http", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+"/a.png", http.StatusFound)
	})
	mux.HandleFunc("/to-https", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/a.png", http.StatusFound)
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	f := avatar.New(avatar.Options{AllowPrivate: allowPrivate, Transport: srv.Client().Transport})
	return srv, f, small
}

func wantKey(t *testing.T, what string, err error, key string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.BadRequest || e.Key != key {
		t.Errorf("%s: %v, want a bad request %s", what, err, key)
	}
}

func TestFetchAcceptsImages(t *testing.T) {
	t.Parallel()
	srv, f, small := server(t, true)
	sum := sha256.Sum256(small)
	for path, typ := range map[string]string{"/a.png": "image/png", "/lying.jpg": "image/png", "/b.jpg": "image/jpeg", "/c.gif": "image/gif", "/to-https": "image/png"} {
		got, err := f.Fetch(context.Background(), srv.URL+path)
		if err != nil || got.Type != typ || len(got.Data) == 0 {
			t.Errorf("%s: %v %s", path, err, got.Type)
			continue
		}
		h := sha256.Sum256(got.Data)
		if got.Hash != hex.EncodeToString(h[:]) {
			t.Errorf("%s: hash %s is not the bytes' SHA-256", path, got.Hash)
		}
	}
	if got, _ := f.Fetch(context.Background(), srv.URL+"/a.png"); got.Hash != hex.EncodeToString(sum[:]) {
		t.Error("the PNG's hash differs from its bytes'")
	}
}

func TestFetchRefuses(t *testing.T) {
	t.Parallel()
	srv, f, _ := server(t, true)
	for path, key := range map[string]string{
		"/logo.svg":       "err.embed.avatar_type",
		"/svg-as-png.png": "err.embed.avatar_type",
		"/page.html":      "err.embed.avatar_type",
		"/huge.png":       "err.embed.avatar_dimensions",
		"/tiny.png":       "err.embed.avatar_dimensions",
		"/heavy.png":      "err.embed.avatar_too_large",
		"/chunked.png":    "err.embed.avatar_too_large",
		"/missing.png":    "err.embed.avatar_status",
		"/to-http":        "err.embed.avatar_redirect",
	} {
		_, err := f.Fetch(context.Background(), srv.URL+path)
		wantKey(t, path, err, key)
	}
	// http is refused before anything is fetched.
	_, err := f.Fetch(context.Background(), strings.Replace(srv.URL, "https://", "http://", 1)+"/a.png")
	wantKey(t, "http", err, "err.embed.avatar_https")
	_, err = f.Fetch(context.Background(), "")
	wantKey(t, "empty", err, "err.embed.avatar_url")
}

// Without the operator's permission, loopback and private addresses are never fetched,
// whether spelled as an address or a name.
func TestFetchRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	srv, f, _ := server(t, false)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	for _, u := range []string{srv.URL + "/a.png", "https://localhost" + port + "/a.png", "https://10.0.0.7/a.png",
		"https://[::1]" + port + "/a.png", "https://2130706433" + port + "/a.png"} {
		_, err := f.Fetch(context.Background(), u)
		wantKey(t, u, err, "err.embed.avatar_address")
	}
	// The cloud metadata address is refused even when private addresses are allowed.
	_, open, _ := server(t, true)
	_, err := open.Fetch(context.Background(), "https://169.254.169.254/latest/meta-data")
	wantKey(t, "metadata", err, "err.embed.avatar_address")
}

func TestCheck(t *testing.T) {
	t.Parallel()
	if _, err := avatar.Check(pngOf(t, 512, 512)); err != nil {
		t.Errorf("512 px: %v", err)
	}
	// A valid header over a broken body.
	p := pngOf(t, 64, 64)
	_, err := avatar.Check(p[:len(p)/2])
	wantKey(t, "truncated", err, "err.embed.avatar_type")
	_, err = avatar.Check(nil)
	wantKey(t, "empty", err, "err.embed.avatar_type")
}
