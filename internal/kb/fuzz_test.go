package kb

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"svc/internal/store"
)

// The fuzz targets of what an operator or a crawled site hands the knowledge base: import
// files and HTML bodies. Their seeds run with `go test`; `.ci/fuzz` (or
// `go test -run='^$' -fuzz='^FuzzCleanHTML$' ./internal/kb`) explores further.

// FuzzParseAndBuild holds the import to its promise for any input: a *LineError naming a line
// of the file, or validated records that round-trip through the wire format and build into
// documents (or fail with their own line), never a panic.
func FuzzParseAndBuild(f *testing.F) {
	for _, seed := range []string{
		`{"type":"page","url":"https://x.test/a","title":"A","body":"<h1>A</h1><p>text</p>","lang":"en"}`,
		`{"type":"qa","question":"Nasıl?","answer":"Böyle."}`,
		`{"type":"product","name":"Boot","price":119.9}`,
		`{"type":"product","name":" Bot ","price":"2.029,00 TL","category":"Ayakkabı","image":"HTTPS://x.test/i.jpg","lang":"TR"}`,
		`{"type":"article","slug":"s","title":"T","body":"<script>x</script>b"}`,
		`{"type":"article","slug":"iade","title":"İade","body":"# Koşullar\n\n30 gün.","category_slug":"siparis","category_name":"Sipariş"}`,
		"\ufeff{\"type\":\"page\",\"title\":\"x\",\"body\":\"<<<>>>\"}\n\n",
		`{"type":"page","title":"x","body":"<html><body><nav>menu</nav><h1>` + strings.Repeat("Long heading ", 120) + `</h1></body></html>"}`,
		`{"type":"page","title":"x","body":"y"} trailing`,
		`{"type":"page","title":"x","body":"y","question":"?"}`,
		`{"type":"qa","question":"q","answer":"a","lang":"fr"}`,
		`{"type":"page","url":"javascript:alert(1)","body":"y"}`,
		`{"type":`,
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := ParseJSONL(strings.NewReader(in))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 || le.Reason == "" {
				t.Fatalf("error without a line and a reason: %#v", err)
			}
			if recs != nil {
				t.Fatalf("records returned with error %v", err)
			}
			return
		}
		last := 0
		for _, r := range recs {
			if r.Line <= last {
				t.Fatalf("record lines out of order: %d after %d", r.Line, last)
			}
			last = r.Line
			checkRecordRoundTrip(t, r)
			doc, err := Build(r)
			if err != nil {
				var le *LineError
				if !errors.As(err, &le) || le.Line != r.Line {
					t.Fatalf("build error without the record's line %d: %v", r.Line, err)
				}
				continue
			}
			checkDocument(t, r, doc)
		}
	})
}

// checkRecordRoundTrip writes a parsed record back as an import line and parses it again:
// the same record must come back, so parsing normalises once and for all (trimmed fields,
// lower-case lang) and loses nothing.
func checkRecordRoundTrip(t *testing.T, r Record) {
	t.Helper()
	line := map[string]string{"type": r.Type, "lang": r.Lang}
	switch r.Type {
	case TypePage:
		line["url"], line["title"], line["body"] = r.URL, r.Title, r.Body
	case TypeQA:
		line["question"], line["answer"] = r.Question, r.Answer
	case TypeProduct:
		line["name"], line["url"], line["price"], line["category"], line["image"], line["description"] =
			r.Name, r.URL, r.Price, r.Category, r.Image, r.Description
	case TypeArticle:
		line["slug"], line["title"], line["body"], line["category_slug"], line["category_name"] =
			r.Slug, r.Title, r.Body, r.CategorySlug, r.CategoryName
	default:
		t.Fatalf("parsed a record of type %q", r.Type)
	}
	b, err := json.Marshal(line)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseJSONL(strings.NewReader(string(b)))
	if err != nil || len(again) != 1 {
		t.Fatalf("round trip of %s: %v", b, err)
	}
	again[0].Line = r.Line
	if !reflect.DeepEqual(again[0], r) {
		t.Fatalf("round trip of %s:\n got %+v\nwant %+v", b, again[0], r)
	}
}

// checkDocument holds a built document to what retrieval relies on: one of the three
// languages, valid UTF-8 throughout, chunks numbered in order with text, and (for pages and
// articles, whose chunks are cut from the body alone) no chunk over chunkMax characters.
func checkDocument(t *testing.T, r Record, doc store.Document) {
	t.Helper()
	if !supportedLang(doc.Lang) {
		t.Fatalf("document language %q", doc.Lang)
	}
	if r.Lang != "" && doc.Lang != r.Lang {
		t.Fatalf("declared lang %q became %q", r.Lang, doc.Lang)
	}
	for _, s := range []string{doc.Title, doc.Body} {
		if !utf8.ValidString(s) {
			t.Fatalf("document text %q is not UTF-8", s)
		}
	}
	if len(doc.Chunks) == 0 {
		t.Fatalf("document %+v without chunks", doc)
	}
	for i, c := range doc.Chunks {
		if c.Ord != i || strings.TrimSpace(c.Text) == "" || !utf8.ValidString(c.Text) || !utf8.ValidString(c.Terms) {
			t.Fatalf("chunk %d: %+v", i, c)
		}
		if (r.Type == TypePage || r.Type == TypeArticle) && utf8.RuneCountInString(c.Text) > chunkMax {
			t.Fatalf("chunk %d of a %s holds %d characters, over %d", i, r.Type, utf8.RuneCountInString(c.Text), chunkMax)
		}
	}
}

// htmlSeeds are bodies as imports and crawls deliver them: whole pages with chrome, fragments,
// plain text and broken markup.
var htmlSeeds = []string{
	`<!doctype html><html lang="tr"><head><title>İade &amp; Değişim | Teehaus</title></head><body><header>Logo</header><nav><a href="/">Ana sayfa</a></nav><main><h1>İade &amp; Değişim</h1><p>30 gün içinde&nbsp;ücretsiz iade.</p><h2>Nasıl?</h2><ul><li>Siparişi açın</li><li>Etiketi yazdırın</li></ul></main><div class="cookie-banner">Çerez</div><footer>© 2026</footer></body></html>`,
	`<p>Store<br>Moda Cad. 12</p><table><tr><td>Mon</td><td>10:00&ndash;20:00</td></tr></table><img alt="Red boot">`,
	"# Delivery\n\nWe ship   in 2 days.\nExpress: 1 day.\r\n\r\nPrice < 100 TL & more\n\n##\n\n# \n",
	`<div hidden>x</div><div style="DISPLAY : NONE">y</div><div aria-hidden="true">z</div><div role="navigation">n</div><p>kept</p>`,
	`<h1>A</h1><h2>B</h2><h3></h3><p>` + strings.Repeat("Satz eins. ", 150) + `</p><h4>Orphan</h4>`,
	`<html><body><p>` + strings.Repeat("wort", 400) + `</p></body></html>`,
	"<p>\x00\xff\xfe&#0;&#x110000;&nGt;</p><title>t</title><!-- c --><template><p>t</p></template>",
	`<table><p>foster</p><tr><td><h2>cell heading</h2></td></tr></table><select><option>o</option></select>`,
	"<svg><title>svg title</title><foreignObject><p>in svg</p></foreignObject></svg><math><mi>x</mi></math>",
}

// FuzzCleanHTML holds HTML cleaning (chrome pruning, readability for whole pages, plain text)
// to its promises: blocks are non-empty, with white space collapsed (HTML) or kept as single
// line breaks (plain text); text valid UTF-8 when the input is; the output no larger than
// the markup can justify; and cleaning is idempotent: the blocks written back as a fragment
// (or as plain text) clean to the same blocks.
func FuzzCleanHTML(f *testing.F) {
	for _, s := range htmlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		blocks, title := toBlocks(in)
		isHTML := looksLikeHTML(in)
		size := len(title)
		for _, b := range blocks {
			size += len(b.text)
			if b.text == "" || strings.TrimSpace(b.text) != b.text {
				t.Fatalf("block %q is empty or untrimmed", b.text)
			}
			if isHTML && collapseSpace(b.text) != b.text {
				t.Fatalf("HTML block %q has white space left uncollapsed", b.text)
			}
			if !isHTML && (strings.Contains(b.text, "\n\n") || strings.ContainsRune(b.text, '\r')) {
				t.Fatalf("text block %q holds a paragraph break", b.text)
			}
			if utf8.ValidString(in) && !utf8.ValidString(b.text) {
				t.Fatalf("block %q is not UTF-8", b.text)
			}
		}
		if title != collapseSpace(title) || (utf8.ValidString(in) && !utf8.ValidString(title)) {
			t.Fatalf("title %q", title)
		}
		// Parsing may turn a byte into U+FFFD and "&nGt;" (5 bytes) into 6: three times the
		// input bounds every legitimate growth.
		if size > 3*len(in)+3 {
			t.Fatalf("%d bytes of input cleaned into %d", len(in), size)
		}

		var again []block
		if isHTML {
			again, _ = htmlBlocks(renderFragment(blocks))
		} else {
			again = textBlocks(renderText(blocks))
		}
		if !reflect.DeepEqual(again, blocks) && !(len(again) == 0 && len(blocks) == 0) {
			t.Fatalf("cleaning is not idempotent:\n once %+v\ntwice %+v", blocks, again)
		}
	})
}

// renderFragment writes blocks as the simplest HTML that holds them.
func renderFragment(blocks []block) string {
	var b strings.Builder
	for _, bl := range blocks {
		tag := "p"
		if bl.heading {
			tag = fmt.Sprintf("h%d", bl.level)
		}
		b.WriteString("<" + tag + ">" + html.EscapeString(bl.text) + "</" + tag + ">")
	}
	return b.String()
}

// renderText writes blocks as the plain-text format reads them: paragraphs apart, headings
// as "# " lines.
func renderText(blocks []block) string {
	parts := make([]string, 0, len(blocks))
	for _, bl := range blocks {
		if bl.heading {
			parts = append(parts, strings.Repeat("#", bl.level)+" "+bl.text)
		} else {
			parts = append(parts, bl.text)
		}
	}
	return strings.Join(parts, "\n\n")
}
