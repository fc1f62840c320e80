package fetch

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// normalizedRobots is a robots.txt rewritten for github.com/temoto/robotstxt.
type normalizedRobots struct {
	text     []byte   // the rewritten file, fed to robotstxt.FromBytes
	sitemaps []string // Sitemap: values in file order, as written
}

// robotsGroup is one group of a robots.txt: consecutive user-agent lines and
// the rules that follow them.
type robotsGroup struct {
	agents    []string
	allows    []string
	disallows []string
	delay     string // "" when the group sets none
}

// normalizeRobots rewrites a robots.txt so that temoto/robotstxt, which does
// the actual parsing and matching, behaves as RFC 9309 asks. The library on
// its own
//
//   - rejects the whole file for one bad line (a crawl-delay of "abc", a rule
//     before any user-agent), where the RFC says to use what parses: such
//     lines are dropped here;
//   - matches user-agents by prefix, so a group for "svc" would apply to
//     "svc-crawler", where the RFC matches the product token: every agent
//     other than ours and "*" is renamed to one that cannot match;
//   - breaks ties between equally long Allow and Disallow rules by file order,
//     where the RFC prefers Allow: allows are written first in each group;
//   - compares rule paths and URL paths byte for byte, so "/şube" never
//     matches the percent-encoded request path: both sides go through
//     normalizeRobotsPath;
//   - leaves a group that names us but has no rules out of its table, which
//     would make us fall back to "*": such groups get a harmless
//     "Crawl-delay: 0" member.
//
// Sitemap lines are collected separately; unknown lines are ignored.
func normalizeRobots(body []byte, agent string) normalizedRobots {
	body = bytes.TrimPrefix(body, []byte{0xEF, 0xBB, 0xBF})
	other := agent + "-other" // longer than agent, so never a prefix of it

	var (
		out          normalizedRobots
		groups       []*robotsGroup
		cur          *robotsGroup
		lastWasAgent bool
	)
	for _, line := range splitLines(body) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		switch key {
		case "user-agent", "useragent", "user agent":
			if cur == nil || !lastWasAgent {
				cur = &robotsGroup{}
				groups = append(groups, cur)
			}
			lastWasAgent = true
			switch tok := productToken(value); tok {
			case "*", agent:
				cur.agents = append(cur.agents, tok)
			default:
				cur.agents = append(cur.agents, other)
			}
		case "allow", "disallow":
			lastWasAgent = false
			if cur == nil || value == "" {
				continue
			}
			p := normalizeRobotsPath(value)
			if key == "allow" {
				cur.allows = append(cur.allows, p)
			} else {
				cur.disallows = append(cur.disallows, p)
			}
		case "crawl-delay", "crawldelay":
			lastWasAgent = false
			if cur == nil {
				continue
			}
			if f, err := strconv.ParseFloat(value, 64); err == nil && f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
				cur.delay = strconv.FormatFloat(f, 'f', -1, 64)
			}
		case "sitemap", "site-map":
			if value != "" {
				out.sitemaps = append(out.sitemaps, value)
			}
		}
	}

	var b strings.Builder
	// Groups without members first, so a real Crawl-delay for the same agent
	// in a later group overrides their placeholder.
	for _, empty := range []bool{true, false} {
		for _, g := range groups {
			isEmpty := len(g.allows) == 0 && len(g.disallows) == 0 && g.delay == ""
			if isEmpty != empty {
				continue
			}
			for _, a := range g.agents {
				b.WriteString("User-agent: " + a + "\n")
			}
			for _, p := range g.allows {
				b.WriteString("Allow: " + p + "\n")
			}
			for _, p := range g.disallows {
				b.WriteString("Disallow: " + p + "\n")
			}
			switch {
			case g.delay != "":
				b.WriteString("Crawl-delay: " + g.delay + "\n")
			case isEmpty:
				b.WriteString("Crawl-delay: 0\n")
			}
		}
	}
	out.text = []byte(b.String())
	return out
}

// splitLines splits on LF, CR LF and lone CR, as RFC 9309 allows all three.
func splitLines(b []byte) []string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

// productToken reduces a user-agent value to the lower-case product token:
// "SVC-Crawler/1.0 (+url)" → "svc-crawler".
func productToken(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexAny(v, "/ \t"); i >= 0 {
		v = v[:i]
	}
	return v
}

// normalizeRobotsPath puts a rule path or a request path into one canonical
// percent-encoded form, so the two compare as RFC 9309 §2.2.2 intends:
// non-ASCII bytes, controls, spaces and a '%' that starts no escape are
// percent-encoded, escapes use
// upper-case hex, and escapes of unreserved characters ("%7E", "%41") are
// decoded. "*" and "$" are left alone (they are the rule syntax).
func normalizeRobotsPath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			v := unhex(p[i+1])<<4 | unhex(p[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[v>>4])
				b.WriteByte(hex[v&0xF])
			}
			i += 2
		case c >= 0x80 || c <= 0x20 || c == 0x7F || c == '%':
			// A '%' that starts no escape is a literal percent sign: written as "%25",
			// as a URL's escaped path has it, and so that normalising twice cannot read
			// it as the start of an escape ("/%4%41" → "/%254A", not "/%4A" → "/J").
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
