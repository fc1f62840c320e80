package storecopy

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"svc/internal/store/sqlite"
)

// Errors a caller reports as a usage error (exit 2): nothing was written.
var (
	// ErrNoSource: the source data directory holds no svc database.
	ErrNoSource = errors.New("no svc database")
	// ErrNotEmpty: the target already holds records.
	ErrNotEmpty = errors.New("target is not empty")
	// ErrSame: source and target are the same store.
	ErrSame = errors.New("source and target are the same store")
	// ErrSchema: the two stores' schemas do not line up (a store of another version of svc).
	ErrSchema = errors.New("schema mismatch")
	// ErrEndpoint: a --from or --to that is neither a data directory nor a postgres:// URL.
	ErrEndpoint = errors.New("bad store")
)

// Endpoint is one side of a copy: a data directory of the embedded SQLite store, or a
// PostgreSQL URL.
type Endpoint struct {
	Dir string // absolute data directory, when SQLite
	URL string // postgres:// URL, when PostgreSQL (holds the password: never print it)
}

// Postgres reports whether the endpoint is a PostgreSQL database.
func (e Endpoint) Postgres() bool { return e.URL != "" }

// String is the endpoint for output and logs: the directory, or the URL without its password
// (url.URL.Redacted), which would otherwise land in terminals, CI logs and bug reports.
func (e Endpoint) String() string {
	if e.URL == "" {
		return e.Dir
	}
	return RedactURL(e.URL)
}

// RedactURL hides the password of a database URL; a URL that does not parse is hidden whole,
// since where its password is cannot be told.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// ParseEndpoint reads --from or --to: a postgres:// (or postgresql://) URL, or a path.
func ParseEndpoint(s string) (Endpoint, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Endpoint{}, fmt.Errorf("%w: empty", ErrEndpoint)
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return Endpoint{}, fmt.Errorf("%w: %s is neither a data directory nor a postgres:// URL", ErrEndpoint, RedactURL(s))
		}
		return Endpoint{URL: s}, nil
	}
	abs, err := filepath.Abs(s)
	if err != nil {
		return Endpoint{}, fmt.Errorf("%w: %s: %v", ErrEndpoint, s, err)
	}
	return Endpoint{Dir: abs}, nil
}

// sameStore reports whether two endpoints name the same database: the same directory (after
// symbolic links), or the same server, database and schema. It errs on the side of "the
// same" only where the text says so; two spellings of one server (a host name and its
// address) are not caught, and then the copy stops at the non-empty target instead.
func sameStore(a, b Endpoint) bool {
	if a.Postgres() != b.Postgres() {
		return false
	}
	if !a.Postgres() {
		ra, errA := filepath.EvalSymlinks(a.Dir)
		rb, errB := filepath.EvalSymlinks(b.Dir)
		if errA != nil || errB != nil {
			return filepath.Clean(a.Dir) == filepath.Clean(b.Dir)
		}
		return ra == rb
	}
	return pgIdentity(a.URL) == pgIdentity(b.URL)
}

// pgIdentity is the part of a URL that picks the data: host, port, database and schema.
func pgIdentity(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	host := u.Hostname()
	if host == "" {
		host = "localhost"
	}
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	q := u.Query()
	return strings.ToLower(host) + ":" + port + "/" + strings.TrimPrefix(u.Path, "/") + "?" +
		q.Get("search_path") + "&" + q.Get("options")
}

// checkSource makes sure a source data directory holds a database: opening a missing one
// would create an empty store and "copy" nothing.
func checkSource(e Endpoint) error {
	if e.Postgres() {
		return nil
	}
	st, err := os.Stat(filepath.Join(e.Dir, sqlite.FileName))
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%w in %s", ErrNoSource, e.Dir)
	}
	return nil
}
