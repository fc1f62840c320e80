// Package redact removes secrets from text before it is logged.
//
// A client controls much of what a request log line holds (the path, the request id, values
// quoted in error messages), so it can put a secret there: its own key, or someone else's it
// wants to launder into our logs. Every value that reaches a log passes through String, which
// replaces anything shaped like one of our secrets by its kind and "[REDACTED]":
//
//   - secret keys, embed tokens and dashboard preview tokens: "svc_pk_", "svc_emb_" or
//     "svc_prev_" (in any case, the underscores also percent-encoded as %5F) and what follows;
//   - the one-time links of the dashboard: what follows "/dashboard/reset/" or
//     "/dashboard/invite/";
//   - a session cookie: what follows "svc_session=".
//
// The shapes are matched loosely on purpose: a truncated or mistyped key is still most of a
// key, and over-redacting a log line costs nothing. Handler applies String to every log
// record, so no call site has to remember it.
package redact

import (
	"regexp"
	"strings"
)

// Mark replaces a secret's value.
const Mark = "[REDACTED]"

// secretRE matches a secret: group 1, 2 or 3 is the part that names its kind and is kept.
var secretRE = regexp.MustCompile(
	`(?i)(svc(?:_|%5f)(?:pk|emb|prev)(?:_|%5f))[\w.~%-]+` +
		`|(/dashboard/(?:reset|invite)/)[^/?#\s"'&<>]+` +
		`|(svc_session=)[^;,\s"'&<>]+`)

// String returns s with every secret-shaped value replaced by Mark.
func String(s string) string {
	if !maybeSecret(s) {
		return s
	}
	return secretRE.ReplaceAllString(s, "${1}${2}${3}"+Mark)
}

// Contains reports whether s holds anything String would redact.
func Contains(s string) bool { return maybeSecret(s) && secretRE.MatchString(s) }

// maybeSecret is a cheap test that lets almost every value skip the regular expression: every
// secret shape contains "/dashboard/" or "svc" (in some case) followed by "_" or "%" (of
// "%5F"), so the service's own name in a host or a message does not count.
func maybeSecret(s string) bool {
	if strings.Contains(s, "/dashboard/") {
		return true
	}
	for i := 0; i+4 <= len(s); i++ {
		if (s[i]|0x20) == 's' && (s[i+1]|0x20) == 'v' && (s[i+2]|0x20) == 'c' && (s[i+3] == '_' || s[i+3] == '%') {
			return true
		}
	}
	return false
}
