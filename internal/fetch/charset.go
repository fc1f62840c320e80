package fetch

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// decodable says which media types Get turns into UTF-8. XML types are left
// alone: they declare their encoding inside and encoding/xml honours it, so
// decoding them here would make that declaration a lie.
func decodable(mediaType string) bool {
	switch mediaType {
	case "text/html", "application/xhtml+xml":
		return true
	case "text/xml", "text/xsl":
		return false
	}
	return strings.HasPrefix(mediaType, "text/")
}

// prescanBytes is how far into an HTML document we look for a
// <meta charset>. The HTML standard says 1024; some CMSs put long comments or
// scripts first, so we look a little further.
const prescanBytes = 4096

// decodeText returns body as UTF-8 and the name of the encoding it was read
// as. The order follows the HTML standard — byte order mark, then the
// Content-Type charset, then <meta charset> / http-equiv (and the XML
// declaration for XHTML), then detection — with two corrections for how the
// web really is:
//
//   - a UTF-8 label is not believed when the bytes are not UTF-8 at all
//     (no valid multi-byte sequence, some invalid ones), and
//   - a legacy single-byte label (ISO-8859-1, windows-125x...) is not believed
//     when the bytes are valid UTF-8 containing non-ASCII text, which is the
//     usual "server default says Latin-1, CMS writes UTF-8" mistake; genuine
//     Latin-1 text practically never forms valid multi-byte UTF-8.
//
// Unknown labels are skipped. Detection without any usable label picks UTF-8
// when plausible, else Windows-1254 when the bytes include ğ/Ğ/ı/İ/ş/Ş
// positions (Icelandic letters in Windows-1252, which our tr/en/de sites do
// not use), else Windows-1252 (which is also what ISO-8859-1 means on the web).
func decodeText(body []byte, mediaType, headerLabel string) ([]byte, string) {
	if enc, name, n := bomEncoding(body); enc != nil {
		if name == "utf-8" {
			return validUTF8(body[n:]), name
		}
		return decodeWith(enc, body[n:]), name
	}
	stats := scanUTF8(body)

	// Candidate labels in order of authority for this media type.
	labels := []declaredLabel{{headerLabel, true}}
	switch mediaType {
	case "text/html":
		labels = append(labels, declaredLabel{metaCharset(body), false}, declaredLabel{xmlDeclEncoding(body), false})
	case "application/xhtml+xml":
		labels = append(labels, declaredLabel{xmlDeclEncoding(body), false}, declaredLabel{metaCharset(body), false})
	}

	for _, l := range labels {
		label := strings.TrimSpace(l.label)
		if label == "" {
			continue
		}
		enc, name := charset.Lookup(label)
		if enc == nil || name == "replacement" {
			continue
		}
		if strings.HasPrefix(name, "utf-16") {
			if !l.fromHeader {
				// A document whose markup we could read as ASCII is not
				// UTF-16, whatever it says (HTML standard rule).
				name = "utf-8"
			} else {
				return decodeWith(enc, body), name
			}
		}
		if name == "utf-8" {
			if stats.plausible() {
				return validUTF8(body), name
			}
			continue
		}
		if stats.clearly() {
			return body, "utf-8"
		}
		return decodeWith(enc, body), name
	}

	switch {
	case stats.plausible():
		return validUTF8(body), "utf-8"
	case hasTurkishBytes(body):
		return decodeWith(charmap.Windows1254, body), "windows-1254"
	default:
		return decodeWith(charmap.Windows1252, body), "windows-1252"
	}
}

// declaredLabel is an encoding label and whether it came from the HTTP header
// (as opposed to the document itself).
type declaredLabel struct {
	label      string
	fromHeader bool
}

// utf8Stats counts what a byte string looks like as UTF-8.
type utf8Stats struct {
	multi   int // valid multi-byte sequences
	invalid int // bytes that start no valid sequence
}

func scanUTF8(b []byte) utf8Stats {
	var s utf8Stats
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			b = b[1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			s.invalid++
		} else {
			s.multi++
		}
		b = b[n:]
	}
	return s
}

// plausible: pure ASCII, valid UTF-8, or UTF-8 with a few broken bytes (a
// stray Latin-1 byte in an otherwise UTF-8 page should not turn the whole
// page into mojibake).
func (s utf8Stats) plausible() bool { return s.invalid == 0 || s.multi >= s.invalid }

// clearly: valid UTF-8 with at least one non-ASCII character.
func (s utf8Stats) clearly() bool { return s.invalid == 0 && s.multi > 0 }

// hasTurkishBytes reports bytes at the six positions where Windows-1254
// (Turkish) differs from Windows-1252 in letters: Ğ İ Ş ğ ı ş.
func hasTurkishBytes(b []byte) bool {
	for _, c := range b {
		switch c {
		case 0xD0, 0xDD, 0xDE, 0xF0, 0xFD, 0xFE:
			return true
		}
	}
	return false
}

// bomEncoding recognises the UTF-8 and UTF-16 byte order marks and returns
// the encoding and the length of the mark.
func bomEncoding(b []byte) (encoding.Encoding, string, int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return unicode.UTF8, "utf-8", 3
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", 2
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le", 2
	}
	return nil, "", 0
}

// decodeWith converts b to UTF-8. The x/text decoders replace what they
// cannot map; should one still fail, the bytes are kept with invalid
// sequences replaced, so the result is always UTF-8.
func decodeWith(enc encoding.Encoding, b []byte) []byte {
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return validUTF8(b)
	}
	return out
}

// validUTF8 returns b with invalid sequences replaced by U+FFFD, without
// copying when b is already valid.
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}

// metaCharset finds the encoding label declared by <meta charset=...> or
// <meta http-equiv="Content-Type" content="...; charset=..."> near the start
// of an HTML document, or "".
func metaCharset(b []byte) string {
	if len(b) > prescanBytes {
		b = b[:prescanBytes]
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" {
				continue
			}
			var declared, content string
			pragma := false
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "charset":
					if declared == "" {
						declared = strings.TrimSpace(string(v))
					}
				case "http-equiv":
					pragma = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
				case "content":
					if content == "" {
						content = string(v)
					}
				}
			}
			if declared != "" {
				return declared
			}
			if pragma {
				if l := charsetParam(content); l != "" {
					return l
				}
			}
		}
	}
}

// indexASCIIFold is strings.Index ignoring ASCII case, as the HTML standard matches
// "charset". Lower-casing the whole string instead (strings.ToLower) may change its length,
// since invalid UTF-8 and some letters lower-case to more or fewer bytes, and an index into
// the lowered copy then points elsewhere in the original: a fuzzed page made that panic.
func indexASCIIFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// charsetParam extracts the value after "charset=" in a Content-Type-like
// string, the lenient way the HTML standard describes (quotes optional,
// spaces around "=" allowed).
func charsetParam(s string) string {
	for {
		i := indexASCIIFold(s, "charset")
		if i < 0 {
			return ""
		}
		s = s[i+len("charset"):]
		rest := strings.TrimLeft(s, " \t\r\n\f")
		if !strings.HasPrefix(rest, "=") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\r\n\f")
		if rest == "" {
			return ""
		}
		if q := rest[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(rest[1:], q)
			if end < 0 {
				return ""
			}
			return rest[1 : 1+end]
		}
		if end := strings.IndexAny(rest, "; \t\r\n\f"); end >= 0 {
			return rest[:end]
		}
		return rest
	}
}

// xmlDeclEncoding returns the encoding named by a leading
// <?xml ... encoding="..."?> declaration, or "".
func xmlDeclEncoding(b []byte) string {
	b = bytes.TrimLeft(b, " \t\r\n")
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(b, []byte("?>"))
	if end < 0 || end > 512 {
		return ""
	}
	decl := string(b[len("<?xml"):end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	q := rest[0]
	endQ := strings.IndexByte(rest[1:], q)
	if endQ < 0 {
		return ""
	}
	return rest[1 : 1+endQ]
}

// DecodeFile returns the text of a file that was uploaded rather than fetched
// (internal/ingest) as UTF-8, by the rules decodeText applies to a response with
// no Content-Type charset: a byte order mark (UTF-8, UTF-16), then an HTML
// document's own declaration when mediaType is "text/html", then UTF-8 when the
// bytes are plausibly UTF-8, else Windows-1254 or Windows-1252. Office programs
// in Turkey and Germany still save CSV files in their Windows code page.
func DecodeFile(body []byte, mediaType string) []byte {
	out, _ := decodeText(body, mediaType, "")
	return out
}
