package kb

import "fmt"

// LineError reports a problem with one line of an import file. Callers (the CLI, the
// dashboard) show it as is: the line number lets the operator fix the file quickly.
type LineError struct {
	Line   int
	Reason string
}

func (e *LineError) Error() string {
	if e.Line <= 0 {
		return e.Reason
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
}

func lineErr(line int, format string, args ...any) error {
	return &LineError{Line: line, Reason: fmt.Sprintf(format, args...)}
}
