package kb

import (
	"fmt"

	"svc/internal/errs"
)

// LineError reports a problem with one line of an import file. Callers (the CLI, the
// dashboard) show it as is: the line number lets the operator fix the file quickly.
//
// Reason is English. Key is the i18n catalog key of the same problem ("err.kb.…", "" when
// there is none) and Args its arguments, so that a front end speaking the user's language
// (the dashboard's import page) can word the reason in it.
type LineError struct {
	Line   int
	Reason string
	Key    string
	Args   []any
}

func (e *LineError) Error() string {
	if e.Line <= 0 {
		return e.Reason
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
}

// because returns a problem with a record worded by format and args, whose catalog message
// is key with the same args (errs.Coded); ParseJSONL and Build turn it into a LineError.
func because(key, format string, args ...any) error {
	return errs.Coded(errs.BadRequest, key, format, args...)
}

func lineErr(line int, key, format string, args ...any) error {
	return lineErrOf(line, because(key, format, args...))
}

// lineErrOf is the LineError of err at line, keeping the catalog key of a problem from
// because.
func lineErrOf(line int, err error) *LineError {
	le := &LineError{Line: line, Reason: err.Error()}
	if e, ok := errs.As(err); ok {
		le.Key, le.Args = e.Key, e.Args
	}
	return le
}
