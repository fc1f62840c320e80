package kb

// Limits of a curated Q&A entry, exported so that a form creating one entry at a time (the
// dashboard's Q&A editor) refuses exactly what an import file would, and can say which
// limit was passed in the user's language.
const (
	MaxQuestionLen = maxQuestionLen // characters
	MaxAnswerLen   = maxAnswerLen   // characters
)

// Validate trims rec's fields in place and checks them as ParseJSONL checks a line, so a
// record made by a form rather than read from a file meets the same rules. Its errors are
// phrased for an operator and carry no line number.
func Validate(rec *Record) error { return validate(rec) }
