// Package intel composes the results of the Intelligence API (/api/v1/intelligence/<op>):
// grounded operations over an account's knowledge base whose result comes in the format the
// caller asks for.
//
// The model-based ops (answer, summarize, compare, extract) go through one value, Answer,
// which every format can render. It is made either by the built-in engine (Compose: the
// sentences of the sources that the analyzer finds most about the question, topic or
// fields, and the products' own data; it never writes a fact of its own) or by a language
// model (Prompt, then Parse of its JSON reply). Either way Guard then removes whatever the
// sources do not support, and Shape renders what is left in the requested format. The data
// op needs no model: DataProducts, DataFAQ and DataCategories shape catalog rows.
//
// The caller (not this package) validates the HTTP parameters, retrieves the sources, bills
// and wraps the result in the envelope; this package never reads the store or the network.
package intel

import (
	"strings"

	"svc/internal/store"
)

// The ops.
const (
	OpAnswer    = "answer"
	OpSummarize = "summarize"
	OpCompare   = "compare"
	OpExtract   = "extract"
	OpData      = "data"
)

// The formats.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatTable    = "table"
	FormatList     = "list"
)

// Depths.
const (
	DepthLean = "lean"
	DepthFull = "full"
)

// Request is one validated Intelligence request.
type Request struct {
	Op, Format, Depth, Lang string   // validated; Depth "lean" or "full"
	Question                string   // answer
	Topic                   string   // summarize, extract
	Items                   []string // compare
	Query                   string   // compare
	Fields                  []string // extract (already split and trimmed)
	Business                string
}

func (r Request) full() bool { return r.Depth == DepthFull }

// Table is the result of format table: a header and rows of the same length.
type Table struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// List is the result of format list: one string per item.
type List struct {
	Items []string `json:"items"`
}

// JSONData is the result of format json: a stable object per op (see Shape).
type JSONData struct {
	Data any `json:"data"`
}

// Text is the result of formats text and markdown.
type Text struct {
	Result string `json:"result"`
}

// Answer is what a model-based op produced before shaping: a structured value that every
// format can render. Which fields are set depends on Op:
//
//   - answer: Text (the answer; "" when the sources do not answer the question) and
//     Sources, the passages it was answered from, the main one first, each with the
//     sentence it supports the answer with (Quote);
//   - summarize: Points, the key points about the topic, most relevant first;
//   - compare: Rows, one per product with its name, price, category, link and the
//     attribute values (Attributes lists the attribute columns in order) that the product's
//     text states; Verdict, a short comparison only when the data supports one;
//   - extract: Fields, one per requested field in the requested order, with its value (""
//     when the knowledge base does not say) and the source of the value.
//
// Every string in it comes from the sources; Guard removes what does not.
type Answer struct {
	Op    string
	Lang  string
	Depth string

	Text    string   // answer
	Sources []Source // answer

	Points []Point // summarize

	Attributes []Attribute // compare
	Rows       []Row       // compare
	Verdict    string      // compare

	Fields []Field // extract
}

// Source names a passage or a product that a part of an Answer comes from.
type Source struct {
	Title string
	URL   string
	Type  string // store.DocPage, DocQA, DocProduct or DocArticle
	Quote string // the sentence of the source that supports the part, when there is one
	// Passage is the 1-based index of the passage in Sources.Passages, 0 when the part comes
	// from product data rather than a KB passage.
	Passage int
}

// Point is one key point of a summary: a sentence of a source.
type Point struct {
	Text   string
	Source Source
}

// Attribute is a compare column beyond name, price and category: a stable key (weight,
// capacity, waterproof_rating, temperature, length, sizes, or a model's own snake_case key)
// and its label in the request's language.
type Attribute struct {
	Key   string
	Label string
}

// Row is one product of a comparison.
type Row struct {
	Name     string
	Price    string
	Category string
	URL      string
	Details  string            // full depth: a sentence describing the product, from its text
	Values   map[string]string // Attribute.Key -> value as the product's text states it
	Passage  int               // 1-based index of the product's passage in Sources.Passages, 0 if none
}

// Field is one extracted field.
type Field struct {
	Name   string // as requested
	Value  string // "" when the knowledge base does not say
	Source Source // where Value comes from; Quote is the sentence that states it
}

// KBUsed is how many distinct knowledge-base passages the answer used.
func (a Answer) KBUsed() int {
	seen := map[int]bool{}
	add := func(s Source) {
		if s.Passage > 0 {
			seen[s.Passage] = true
		}
	}
	for _, s := range a.Sources {
		add(s)
	}
	for _, p := range a.Points {
		add(p.Source)
	}
	for _, r := range a.Rows {
		if r.Passage > 0 {
			seen[r.Passage] = true
		}
	}
	for _, f := range a.Fields {
		if f.Value != "" {
			add(f.Source)
		}
	}
	return len(seen)
}

// ProductsUsed is how many distinct products the answer presents: the rows of a comparison,
// and for the other ops the product documents and product data it drew on.
func (a Answer) ProductsUsed() int {
	seen := map[string]bool{}
	add := func(s Source) {
		if s.Type == store.DocProduct && s.Title != "" {
			seen[strings.ToLower(s.Title)] = true
		}
	}
	for _, s := range a.Sources {
		add(s)
	}
	for _, p := range a.Points {
		add(p.Source)
	}
	for _, r := range a.Rows {
		seen[strings.ToLower(r.Name)] = true
	}
	for _, f := range a.Fields {
		if f.Value != "" {
			add(f.Source)
		}
	}
	return len(seen)
}

// Grounded reports whether the answer says anything drawn from the sources: an answer text,
// a point, a compared product or an extracted value.
func (a Answer) Grounded() bool {
	if a.Text != "" || len(a.Points) > 0 || len(a.Rows) > 0 {
		return true
	}
	for _, f := range a.Fields {
		if f.Value != "" {
			return true
		}
	}
	return false
}
