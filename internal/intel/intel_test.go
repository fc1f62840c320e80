package intel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"svc/internal/grounding"
)

// demoRequests are one request per model-based op and language, on facts the demo KB holds.
var demoRequests = map[string][]Request{
	"en": {
		{Op: OpAnswer, Question: "How long does delivery take?"},
		{Op: OpSummarize, Topic: "returns"},
		{Op: OpCompare, Items: []string{"Kaçkar Pro boot", "Aladağ 35 backpack"}},
		{Op: OpExtract, Topic: "Kaçkar Pro Trekking Boot", Fields: []string{"price", "delivery time", "battery life"}},
	},
	"tr": {
		{Op: OpAnswer, Question: "Kargo ücreti ne kadar?"},
		{Op: OpSummarize, Topic: "iade"},
		{Op: OpCompare, Items: []string{"Kaçkar Pro bot", "Aladağ 35 sırt çantası"}},
		{Op: OpExtract, Topic: "Kaçkar Pro Trekking Botu", Fields: []string{"fiyat", "teslimat süresi", "pil ömrü"}},
	},
	"de": {
		{Op: OpAnswer, Question: "Was kostet der Versand?"},
		{Op: OpSummarize, Topic: "Versand"},
		{Op: OpCompare, Items: []string{"Kaçkar Trekkingstiefel", "Aladağ 35 Rucksack"}},
		{Op: OpExtract, Topic: "Kaçkar Pro Trekkingstiefel", Fields: []string{"Preis", "Lieferzeit", "Akkulaufzeit"}},
	},
}

// retrievalText is what the caller retrieves the sources of a request for.
func retrievalText(r Request) (string, []string) {
	switch r.Op {
	case OpAnswer:
		return r.Question, nil
	case OpSummarize:
		return r.Topic, nil
	case OpCompare:
		if len(r.Items) > 0 {
			return strings.Join(r.Items, " "), r.Items
		}
		return r.Query, nil
	case OpExtract:
		return r.Topic + " " + strings.Join(r.Fields, " "), nil
	}
	return "", nil
}

func demoSources(t *testing.T, r Request) grounding.Sources {
	t.Helper()
	text, named := retrievalText(r)
	return demoFixture(t).sources(t, text, r.Lang, named)
}

var formats = []string{FormatText, FormatMarkdown, FormatJSON, FormatTable, FormatList}

// jsonKeys are the keys of result.data per op in format json.
var jsonKeys = map[string][]string{
	OpAnswer:    {"answer", "sources"},
	OpSummarize: {"points", "sources"},
	OpCompare:   {"attributes", "products", "verdict"},
	OpExtract:   {"fields", "sources"},
}

// TestEveryOpFormatDepthLanguage runs every model-based op in every format, at both depths
// and in the three languages, on the demo KB, and checks the exact shape of each result.
func TestEveryOpFormatDepthLanguage(t *testing.T) {
	for lg, reqs := range demoRequests {
		for _, base := range reqs {
			for _, depth := range []string{DepthLean, DepthFull} {
				req := base
				req.Lang, req.Depth, req.Business = lg, depth, "Yolcu Outdoor"
				src := demoSources(t, req)
				if src.Empty() {
					t.Fatalf("%s %s: the demo KB gave no sources", lg, req.Op)
				}
				a := Compose(req, src)
				if !a.Grounded() || a.KBUsed()+a.ProductsUsed() == 0 {
					t.Errorf("%s %s %s: nothing grounded: %+v", lg, req.Op, depth, a)
				}
				for _, format := range formats {
					req.Format = format
					name := fmt.Sprintf("%s/%s/%s/%s", lg, req.Op, depth, format)
					checkShape(t, name, req, Shape(req, a))
				}
			}
		}
	}
}

func checkShape(t *testing.T, name string, req Request, result any) {
	t.Helper()
	b, err := json.Marshal(result)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("%s: null in %s", name, b)
	}
	switch req.Format {
	case FormatTable:
		tb, ok := result.(Table)
		if !ok {
			t.Fatalf("%s: %T, want Table", name, result)
		}
		if len(tb.Columns) == 0 || len(tb.Rows) == 0 {
			t.Errorf("%s: empty table %s", name, b)
		}
		for i, r := range tb.Rows {
			if len(r) != len(tb.Columns) {
				t.Errorf("%s: row %d has %d cells for %d columns", name, i, len(r), len(tb.Columns))
			}
		}
		if !slices.Contains(tb.Columns, labelsFor(req.Lang).source) && req.Op != OpCompare {
			t.Errorf("%s: no %q column in %q", name, labelsFor(req.Lang).source, tb.Columns)
		}
	case FormatList:
		l, ok := result.(List)
		if !ok {
			t.Fatalf("%s: %T, want List", name, result)
		}
		if len(l.Items) == 0 {
			t.Errorf("%s: no items", name)
		}
		for i, it := range l.Items {
			if strings.TrimSpace(it) == "" {
				t.Errorf("%s: item %d is empty", name, i)
			}
		}
	case FormatJSON:
		j, ok := result.(JSONData)
		if !ok {
			t.Fatalf("%s: %T, want JSONData", name, result)
		}
		var obj map[string]json.RawMessage
		raw, _ := json.Marshal(j.Data)
		if err := json.Unmarshal(raw, &obj); err != nil {
			t.Fatalf("%s: data is not an object: %s", name, raw)
		}
		var keys []string
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, jsonKeys[req.Op]) {
			t.Errorf("%s: keys %q, want %q", name, keys, jsonKeys[req.Op])
		}
	case FormatText, FormatMarkdown:
		tx, ok := result.(Text)
		if !ok {
			t.Fatalf("%s: %T, want Text", name, result)
		}
		if strings.TrimSpace(tx.Result) == "" {
			t.Errorf("%s: empty result", name)
		}
		l := labelsFor(req.Lang)
		for _, notFound := range []string{l.noAnswer, l.noPoints, l.noProducts} {
			if tx.Result == notFound {
				t.Errorf("%s: %q", name, tx.Result)
			}
		}
		if req.Format == FormatMarkdown && req.Op == OpCompare && !strings.Contains(tx.Result, "| "+l.price+" |") {
			t.Errorf("%s: no table with a %q column:\n%s", name, l.price, tx.Result)
		}
		if req.Format == FormatMarkdown && req.Op == OpSummarize && !strings.HasPrefix(tx.Result, "## "+l.keyPoints) {
			t.Errorf("%s: no heading:\n%s", name, tx.Result)
		}
	}
}

// TestDepth checks that full depth adds to lean: more points, the supporting sources of an
// answer, product details, the evidence of fields.
func TestDepth(t *testing.T) {
	for lg, reqs := range demoRequests {
		for _, base := range reqs {
			base.Lang = lg
			src := demoSources(t, base)
			lean, full := base, base
			lean.Depth, full.Depth = DepthLean, DepthFull
			a, b := Compose(lean, src), Compose(full, src)
			switch base.Op {
			case OpSummarize:
				if len(a.Points) > pointsLean || len(b.Points) <= len(a.Points) {
					t.Errorf("%s summarize: %d lean and %d full points", lg, len(a.Points), len(b.Points))
				}
			case OpAnswer:
				if len(b.Sources) < len(a.Sources) || len(b.Text) < len(a.Text) {
					t.Errorf("%s answer: full %+v is less than lean %+v", lg, b, a)
				}
			case OpCompare:
				for _, r := range b.Rows {
					if r.Details == "" {
						t.Errorf("%s compare: full row %q has no details", lg, r.Name)
					}
				}
				for _, r := range a.Rows {
					if r.Details != "" {
						t.Errorf("%s compare: lean row %q has details", lg, r.Name)
					}
				}
			case OpExtract:
				for _, f := range b.Fields {
					if f.Value != "" && f.Source.Quote == "" {
						t.Errorf("%s extract: full field %q has no evidence", lg, f.Name)
					}
				}
				for _, f := range a.Fields {
					if f.Source.Quote != "" {
						t.Errorf("%s extract: lean field %q has evidence", lg, f.Name)
					}
				}
			}
		}
	}
}

// TestCompareShowsRealPrices compares two demo products in each language: the rows carry
// their catalog prices and categories, and the verdict names the cheaper one.
func TestCompareShowsRealPrices(t *testing.T) {
	want := map[string][2][3]string{
		"en": {{"Kaçkar Pro Trekking Boot", "$129.00", "Footwear"}, {"Aladağ 35 Backpack", "$69.00", "Backpacks"}},
		"tr": {{"Kaçkar Pro Trekking Botu", "4.290,00 TL", "Ayakkabı"}, {"Aladağ 35 Sırt Çantası", "2.029,00 TL", "Sırt Çantası"}},
		"de": {{"Kaçkar Pro Trekkingstiefel", "119,90 €", "Schuhe"}, {"Aladağ 35 Rucksack", "64,90 €", "Rucksäcke"}},
	}
	for lg, rows := range want {
		req := demoRequests[lg][2]
		req.Lang, req.Depth, req.Format = lg, DepthLean, FormatTable
		a := Compose(req, demoSources(t, req))
		tb := Shape(req, a).(Table)
		if len(tb.Rows) != 2 {
			t.Fatalf("%s: %d rows, want 2: %+v", lg, len(tb.Rows), tb)
		}
		l := labelsFor(lg)
		if !slices.Equal(tb.Columns[:3], []string{l.product, l.price, l.category}) {
			t.Errorf("%s: columns %q", lg, tb.Columns)
		}
		for i, w := range rows {
			if got := tb.Rows[i][:3]; !slices.Equal(got, w[:]) {
				t.Errorf("%s row %d: %q, want %q", lg, i, got, w)
			}
		}
		if !strings.Contains(a.Verdict, rows[1][0]) || !strings.Contains(a.Verdict, rows[1][1]) {
			t.Errorf("%s: verdict %q does not name the cheaper %s at %s", lg, a.Verdict, rows[1][0], rows[1][1])
		}
		if a.ProductsUsed() != 2 {
			t.Errorf("%s: ProductsUsed %d, want 2", lg, a.ProductsUsed())
		}
	}
}

// TestCompareAttributes reads the attributes the products' texts state.
func TestCompareAttributes(t *testing.T) {
	req := Request{Op: OpCompare, Lang: "en", Depth: DepthLean, Format: FormatJSON,
		Items: []string{"Uludağ 2 tent", "Erciyes sleeping bag"}}
	a := Compose(req, demoSources(t, req))
	data := Shape(req, a).(JSONData).Data.(CompareJSON)
	if len(data.Products) != 2 {
		t.Fatalf("products %+v", data.Products)
	}
	tent, bag := data.Products[0].Attributes, data.Products[1].Attributes
	if tent["weight"] != "2.3 kg" || tent["waterproof_rating"] != "3,000 mm" || tent["temperature"] != "" {
		t.Errorf("tent %q", tent)
	}
	if bag["weight"] != "1.4 kg" || bag["temperature"] != "0 °C / -5 °C" {
		t.Errorf("sleeping bag %q", bag)
	}
	if !strings.Contains(data.Verdict, "Erciyes -5 Sleeping Bag") || !strings.Contains(data.Verdict, "$105.00") {
		t.Errorf("verdict %q", data.Verdict)
	}
}

// TestExtract fills product fields from the product data, other fields from the sentence
// that states them, and a field the KB lacks with "".
func TestExtract(t *testing.T) {
	want := map[string][]string{
		"en": {"$129.00", "1–3 business days", ""},
		"tr": {"4.290,00 TL", "", ""},
		"de": {"119,90 €", "", ""},
	}
	for lg, values := range want {
		req := demoRequests[lg][3]
		req.Lang, req.Depth = lg, DepthFull
		a := Compose(req, demoSources(t, req))
		if len(a.Fields) != len(req.Fields) {
			t.Fatalf("%s: %d fields for %d", lg, len(a.Fields), len(req.Fields))
		}
		for i, f := range a.Fields {
			if f.Name != req.Fields[i] {
				t.Errorf("%s: field %d is %q, want %q", lg, i, f.Name, req.Fields[i])
			}
			if values[i] != "" && f.Value != values[i] {
				t.Errorf("%s %s: %q, want %q", lg, f.Name, f.Value, values[i])
			}
		}
		last := a.Fields[len(a.Fields)-1]
		if last.Value != "" || last.Source != (Source{}) {
			t.Errorf("%s: %q is not in the KB but got %+v", lg, last.Name, last)
		}
		if a.Fields[0].Source.Title == "" || a.Fields[0].Source.Quote == "" {
			t.Errorf("%s: price without its source or evidence: %+v", lg, a.Fields[0])
		}
		req.Format = FormatJSON
		data := Shape(req, a).(JSONData).Data.(ExtractJSON)
		if v, ok := data.Fields[last.Name]; !ok || v != "" {
			t.Errorf("%s: json fields %q", lg, data.Fields)
		}
		req.Format = FormatText
		if txt := Shape(req, a).(Text).Result; !strings.Contains(txt, last.Name+": "+labelsFor(lg).notStated) {
			t.Errorf("%s: text does not say %q is not stated:\n%s", lg, last.Name, txt)
		}
	}
}

// TestExtractDeliveryTime finds a duration for "delivery time" in each language's words.
func TestExtractDeliveryTime(t *testing.T) {
	for lg, field := range map[string]string{"en": "delivery time", "tr": "teslimat süresi", "de": "Lieferzeit"} {
		topic := map[string]string{"en": "shipping to Germany", "tr": "Almanya'ya gönderim", "de": "Versand nach Deutschland"}[lg]
		req := Request{Op: OpExtract, Lang: lg, Depth: DepthLean, Topic: topic, Fields: []string{field}}
		a := Compose(req, demoSources(t, req))
		if got := a.Fields[0].Value; !strings.HasPrefix(got, "5–7 ") {
			t.Errorf("%s %q: %q, want the 5–7 days to Germany", lg, field, got)
		}
	}
}

// TestAnswerNotFound: a question the KB does not answer gives an empty answer, which the
// formats render as "not found" (text) or empty collections.
func TestAnswerNotFound(t *testing.T) {
	for lg, q := range map[string]string{"en": "Do you sell bicycles?", "tr": "Bisiklet satıyor musunuz?", "de": "Verkaufen Sie Fahrräder?"} {
		req := Request{Op: OpAnswer, Lang: lg, Depth: DepthLean, Question: q}
		a := Compose(req, demoSources(t, req))
		if a.Text != "" || a.Grounded() || a.KBUsed() != 0 {
			t.Errorf("%s: %+v", lg, a)
		}
		req.Format = FormatText
		if got := Shape(req, a).(Text).Result; got != labelsFor(lg).noAnswer {
			t.Errorf("%s: %q", lg, got)
		}
		req.Format = FormatTable
		if tb := Shape(req, a).(Table); len(tb.Rows) != 0 || len(tb.Columns) != 3 {
			t.Errorf("%s: table %+v", lg, tb)
		}
	}
}

// TestAnswerQuotesTheSource: the answer is a sentence of the best passage, named with its
// title and link.
func TestAnswerQuotesTheSource(t *testing.T) {
	cases := []struct{ lg, q, want, title string }{
		{"en", "How much does the Uludağ 2 tent cost?", "$199.00", "Uludağ 2 Tent"},
		{"tr", "Kaçkar botunun fiyatı ne kadar?", "4.290,00 TL", "Kaçkar Pro Trekking Botu"},
		{"de", "Wie lange dauern Lieferungen nach Deutschland?", "5–7 Werktage", ""},
		{"en", "Can I pay in instalments?", "9 instalments", ""},
		{"tr", "Kaç taksit yapabiliyorsunuz?", "9 taksit", ""},
	}
	for _, c := range cases {
		req := Request{Op: OpAnswer, Lang: c.lg, Depth: DepthLean, Question: c.q}
		src := demoSources(t, req)
		a := Compose(req, src)
		if !strings.Contains(a.Text, c.want) {
			t.Errorf("%s %q: %q, want %q", c.lg, c.q, a.Text, c.want)
			continue
		}
		if len(a.Sources) != 1 || a.Sources[0].Passage == 0 || c.title != "" && a.Sources[0].Title != c.title {
			t.Errorf("%s %q: sources %+v", c.lg, c.q, a.Sources)
		}
		p := src.Passages[a.Sources[0].Passage-1]
		if p.Title != a.Sources[0].Title || p.URL != a.Sources[0].URL {
			t.Errorf("%s %q: source %+v is not passage %+v", c.lg, c.q, a.Sources[0], p)
		}
		if a.KBUsed() != 1 {
			t.Errorf("%s %q: KBUsed %d", c.lg, c.q, a.KBUsed())
		}
	}
}

// TestSummaryPoints are sentences of the sources about the topic, none repeated.
func TestSummaryPoints(t *testing.T) {
	for lg, reqs := range demoRequests {
		req := reqs[1]
		req.Lang, req.Depth = lg, DepthFull
		src := demoSources(t, req)
		a := Compose(req, src)
		if len(a.Points) < 4 {
			t.Errorf("%s: %d points", lg, len(a.Points))
		}
		seen := map[string]bool{}
		for _, p := range a.Points {
			if seen[p.Text] {
				t.Errorf("%s: %q twice", lg, p.Text)
			}
			seen[p.Text] = true
			body := strings.TrimSuffix(p.Text, ".")
			if p.Source.Passage == 0 || !strings.Contains(src.Passages[p.Source.Passage-1].Text, body) {
				t.Errorf("%s: point %q is not in its source %+v", lg, p.Text, p.Source)
			}
		}
	}
}

func TestMarkdownEscapesCells(t *testing.T) {
	req := Request{Op: OpCompare, Lang: "en", Depth: DepthFull, Format: FormatMarkdown}
	a := Answer{Op: OpCompare, Rows: []Row{
		{Name: "A | B", Price: "$1", Category: "x|y", Details: "line one\nline two", Values: map[string]string{}},
		{Name: "C", Price: "$2", Values: map[string]string{}},
	}}
	md := Shape(req, a).(Text).Result
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cells != 5 { // four columns: product, price, category, details
			t.Errorf("line %q has %d separators", line, cells)
		}
	}
	if !strings.Contains(md, `A \| B`) || !strings.Contains(md, `x\|y`) || !strings.Contains(md, "line one line two") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestShapeOfEmptyAnswers(t *testing.T) {
	for _, op := range []string{OpAnswer, OpSummarize, OpCompare, OpExtract} {
		for _, lg := range []string{"en", "tr", "de"} {
			for _, format := range formats {
				req := Request{Op: op, Lang: lg, Depth: DepthLean, Format: format, Fields: []string{"price"}}
				a := Compose(req, grounding.Sources{})
				b, _ := json.Marshal(Shape(req, a))
				if strings.Contains(string(b), "null") {
					t.Errorf("%s %s %s: %s", op, lg, format, b)
				}
				if op == OpExtract && format == FormatJSON && !strings.Contains(string(b), `"fields":{"price":""}`) {
					t.Errorf("extract without sources: %s", b)
				}
			}
		}
	}
}
