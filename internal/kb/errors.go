package kb

import (
	"errors"
	"fmt"
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

// reason is a problem with a record: its English sentence and the catalog key and
// arguments of the same message. ParseJSONL and Build turn it into a LineError.
type reason struct {
	msg  string
	key  string
	args []any
}

func (r *reason) Error() string { return r.msg }

// because returns a problem worded by format and args, whose catalog message is key with
// the same args.
func because(key, format string, args ...any) error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &reason{msg: msg, key: key, args: args}
}

func lineErr(line int, key, format string, args ...any) error {
	return lineErrOf(line, because(key, format, args...))
}

// lineErrOf is the LineError of err at line, keeping the key of a reason.
func lineErrOf(line int, err error) *LineError {
	le := &LineError{Line: line, Reason: err.Error()}
	if r, ok := errors.AsType[*reason](err); ok {
		le.Key, le.Args = r.key, r.args
	}
	return le
}
