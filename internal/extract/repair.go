package extract

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// decodeLenient returns the JSON values of one JSON-LD script. Browsers never validate
// JSON-LD, so shops publish it broken: raw line breaks inside strings, a stray or missing
// brace, trailing commas, comment or CDATA wrappers, entity-encoded quotes, two objects
// one after the other. The script is decoded strictly first; failing that it is repaired
// (repairJSON), then repaired again after decoding HTML entities. Whatever still fails to
// decode is given up: the page's other sources still count.
func decodeLenient(raw string) []any {
	s := unwrapScript(raw)
	if s == "" {
		return nil
	}
	if vals, err := decodeAll(s); err == nil {
		return vals
	}
	best, err := decodeAll(repairJSON(s))
	if err == nil {
		return best
	}
	if strings.ContainsRune(s, '&') {
		vals, err := decodeAll(repairJSON(html.UnescapeString(s)))
		if err == nil || len(vals) > len(best) {
			best = vals
		}
	}
	return best
}

// decodeAll decodes every JSON value in s, one after the other. On an error it also returns
// the values complete before it. Numbers stay json.Number so "2029.00" keeps its digits.
func decodeAll(s string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var out []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			if len(out) == 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

// unwrapScript removes what CMSs wrap around the JSON of a script: a byte order mark, an
// HTML comment and CDATA markers (also the "//<![CDATA[" form meant for old browsers).
func unwrapScript(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\ufeff", ""))
	for changed := true; changed; {
		changed = false
		for _, p := range [...]string{"<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["} {
			if strings.HasPrefix(s, p) {
				s, changed = strings.TrimSpace(s[len(p):]), true
			}
		}
		for _, p := range [...]string{"//-->", "-->", "//]]>", "/*]]>*/", "]]>"} {
			if strings.HasSuffix(s, p) {
				s, changed = strings.TrimSpace(s[:len(s)-len(p)]), true
			}
		}
	}
	return s
}

// repairJSON rewrites almost-JSON into JSON in one pass that tracks strings and nesting:
//   - inside strings, raw control characters are escaped, invalid escapes ("\'", "\x")
//     are made literal, and a quote that cannot end the string ("24" Monitor") is escaped;
//   - outside strings, trailing commas, comments and semicolons are dropped, closers that
//     match nothing open are dropped, a closer that skips open levels closes them, a missing
//     comma between two values is put back, and a "}" followed by `, "key"` at the top level
//     is taken as a stray brace that closed the object too early;
//   - at the end an open string and every open level are closed.
//
// It never fails: a text it cannot fix is left for the decoder to refuse.
func repairJSON(s string) string {
	out := make([]byte, 0, len(s)+16)
	var stack []byte // the closers still expected, innermost last
	inString := false
	topClose := -1 // index in out of the "}" or "]" that last emptied the stack
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case c == '\\':
				if i+1 >= len(s) {
					continue
				}
				next := s[i+1]
				switch {
				case strings.IndexByte(`"\/bfnrt`, next) >= 0:
					out = append(out, c, next)
					i++
				case next == 'u' && i+6 <= len(s) && isHex(s[i+2:i+6]):
					out = append(out, s[i:i+6]...)
					i += 5
				case next == '\'':
					out = append(out, next)
					i++
				default:
					out = append(out, '\\', '\\')
				}
			case c == '"':
				if endsString(s, i+1) {
					inString = false
					out = append(out, c)
				} else {
					out = append(out, '\\', '"')
				}
			case c < 0x20:
				out = appendControl(out, c)
			default:
				out = append(out, c)
			}
			continue
		}
		switch c {
		case '"':
			out = commaBefore(out, stack)
			inString = true
			out = append(out, c)
		case '{', '[':
			out = commaBefore(out, stack)
			if c == '{' {
				stack = append(stack, '}')
			} else {
				stack = append(stack, ']')
			}
			out = append(out, c)
		case '}', ']':
			k := strings.LastIndexByte(string(stack), c)
			if k < 0 {
				continue // closes nothing: a stray brace
			}
			for len(stack)-1 > k {
				out = append(trimComma(out), stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			}
			out = append(trimComma(out), c)
			stack = stack[:k]
			if len(stack) == 0 {
				topClose = len(out) - 1
			}
		case ',':
			if len(stack) > 0 {
				out = append(out, c)
				continue
			}
			// At the top level a comma either separates concatenated values (dropped: the
			// decoder reads them one after the other) or follows a brace that closed the
			// object too early: `{"a":{"b":1}}, "c":2}`.
			if topClose >= 0 && out[topClose] == '}' && nextByte(s, i+1) == '"' &&
				strings.TrimSpace(string(out[topClose+1:])) == "" {
				out = append(out[:topClose], out[topClose+1:]...)
				stack = append(stack, '}')
				topClose = -1
				out = append(out, c)
			}
		case '/':
			switch {
			case i+1 < len(s) && s[i+1] == '/':
				end := strings.IndexByte(s[i:], '\n')
				if end < 0 {
					i = len(s)
				} else {
					i += end - 1
				}
			case i+1 < len(s) && s[i+1] == '*':
				end := strings.Index(s[i+2:], "*/")
				if end < 0 {
					i = len(s)
				} else {
					i += 2 + end + 1
				}
			default:
				out = append(out, c)
			}
		case ';':
			if len(stack) > 0 {
				out = append(out, c)
			}
		default:
			out = append(out, c)
		}
	}
	if inString {
		out = append(out, '"')
	}
	out = trimSpace(out)
	if len(out) > 0 && out[len(out)-1] == ':' {
		out = append(out, "null"...)
	}
	for len(stack) > 0 {
		out = append(trimComma(out), stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	return string(out)
}

// endsString decides whether a quote at s[i-1] closes the string it is in: only if what
// follows is the end or a character that may follow a string value.
func endsString(s string, i int) bool {
	b := nextByte(s, i)
	return b == 0 || strings.IndexByte(`,:}]"/`, b) >= 0
}

// nextByte is the first byte at or after i that is not white space, or 0 at the end.
func nextByte(s string, i int) byte {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return s[i]
	}
	return 0
}

// commaBefore puts back the comma a shop forgot between two values of an object or array.
func commaBefore(out []byte, stack []byte) []byte {
	if len(stack) == 0 {
		return out
	}
	t := trimSpace(out)
	if len(t) == 0 {
		return out
	}
	switch last := t[len(t)-1]; {
	case last == '"', last == '}', last == ']', last == 'e', last == 'l',
		'0' <= last && last <= '9':
		return append(out, ',')
	}
	return out
}

// trimComma drops a trailing comma (and the space around it) before a closer.
func trimComma(out []byte) []byte {
	out = trimSpace(out)
	if len(out) > 0 && out[len(out)-1] == ',' {
		out = trimSpace(out[:len(out)-1])
	}
	return out
}

func trimSpace(out []byte) []byte {
	for len(out) > 0 {
		switch out[len(out)-1] {
		case ' ', '\t', '\n', '\r':
			out = out[:len(out)-1]
			continue
		}
		break
	}
	return out
}

func appendControl(out []byte, c byte) []byte {
	switch c {
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	}
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
