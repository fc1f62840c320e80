package dashboard

import (
	"net/url"
	"strings"

	"svc/internal/engine"
	"svc/internal/i18n"
	"svc/internal/store"
)

// sourceLink is one source of a reply as the transcript shows it: Href is set only for an
// absolute http(s) URL, so that anything else (a Q&A entry without a page, a scheme a page
// should not link to) is plain text.
type sourceLink struct {
	Title, Href string
}

// SourceLinks are the reply's sources (the KB documents it quoted), for the transcript.
func (m transcriptMsg) SourceLinks() []sourceLink {
	out := make([]sourceLink, 0, len(m.Sources))
	for _, s := range m.Sources {
		if strings.TrimSpace(s.Title) == "" {
			continue
		}
		out = append(out, sourceLink{Title: s.Title, Href: httpURL(s.URL)})
	}
	return out
}

// Text is the message's body as the transcript shows it. A reply's closing source line
// ("Source: Returns (https://…)", engine.SourceLine) is left out when it names the first of
// the sources listed under the reply, so the source is named once, as in the widget
// (widget/src/sources.ts); any other last line, a product list say, is kept.
func (m transcriptMsg) Text() string {
	if m.Role == store.RoleUser || len(m.Sources) == 0 || strings.TrimSpace(m.Sources[0].Title) == "" {
		return m.Body
	}
	i := strings.LastIndexByte(m.Body, '\n')
	if i < 0 {
		return m.Body
	}
	first, line := m.Sources[0], m.Body[i+1:]
	// The reply's language first; the line is in the language the engine answered in.
	for _, lg := range append([]string{m.Lang}, i18n.Langs...) {
		if line == engine.SourceLine(lg, first.Title, first.URL) {
			return strings.TrimRight(m.Body[:i], " \t\r\n")
		}
	}
	return m.Body
}

// httpURL is u when it is an absolute http or https URL with a host, else "".
func httpURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return p.String()
}
