package ingest

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"path"
	"strings"
	"unicode/utf8"
)

// Format is a file format Read accepts.
type Format string

// The formats, by their usual extension.
const (
	PDF      Format = "pdf"
	DOCX     Format = "docx"
	ODT      Format = "odt"
	XLSX     Format = "xlsx"
	ODS      Format = "ods"
	CSV      Format = "csv"
	Markdown Format = "md"
	Text     Format = "txt"
	HTML     Format = "html"
)

// formatInfo is what detection knows of a format: its display name, the extensions that
// name it, and whether it is text (chosen by extension) or a container (chosen by content).
type formatInfo struct {
	f      Format
	name   string
	exts   []string
	isText bool
}

var formats = []formatInfo{
	{PDF, "PDF", []string{".pdf"}, false},
	{DOCX, "DOCX", []string{".docx", ".docm", ".dotx"}, false},
	{ODT, "ODT", []string{".odt", ".ott"}, false},
	{XLSX, "XLSX", []string{".xlsx", ".xlsm", ".xltx"}, false},
	{ODS, "ODS", []string{".ods", ".ots"}, false},
	{CSV, "CSV", []string{".csv", ".tsv", ".tab"}, true},
	{Markdown, "Markdown", []string{".md", ".markdown", ".mdown", ".mkd"}, true},
	{Text, "plain text", []string{".txt", ".text", ".log", ""}, true},
	{HTML, "HTML", []string{".html", ".htm", ".xhtml"}, true},
}

func info(f Format) formatInfo {
	for _, fi := range formats {
		if fi.f == f {
			return fi
		}
	}
	return formatInfo{f: f, name: string(f)}
}

// Name is the format's name as messages show it ("PDF", "Markdown").
func (f Format) Name() string { return info(f).name }

// byExtension is the format a file name's extension names, and whether it names one.
func byExtension(name string) (Format, bool) {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/")))
	for _, fi := range formats {
		for _, e := range fi.exts {
			if e == ext {
				return fi.f, true
			}
		}
	}
	return "", false
}

// Magic numbers of the containers.
var (
	pdfMagic = []byte("%PDF-")
	zipMagic = []byte("PK\x03\x04")
	// oleMagic opens a Compound File: a legacy .doc/.xls, or an Office file saved with a
	// password (OOXML encryption wraps the zip in one).
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
)

// Detect decides a file's format from its content and its name together. Containers are
// known by content: "%PDF-" (within the first KiB, as readers allow), a zip whose members
// say which Office format it is, a Compound File (a password-protected Office file, or a
// legacy .doc/.xls, neither readable). Text is chosen by the extension (.csv, .md, .html;
// .txt or none is plain text, or HTML when it is a whole HTML document), and a binary file
// is not text whatever its name. An extension that names a container the content is not
// is a damaged file; anything else is an unknown format.
func Detect(name string, data []byte) (Format, error) {
	byExt, known := byExtension(name)
	ext := path.Ext(name)
	name = displayName(name)
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.Contains(head, pdfMagic):
		return PDF, nil
	case bytes.HasPrefix(data, zipMagic):
		f, err := zipFormat(data)
		if err != nil {
			if known && !info(byExt).isText {
				return "", fail(CodeCorrupt, name, err, byExt.Name())
			}
			return "", fail(CodeUnknownFormat, name, err)
		}
		if f == "" {
			return "", fail(CodeUnknownFormat, name, errors.New("a zip of no Office format"))
		}
		return f, nil
	case bytes.HasPrefix(data, oleMagic):
		if known && (byExt == DOCX || byExt == XLSX) {
			return "", fail(CodeEncrypted, name, errors.New("compound file"))
		}
		return "", fail(CodeUnknownFormat, name, errors.New("compound file: a legacy Office format"))
	}
	if known && !info(byExt).isText {
		return "", fail(CodeCorrupt, name, errors.New("no magic number"), byExt.Name())
	}
	if !looksText(data) {
		return "", fail(CodeUnknownFormat, name, errors.New("binary content"))
	}
	if !known {
		return "", fail(CodeUnknownFormat, name, errors.New("extension "+ext))
	}
	if byExt == Text && wholeHTML(head) {
		return HTML, nil
	}
	return byExt, nil
}

// zipFormat names the Office format of a zip by its members: an OpenDocument file's first
// member "mimetype" holds its media type; an OOXML file has its main part at a fixed name.
// "" when it is none of them.
func zipFormat(data []byte) (Format, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return "", err
	}
	for _, f := range zr.File {
		switch f.Name {
		case "word/document.xml":
			return DOCX, nil
		case "xl/workbook.xml":
			return XLSX, nil
		case "mimetype":
			rc, err := f.Open()
			if err != nil {
				return "", err
			}
			b, err := io.ReadAll(io.LimitReader(rc, 128))
			rc.Close()
			if err != nil {
				return "", err
			}
			switch strings.TrimSpace(string(b)) {
			case "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.text-template":
				return ODT, nil
			case "application/vnd.oasis.opendocument.spreadsheet",
				"application/vnd.oasis.opendocument.spreadsheet-template":
				return ODS, nil
			}
		}
	}
	return "", nil
}

// looksText reports content that is text in some encoding: no NUL bytes (UTF-16 with a
// byte order mark aside) and few control characters in its first 8 KiB.
func looksText(data []byte) bool {
	head := data[:min(len(data), 8192)]
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return true
	}
	ctrl := 0
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		head = head[n:]
		switch {
		case r == 0:
			return false
		case r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f':
			ctrl++
		}
	}
	return ctrl*100 <= len(data[:min(len(data), 8192)])
}

// wholeHTML reports a whole HTML document saved as .txt or without an extension.
func wholeHTML(head []byte) bool {
	s := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(string(head), "\uFEFF")))
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html")
}

// JSONLines reports whether a file given to `svc kb import` or the dashboard's upload is a
// JSON Lines import rather than a document: a .jsonl, .ndjson or .json file, or a .txt file
// (or one without an extension) whose first character is "{", as the import files written
// before documents could be uploaded were often named.
func JSONLines(name string, data []byte) bool {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/"))) {
	case ".jsonl", ".ndjson", ".json":
		return true
	case ".txt", "":
		head := bytes.TrimLeft(bytes.TrimPrefix(data[:min(len(data), 4096)], []byte("\uFEFF")), " \t\r\n")
		return len(head) > 0 && head[0] == '{'
	}
	return false
}
