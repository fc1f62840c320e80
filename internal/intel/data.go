package intel

import (
	"strconv"
	"strings"

	"svc/internal/lang"
	"svc/internal/store"
)

// The data op shapes catalog rows as they are stored: no model, no guard (nothing is
// generated). Table columns are stable keys, so that a client can read them by name; the
// headings of the markdown format are in the rows' language (the language most of them
// are in; English when they are mixed evenly or have none).

// ProductRow is one product of the data op in format json at lean depth:
//
//	{"name", "price", "category", "url", "description"}
type ProductRow struct {
	Name        string `json:"name"`
	Price       string `json:"price"`
	Category    string `json:"category"`
	URL         string `json:"url"`
	Description string `json:"description"`
}

// ProductRowFull is one product of the data op in format json at full depth: ProductRow's
// keys plus "image" and "lang".
type ProductRowFull struct {
	ProductRow
	Image string `json:"image"`
	Lang  string `json:"lang"`
}

// FAQRow is one curated question and answer of the data op in format json:
//
//	{"question", "answer"}
type FAQRow struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// CategoryRow is one category of the data op in format json:
//
//	{"kind": "product" or "article", "name", "slug" ("" for product categories), "count": int}
type CategoryRow struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Slug  string `json:"slug"`
	Count int    `json:"count"`
}

// DataProducts shapes product rows in format: table columns name, price, category, url,
// description (full depth adds image, lang); list: "name — price (category)"; json: an
// array of ProductRow (ProductRowFull at full depth); text: per product a line with its
// price, category and link, then its description; markdown: a table (the name links to the
// product).
func DataProducts(format string, rows []store.CatalogProduct, depth string) any {
	full := depth == DepthFull
	langs := make([]string, len(rows))
	for i, r := range rows {
		langs[i] = r.Lang
	}
	l := labelsFor(majorityLang(langs))
	switch format {
	case FormatTable:
		t := Table{Columns: []string{"name", "price", "category", "url", "description"}, Rows: [][]string{}}
		if full {
			t.Columns = append(t.Columns, "image", "lang")
		}
		for _, r := range rows {
			row := []string{r.Name, r.Price, r.Category, r.URL, r.Description}
			if full {
				row = append(row, r.Image, r.Lang)
			}
			t.Rows = append(t.Rows, row)
		}
		return t
	case FormatList:
		items := []string{}
		for _, r := range rows {
			item := r.Name
			if r.Price != "" {
				item += " — " + r.Price
			}
			if r.Category != "" {
				item += " (" + r.Category + ")"
			}
			items = append(items, item)
		}
		return List{Items: items}
	case FormatJSON:
		if full {
			out := []ProductRowFull{}
			for _, r := range rows {
				out = append(out, ProductRowFull{ProductRow: productRow(r), Image: r.Image, Lang: r.Lang})
			}
			return JSONData{Data: out}
		}
		out := []ProductRow{}
		for _, r := range rows {
			out = append(out, productRow(r))
		}
		return JSONData{Data: out}
	case FormatMarkdown:
		cols := []string{l.dataName, l.price, l.category, l.dataDesc}
		if full {
			cols = append(cols, l.dataImage, l.langLb)
		}
		var cells [][]string
		for _, r := range rows {
			row := []string{mdLink(r.Name, r.URL), mdCell(r.Price), mdCell(r.Category), mdCell(r.Description)}
			if full {
				row = append(row, mdCell(r.Image), mdCell(r.Lang))
			}
			cells = append(cells, row)
		}
		return Text{Result: strings.TrimRight(mdTable(cols, cells), "\n")}
	default:
		var b strings.Builder
		for i, r := range rows {
			if i > 0 {
				b.WriteString("\n\n")
			}
			var parts []string
			if r.Price != "" {
				parts = append(parts, l.price+": "+r.Price)
			}
			if r.Category != "" {
				parts = append(parts, l.category+": "+r.Category)
			}
			if r.URL != "" {
				parts = append(parts, l.link+": "+r.URL)
			}
			if full && r.Image != "" {
				parts = append(parts, l.dataImage+": "+r.Image)
			}
			b.WriteString(r.Name)
			if len(parts) > 0 {
				b.WriteString(" — " + strings.Join(parts, "; "))
			}
			if d := strings.TrimSpace(r.Description); d != "" {
				b.WriteString("\n" + d)
			}
		}
		return Text{Result: b.String()}
	}
}

func productRow(r store.CatalogProduct) ProductRow {
	return ProductRow{Name: r.Name, Price: r.Price, Category: r.Category, URL: r.URL, Description: r.Description}
}

// DataFAQ shapes curated Q&A rows in format: table columns question, answer; list:
// "question — answer"; json: an array of FAQRow; text: each question on a line with its
// answer below; markdown: each question as a heading with its answer. Depth changes
// nothing.
func DataFAQ(format string, rows []store.CatalogFAQ, depth string) any {
	langs := make([]string, len(rows))
	for i, r := range rows {
		langs[i] = r.Lang
	}
	l := labelsFor(majorityLang(langs))
	switch format {
	case FormatTable:
		t := Table{Columns: []string{"question", "answer"}, Rows: [][]string{}}
		for _, r := range rows {
			t.Rows = append(t.Rows, []string{r.Question, r.Answer})
		}
		return t
	case FormatList:
		items := []string{}
		for _, r := range rows {
			items = append(items, r.Question+" — "+oneLine(r.Answer))
		}
		return List{Items: items}
	case FormatJSON:
		out := []FAQRow{}
		for _, r := range rows {
			out = append(out, FAQRow{Question: r.Question, Answer: r.Answer})
		}
		return JSONData{Data: out}
	case FormatMarkdown:
		var b strings.Builder
		for i, r := range rows {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString("### " + mdCell(r.Question) + "\n\n" + mdText(strings.TrimSpace(r.Answer)))
		}
		if len(rows) == 0 {
			b.WriteString(mdTable([]string{l.question, l.answer}, nil))
		}
		return Text{Result: strings.TrimRight(b.String(), "\n")}
	default:
		var b strings.Builder
		for i, r := range rows {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(r.Question + "\n" + strings.TrimSpace(r.Answer))
		}
		return Text{Result: b.String()}
	}
}

// DataCategories shapes category rows in format: table columns kind, name, slug, count;
// list: "name (kind, count)"; json: an array of CategoryRow; text: one such line per
// category; markdown: a table. Depth changes nothing.
func DataCategories(format string, rows []store.CatalogCategory, depth string) any {
	l := labelsFor(lang.EN)
	switch format {
	case FormatTable:
		t := Table{Columns: []string{"kind", "name", "slug", "count"}, Rows: [][]string{}}
		for _, r := range rows {
			t.Rows = append(t.Rows, []string{r.Kind, r.Name, r.Slug, strconv.Itoa(r.Count)})
		}
		return t
	case FormatList:
		items := []string{}
		for _, r := range rows {
			items = append(items, categoryLine(r))
		}
		return List{Items: items}
	case FormatJSON:
		out := []CategoryRow{}
		for _, r := range rows {
			out = append(out, CategoryRow(r))
		}
		return JSONData{Data: out}
	case FormatMarkdown:
		var cells [][]string
		for _, r := range rows {
			cells = append(cells, []string{mdCell(r.Kind), mdCell(r.Name), mdCell(r.Slug), strconv.Itoa(r.Count)})
		}
		return Text{Result: strings.TrimRight(mdTable([]string{l.kind, l.dataName, l.slug, l.count}, cells), "\n")}
	default:
		lines := make([]string, len(rows))
		for i, r := range rows {
			lines[i] = categoryLine(r)
		}
		return Text{Result: strings.Join(lines, "\n")}
	}
}

func categoryLine(r store.CatalogCategory) string {
	return r.Name + " (" + r.Kind + ", " + strconv.Itoa(r.Count) + ")"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// majorityLang is the language most of langs are in, "" on a tie or when none is set.
func majorityLang(langs []string) string {
	n := map[string]int{}
	for _, l := range langs {
		if l != "" {
			n[l]++
		}
	}
	best, count, tie := "", 0, false
	for l, c := range n {
		switch {
		case c > count:
			best, count, tie = l, c, false
		case c == count:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}
