package intel

import (
	"strings"

	"svc/internal/engine"
)

// AnswerJSON is result.data of op answer in format json:
//
//	{"answer": string, "sources": [{"title", "url", "type", "quote"}]}
//
// answer is "" when the knowledge base does not answer the question (sources is then []);
// sources are the passages it was answered from, the main one first (full depth: with the
// supporting passages); quote is the sentence of the source that supports the answer; type
// is page, qa, product or article.
type AnswerJSON struct {
	Answer  string       `json:"answer"`
	Sources []SourceJSON `json:"sources"`
}

// SourceJSON is a cited source. url is "" for a source without a page (a Q&A); quote is ""
// where no sentence is cited.
type SourceJSON struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Type  string `json:"type"`
	Quote string `json:"quote"`
}

// SummaryJSON is result.data of op summarize in format json:
//
//	{"points": [{"text", "title", "url"}], "sources": [{"title", "url", "type", "quote"}]}
//
// points are the key points about the topic, most relevant first (lean at most 3, full at
// most 6), each with the title and url of its source; sources lists those sources once each
// (quote "").
type SummaryJSON struct {
	Points  []PointJSON  `json:"points"`
	Sources []SourceJSON `json:"sources"`
}

// PointJSON is one key point.
type PointJSON struct {
	Text  string `json:"text"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// CompareJSON is result.data of op compare in format json:
//
//	{"products": [{"name", "price", "category", "url", "attributes": {key: value}, "details"}],
//	 "attributes": [{"key", "label"}], "verdict": string}
//
// One product per compared product, in the order of the items; attributes (top level) are
// the attribute columns, a stable English key (weight, capacity, waterproof_rating,
// temperature, length, sizes, material, or a model's own snake_case key) with its label in
// the request's language; every product's attributes object has every key, "" where its
// text does not state it. details is a sentence describing the product (full depth; "" in
// lean). verdict is a short comparison, "" unless the data supports one.
type CompareJSON struct {
	Products   []ProductJSON   `json:"products"`
	Attributes []AttributeJSON `json:"attributes"`
	Verdict    string          `json:"verdict"`
}

// ProductJSON is one compared product.
type ProductJSON struct {
	Name       string            `json:"name"`
	Price      string            `json:"price"`
	Category   string            `json:"category"`
	URL        string            `json:"url"`
	Attributes map[string]string `json:"attributes"`
	Details    string            `json:"details"`
}

// AttributeJSON is one attribute column of a comparison.
type AttributeJSON struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// ExtractJSON is result.data of op extract in format json:
//
//	{"fields": {field: value}, "sources": [{"field", "value", "title", "url", "quote"}]}
//
// fields has every requested field (named as requested) with its value, "" when the
// knowledge base does not state it; sources has one entry per requested field, in the
// requested order, with the source of its value (title and url "" when there is none) and,
// at full depth, the sentence that states it (quote; "" in lean).
type ExtractJSON struct {
	Fields  map[string]string `json:"fields"`
	Sources []FieldSourceJSON `json:"sources"`
}

// FieldSourceJSON is the source of one extracted field.
type FieldSourceJSON struct {
	Field string `json:"field"`
	Value string `json:"value"`
	Title string `json:"title"`
	URL   string `json:"url"`
	Quote string `json:"quote"`
}

// Shape renders a in req.Format and returns one of Table, List, JSONData or Text. The
// labels, headings and "not found" sentences are in req.Lang; everything else is a's own.
//
// Per op and format (columns are labels in the request's language; English shown):
//
//   - answer: table: Answer, Source, Link, one row per source (the first row holds the
//     answer, the others the sentence each supporting source adds); list: the answer's
//     sentences, then one "Source: title (url)" item per source; json: AnswerJSON; text:
//     the answer, then its source lines; markdown: the answer, then the source as a link
//     (full: a "Sources" section with the supporting quotes).
//   - summarize: table: Key point, Source, Link, one row per point; list: the points;
//     json: SummaryJSON; text: one point per line (full: then a "Sources:" line); markdown:
//     a "Key points" heading and bullets (full: then a "Sources" section).
//   - compare: table: Product, Price, Category, one column per attribute (full: then
//     Link, Details), one row per product; list: one "name — Price: …; Category: …" item per
//     product, then the verdict when there is one; json: CompareJSON; text: those lines and
//     the verdict; markdown: a "Comparison" heading, a table and the verdict.
//   - extract: table: Field, Value, Source, Link (full: Field, Value, Evidence, Source,
//     Link), one row per requested field ("" where not stated); list: one "field: value"
//     item per field; json: ExtractJSON; text: those lines (full: with the source);
//     markdown: a table like the table format's.
//
// Slices are never nil, so JSON never carries null.
func Shape(req Request, a Answer) any {
	lg := req.Lang
	if lg == "" {
		lg = a.Lang
	}
	s := shaper{req: req, a: a, lg: lg, l: labelsFor(lg)}
	switch req.Format {
	case FormatTable:
		return s.table()
	case FormatList:
		return List{Items: orEmpty(s.list())}
	case FormatJSON:
		return JSONData{Data: s.json()}
	case FormatMarkdown:
		return Text{Result: s.markdown()}
	default:
		return Text{Result: s.text()}
	}
}

type shaper struct {
	req Request
	a   Answer
	lg  string
	l   labels
}

func (s shaper) full() bool { return s.req.full() }

func (s shaper) op() string {
	if s.req.Op != "" {
		return s.req.Op
	}
	return s.a.Op
}

func (s shaper) sourceLine(src Source) string {
	return engine.SourceLine(s.lg, src.Title, src.URL)
}

func (s shaper) quoted(q string) string {
	return s.l.openQuote + q + s.l.closeQuote
}

// ---- table

func (s shaper) table() Table {
	t := Table{Columns: []string{}, Rows: [][]string{}}
	a, l := s.a, s.l
	switch s.op() {
	case OpAnswer:
		t.Columns = []string{l.answer, l.source, l.link}
		for i, src := range a.Sources {
			text := src.Quote
			if i == 0 {
				text = a.Text
			}
			t.Rows = append(t.Rows, []string{text, src.Title, src.URL})
		}
		if len(a.Sources) == 0 && a.Text != "" {
			t.Rows = append(t.Rows, []string{a.Text, "", ""})
		}
	case OpSummarize:
		t.Columns = []string{l.point, l.source, l.link}
		for _, p := range a.Points {
			t.Rows = append(t.Rows, []string{p.Text, p.Source.Title, p.Source.URL})
		}
	case OpCompare:
		t.Columns = []string{l.product, l.price, l.category}
		for _, at := range a.Attributes {
			t.Columns = append(t.Columns, at.Label)
		}
		if s.full() {
			t.Columns = append(t.Columns, l.link, l.details)
		}
		for _, r := range a.Rows {
			row := []string{r.Name, r.Price, r.Category}
			for _, at := range a.Attributes {
				row = append(row, r.Values[at.Key])
			}
			if s.full() {
				row = append(row, r.URL, r.Details)
			}
			t.Rows = append(t.Rows, row)
		}
	case OpExtract:
		if s.full() {
			t.Columns = []string{l.field, l.value, l.evidence, l.source, l.link}
		} else {
			t.Columns = []string{l.field, l.value, l.source, l.link}
		}
		for _, f := range a.Fields {
			if s.full() {
				t.Rows = append(t.Rows, []string{f.Name, f.Value, f.Source.Quote, f.Source.Title, f.Source.URL})
			} else {
				t.Rows = append(t.Rows, []string{f.Name, f.Value, f.Source.Title, f.Source.URL})
			}
		}
	}
	return t
}

// ---- list

func (s shaper) list() []string {
	var items []string
	a := s.a
	switch s.op() {
	case OpAnswer:
		if a.Text == "" {
			return items
		}
		for _, line := range strings.Split(a.Text, "\n") {
			items = append(items, engine.SplitLine(line, s.lg)...)
		}
		for _, src := range a.Sources {
			items = append(items, s.sourceLine(src))
		}
	case OpSummarize:
		for _, p := range a.Points {
			items = append(items, p.Text)
		}
	case OpCompare:
		for _, r := range a.Rows {
			items = append(items, s.rowLine(r))
		}
		if a.Verdict != "" {
			items = append(items, a.Verdict)
		}
	case OpExtract:
		for _, f := range a.Fields {
			items = append(items, s.fieldLine(f, false))
		}
	}
	return items
}

// rowLine is a compared product as one line: "name — Price: …; Category: …; Weight: …".
func (s shaper) rowLine(r Row) string {
	var parts []string
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, label+": "+v)
		}
	}
	add(s.l.price, r.Price)
	add(s.l.category, r.Category)
	for _, at := range s.a.Attributes {
		add(at.Label, r.Values[at.Key])
	}
	if s.full() {
		add(s.l.link, r.URL)
	}
	line := r.Name
	if len(parts) > 0 {
		line += " — " + strings.Join(parts, "; ")
	}
	return line
}

func (s shaper) fieldLine(f Field, withSource bool) string {
	v := f.Value
	if v == "" {
		v = s.l.notStated
	}
	line := f.Name + ": " + v
	if withSource && f.Value != "" && f.Source.Title != "" {
		line += " (" + s.sourceLine(f.Source) + ")"
	}
	return line
}

// ---- json

func (s shaper) json() any {
	a := s.a
	switch s.op() {
	case OpAnswer:
		out := AnswerJSON{Answer: a.Text, Sources: []SourceJSON{}}
		for _, src := range a.Sources {
			out.Sources = append(out.Sources, sourceJSON(src))
		}
		return out
	case OpSummarize:
		out := SummaryJSON{Points: []PointJSON{}, Sources: []SourceJSON{}}
		for _, p := range a.Points {
			out.Points = append(out.Points, PointJSON{Text: p.Text, Title: p.Source.Title, URL: p.Source.URL})
		}
		for _, src := range distinctSources(a.Points) {
			src.Quote = ""
			out.Sources = append(out.Sources, sourceJSON(src))
		}
		return out
	case OpCompare:
		out := CompareJSON{Products: []ProductJSON{}, Attributes: []AttributeJSON{}, Verdict: a.Verdict}
		for _, at := range a.Attributes {
			out.Attributes = append(out.Attributes, AttributeJSON(at))
		}
		for _, r := range a.Rows {
			p := ProductJSON{Name: r.Name, Price: r.Price, Category: r.Category, URL: r.URL, Attributes: map[string]string{}}
			for _, at := range a.Attributes {
				p.Attributes[at.Key] = r.Values[at.Key]
			}
			if s.full() {
				p.Details = r.Details
			}
			out.Products = append(out.Products, p)
		}
		return out
	case OpExtract:
		out := ExtractJSON{Fields: map[string]string{}, Sources: []FieldSourceJSON{}}
		for _, f := range a.Fields {
			out.Fields[f.Name] = f.Value
			fs := FieldSourceJSON{Field: f.Name, Value: f.Value, Title: f.Source.Title, URL: f.Source.URL}
			if s.full() {
				fs.Quote = f.Source.Quote
			}
			out.Sources = append(out.Sources, fs)
		}
		return out
	}
	return map[string]any{}
}

func sourceJSON(s Source) SourceJSON {
	return SourceJSON{Title: s.Title, URL: s.URL, Type: s.Type, Quote: s.Quote}
}

// distinctSources are the sources of the points, once each, in order of first use.
func distinctSources(points []Point) []Source {
	var out []Source
	for _, p := range points {
		if p.Source.Title == "" && p.Source.URL == "" {
			continue
		}
		dup := false
		for _, o := range out {
			if o.Title == p.Source.Title && o.URL == p.Source.URL {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p.Source)
		}
	}
	return out
}

// ---- text

func (s shaper) text() string {
	a, l := s.a, s.l
	var b strings.Builder
	switch s.op() {
	case OpAnswer:
		if a.Text == "" {
			return l.noAnswer
		}
		b.WriteString(a.Text)
		for i, src := range a.Sources {
			if i == 0 {
				b.WriteString("\n")
			}
			b.WriteString("\n" + s.sourceLine(src))
			if i > 0 && src.Quote != "" {
				b.WriteString(": " + s.quoted(src.Quote))
			}
		}
	case OpSummarize:
		if len(a.Points) == 0 {
			return l.noPoints
		}
		for i, p := range a.Points {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(p.Text)
		}
		if s.full() {
			if srcs := distinctSources(a.Points); len(srcs) > 0 {
				names := make([]string, len(srcs))
				for i, src := range srcs {
					names[i] = sourceName(src)
				}
				b.WriteString("\n\n" + l.sources + ": " + strings.Join(names, "; "))
			}
		}
	case OpCompare:
		if len(a.Rows) == 0 {
			return l.noProducts
		}
		for i, r := range a.Rows {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(endSentence(s.rowLine(r)))
			if s.full() && r.Details != "" {
				b.WriteString(" " + r.Details)
			}
		}
		if a.Verdict != "" {
			b.WriteString("\n\n" + a.Verdict)
		}
	case OpExtract:
		for i, f := range a.Fields {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(s.fieldLine(f, s.full()))
		}
	}
	return b.String()
}

// sourceName is "title (url)", or whichever of them there is.
func sourceName(src Source) string {
	switch {
	case src.Title == "":
		return src.URL
	case src.URL == "":
		return src.Title
	}
	return src.Title + " (" + src.URL + ")"
}

// ---- markdown

func (s shaper) markdown() string {
	a, l := s.a, s.l
	var b strings.Builder
	switch s.op() {
	case OpAnswer:
		if a.Text == "" {
			return l.noAnswer
		}
		b.WriteString(mdText(a.Text))
		if len(a.Sources) == 0 {
			break
		}
		if !s.full() {
			b.WriteString("\n\n**" + l.source + ":** " + mdLink(a.Sources[0].Title, a.Sources[0].URL))
			break
		}
		b.WriteString("\n\n### " + l.sources + "\n")
		for _, src := range a.Sources {
			b.WriteString("\n- " + mdLink(src.Title, src.URL))
			if src.Quote != "" && src.Quote != a.Text {
				b.WriteString(" — " + s.quoted(mdText(src.Quote)))
			}
		}
	case OpSummarize:
		if len(a.Points) == 0 {
			return l.noPoints
		}
		b.WriteString("## " + l.keyPoints + "\n")
		for _, p := range a.Points {
			b.WriteString("\n- " + mdText(p.Text))
		}
		if s.full() {
			if srcs := distinctSources(a.Points); len(srcs) > 0 {
				b.WriteString("\n\n### " + l.sources + "\n")
				for _, src := range srcs {
					b.WriteString("\n- " + mdLink(src.Title, src.URL))
				}
			}
		}
	case OpCompare:
		if len(a.Rows) == 0 {
			return l.noProducts
		}
		b.WriteString("## " + l.comparison + "\n\n")
		t := s.table()
		rows := make([][]string, len(t.Rows))
		cols := t.Columns
		if s.full() {
			cols = cols[:len(cols)-2] // the link goes into the name; details stay
			cols = append(cols, l.details)
		}
		for i, r := range a.Rows {
			row := []string{mdLink(r.Name, r.URL)}
			for _, c := range t.Rows[i][1 : 3+len(a.Attributes)] {
				row = append(row, mdCell(c))
			}
			if s.full() {
				row = append(row, mdCell(r.Details))
			}
			rows[i] = row
		}
		b.WriteString(mdTable(cols, rows))
		if a.Verdict != "" {
			b.WriteString("\n**" + l.verdict + ":** " + mdText(a.Verdict))
		}
	case OpExtract:
		var cols []string
		if s.full() {
			cols = []string{l.field, l.value, l.evidence, l.source}
		} else {
			cols = []string{l.field, l.value, l.source}
		}
		var rows [][]string
		for _, f := range a.Fields {
			v := mdCell(f.Value)
			if f.Value == "" {
				v = "_" + l.notStated + "_"
			}
			row := []string{mdCell(f.Name), v}
			if s.full() {
				q := ""
				if f.Source.Quote != "" {
					q = s.quoted(mdCell(f.Source.Quote))
				}
				row = append(row, q)
			}
			row = append(row, mdLink(f.Source.Title, f.Source.URL))
			rows = append(rows, row)
		}
		b.WriteString(mdTable(cols, rows))
	}
	return strings.TrimRight(b.String(), "\n")
}

// mdTable writes a markdown table; cells must already be escaped (mdCell or mdLink), the
// header cells are escaped here.
func mdTable(cols []string, rows [][]string) string {
	var b strings.Builder
	head := make([]string, len(cols))
	sep := make([]string, len(cols))
	for i, c := range cols {
		head[i] = mdCell(c)
		sep[i] = "---"
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n")
	b.WriteString("| " + strings.Join(sep, " | ") + " |\n")
	for _, r := range rows {
		cells := make([]string, len(cols))
		for i := range cols {
			if i < len(r) {
				cells[i] = r[i]
			}
			if cells[i] == "" {
				cells[i] = "—"
			}
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

// mdText escapes what would change the meaning of running markdown text: the opening angle
// bracket of HTML and the characters that start emphasis, code or links. Line breaks stay.
var mdTextEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;")

func mdText(s string) string { return mdTextEscaper.Replace(s) }

// mdCell is mdText for a table cell: a pipe is escaped and a line break becomes a space.
func mdCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(mdText(s), "|", `\|`)
}

// mdLink is [title](url), or the escaped title (or url) alone.
func mdLink(title, url string) string {
	if url == "" {
		return mdCell(title)
	}
	if title == "" {
		title = url
	}
	u := strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "|", "%7C").Replace(url)
	return "[" + mdCell(title) + "](" + u + ")"
}
