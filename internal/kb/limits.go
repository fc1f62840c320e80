package kb

// Caps on the import format. They keep one careless export (a whole site in one body, a
// binary blob in a title) from bloating the index; the numbers are generous for real content.
const (
	maxLineBytes   = 4 << 20 // one JSON object per line
	maxRecords     = 100_000
	maxURLLen      = 2048
	maxTitleLen    = 500
	maxBodyLen     = 2 << 20 // bytes of raw body (text or HTML)
	maxNameLen     = 300
	maxPriceLen    = 64
	maxCategoryLen = 200
	maxSlugLen     = 200
)

// Limits of a Q&A entry, in characters, exported so that a form creating one entry at a time
// (the dashboard's Q&A editor) can say which limit was passed in the user's language.
const (
	MaxQuestionLen = 2000
	MaxAnswerLen   = 50_000
)

// MaxSKULen bounds a product's SKU, in characters: catalogue codes are short, and a longer
// value is a column mix-up (a description under the SKU header).
const MaxSKULen = 100
