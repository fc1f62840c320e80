package fetch

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

func encode(t *testing.T, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode %q: %v", s, err)
	}
	return b
}

// Every case is served by a real server and fetched with Get.
func TestCharsetDecoding(t *testing.T) {
	const turkish = "ğüşıöç İ Ğ Ş"
	const german = "Grüße aus München, Straße"
	w1254 := func(s string) []byte { return encode(t, charmap.Windows1254, s) }
	latin1 := func(s string) []byte { return encode(t, charmap.ISO8859_1, s) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	b := func(s string) []byte { return []byte(s) }

	tests := []struct {
		name        string
		contentType string // "-" sends no Content-Type at all
		body        []byte
		want        string // substring expected in the decoded body
		wantCharset string
	}{
		{"iso-8859-1 header", "text/html; charset=ISO-8859-1",
			cat(b("<p>"), latin1("café "+german), b("</p>")), "café " + german, "windows-1252"},
		{"windows-1254 header", "text/html; charset=windows-1254",
			cat(b("<p>"), w1254(turkish), b("</p>")), turkish, "windows-1254"},
		{"meta charset", "text/html",
			cat(b(`<html><head><meta charset="windows-1254"><title>t</title></head><body>`), w1254(turkish)), turkish, "windows-1254"},
		{"meta http-equiv iso-8859-9", "text/html",
			cat(b(`<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-9"></head><body>`), w1254(turkish)), turkish, "windows-1254"},
		{"header wins over meta", "text/html; charset=windows-1254",
			cat(b(`<meta charset="iso-8859-1">`), w1254(turkish)), turkish, "windows-1254"},
		{"unknown header label falls back to meta", "text/html; charset=x-no-such-charset",
			cat(b(`<meta charset="windows-1254">`), w1254(turkish)), turkish, "windows-1254"},
		{"utf-8 bom beats labels", "text/html; charset=iso-8859-1",
			cat([]byte{0xEF, 0xBB, 0xBF}, b(`<meta charset="windows-1252">`+turkish)), "<meta charset=\"windows-1252\">" + turkish, "utf-8"},
		{"utf-16le bom", "text/html",
			encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "<p>"+turkish+"</p>"), "<p>" + turkish, "utf-16le"},
		{"utf-16be bom", "text/plain",
			encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), german), german, "utf-16be"},
		{"utf-8 undeclared", "text/html",
			b("<p>" + turkish + " " + german + "</p>"), turkish + " " + german, "utf-8"},
		{"latin-1 undeclared", "text/html",
			cat(b("<p>"), latin1(german), b("</p>")), german, "windows-1252"},
		{"turkish undeclared", "text/html",
			cat(b("<p>"), w1254("Kayıt ol, şifre değiştir"), b("</p>")), "Kayıt ol, şifre değiştir", "windows-1254"},
		{"utf-8 mislabelled latin-1", "text/html; charset=iso-8859-1",
			b("<p>" + turkish + "</p>"), turkish, "utf-8"},
		{"latin-1 mislabelled utf-8", "text/html; charset=utf-8",
			cat(b("<p>"), latin1(german), b("</p>")), german, "windows-1252"},
		{"utf-8 with one stray byte keeps utf-8", "text/html; charset=utf-8",
			b("<p>" + turkish + " \xff " + german + "</p>"), turkish + " \uFFFD " + german, "utf-8"},
		{"text/plain header", "text/plain; charset=windows-1254",
			w1254(turkish), turkish, "windows-1254"},
		{"xhtml xml declaration", "application/xhtml+xml",
			cat(b(`<?xml version="1.0" encoding="ISO-8859-9"?><html xmlns="http://www.w3.org/1999/xhtml"><body>`), w1254(turkish)), turkish, "windows-1254"},
		{"meta utf-16 means utf-8", "text/html",
			b(`<meta charset="utf-16"><p>` + turkish), turkish, "utf-8"},
		{"no content type", "-",
			cat(b("<!DOCTYPE html><html><body>"), w1254(turkish)), turkish, "windows-1254"},
	}
	byPath := map[string]int{}
	for i, tc := range tests {
		byPath["/"+strings.ReplaceAll(tc.name, " ", "-")] = i
	}
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tc := tests[byPath[r.URL.Path]]
		if tc.contentType == "-" {
			w.Header()["Content-Type"] = nil
		} else {
			w.Header().Set("Content-Type", tc.contentType)
		}
		_, _ = w.Write(tc.body)
	}))
	c := privateClient(t, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := c.Get(testContext(t), Request{URL: srv.URL + "/" + strings.ReplaceAll(tc.name, " ", "-")})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(resp.Body), tc.want) {
				t.Fatalf("body %q does not contain %q", resp.Body, tc.want)
			}
			if resp.Charset != tc.wantCharset {
				t.Fatalf("Charset = %q, want %q", resp.Charset, tc.wantCharset)
			}
			if bytes.HasPrefix(resp.Body, []byte{0xEF, 0xBB, 0xBF}) || strings.HasPrefix(string(resp.Body), "\uFEFF") {
				t.Fatal("byte order mark left in body")
			}
		})
	}
}

// Non-text types and XML are handed over untouched.
func TestCharsetNotApplied(t *testing.T) {
	raw := []byte("\xff\xfe\x00binary\xf0\xfd")
	xmlDoc := []byte(`<?xml version="1.0" encoding="ISO-8859-9"?><r>` + "\xf0" + `</r>`)
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/xml" {
			w.Header().Set("Content-Type", "text/xml")
			_, _ = w.Write(xmlDoc)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(raw)
	}))
	c := privateClient(t, Options{})
	for path, want := range map[string][]byte{"/pdf": raw, "/xml": xmlDoc} {
		resp, err := c.Get(testContext(t), Request{URL: srv.URL + path})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(resp.Body, want) || resp.Charset != "" {
			t.Fatalf("%s: body %q charset %q, want raw", path, resp.Body, resp.Charset)
		}
	}
}

func TestCharsetParam(t *testing.T) {
	tests := map[string]string{
		"text/html; charset=windows-1254":      "windows-1254",
		"text/html;charset='iso-8859-9'":       "iso-8859-9",
		`text/html; charset = "utf-8" ; x`:     "utf-8",
		"text/html":                            "",
		"text/html; charset=":                  "",
		"text/html; mycharset; charset=koi8-r": "koi8-r",
	}
	for in, want := range tests {
		if got := charsetParam(in); got != want {
			t.Errorf("charsetParam(%q) = %q, want %q", in, got, want)
		}
	}
}
