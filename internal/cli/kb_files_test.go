package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// svc kb import reads documents (here Markdown and CSV) as uploads, with --title, --url and
// --lang; a bad or unknown file exits 2 naming its problem and stores nothing; JSON Lines
// named .txt stays JSON Lines.
func TestKBImportDocuments(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	md := writeFile(t, "returns.md", "# Returns\n\nYou may return goods within 30 days.\n\n| Size | Chest |\n|---|---|\n| M | 96–101 cm |\n")
	code, out, errOut := runCLI(t, dir, "", "kb", "import", "--account", "1", "--url", "https://acme.test/returns", md)
	m := decodeOne(t, out)
	if code != 0 || m["format"] != "md" || len(m["documents"].([]any)) != 1 || m["chunks"].(float64) < 1 {
		t.Fatalf("markdown: %d %v %s", code, m, errOut)
	}
	code, out, _ = runCLI(t, dir, "", "kb", "import", "--account", "1", "--url", "https://acme.test/returns", md)
	if m = decodeOne(t, out); code != 0 || m["unchanged"].(float64) != 1 {
		t.Fatalf("markdown again: %d %v", code, m)
	}
	csv := writeFile(t, "groessen.csv", "Größe;Brust\nM;96–101 cm\nL;102–107 cm\n")
	if code, out, errOut = runCLI(t, dir, "", "kb", "import", "--account", "1", "--title", "Größentabelle", "--lang", "de", csv); code != 0 {
		t.Fatalf("csv: %d %s %s", code, out, errOut)
	}
	jsonl := writeFile(t, "kb.txt", `{"type":"qa","question":"Do you ship abroad?","answer":"Yes, worldwide.","lang":"en"}`+"\n")
	if code, out, _ = runCLI(t, dir, "", "kb", "import", "--account", "1", jsonl); code != 0 || decodeOne(t, out)["qa"].(float64) != 1 {
		t.Fatalf("jsonl as .txt: %d %s", code, out)
	}

	bad := []struct {
		args []string
		want string
	}{
		{[]string{writeFile(t, "broken.pdf", "not a pdf")}, "broken.pdf is damaged or is not a valid PDF file"},
		{[]string{writeFile(t, "photo.png", "\x89PNG\r\n\x1a\n\x00\x00")}, "Accepted formats: PDF, DOCX"},
		{[]string{"--lang", "fr", md}, "--lang"},
		{[]string{"--url", "ftp://x", md}, "--url"},
		{[]string{"--title", "T", jsonl}, "JSON Lines"},
		{[]string{"--products", writeFile(t, "notes.csv", "colour,size\nred,M\n")}, "the first row must name the columns"},
	}
	for _, b := range bad {
		code, out, errOut := runCLI(t, dir, "", append([]string{"kb", "import", "--account", "1"}, b.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, b.want) {
			t.Errorf("%v: %d %q %q", b.args, code, out, errOut)
		}
	}

	st, err := sqlite.Open(t.Context(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, _, err := st.ListDocuments(t.Context(), 1, store.DocQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]string{}
	for _, r := range rows {
		origins[r.Title] = r.Origin
	}
	if len(rows) != 3 || origins["returns"] != store.OriginUpload || origins["Größentabelle"] != store.OriginUpload ||
		origins["Do you ship abroad?"] != store.OriginImport {
		t.Fatalf("documents: %v", origins)
	}
}

// svc kb import --products upserts a catalogue by SKU: a price change updates the card,
// and a bad row is reported by its number with nothing stored.
func TestKBImportProducts(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	f := excelize.NewFile()
	rows := [][]any{{"SKU", "Name", "Price", "URL"}, {"B-1", "Trail boot", "119,90 €", "https://acme.test/boot"},
		{"S-1", "Wool sock", "9,90 €", "https://acme.test/sock"}}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "catalogue.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, dir, "", "kb", "import", "--account", "1", "--products", path)
	if m := decodeOne(t, out); code != 0 || m["created"].(float64) != 2 {
		t.Fatalf("products: %d %v %s", code, m, errOut)
	}
	csv := writeFile(t, "nightly.csv", "sku;name;price;url\nB-1;Trail boot;99,90 €;https://acme.test/boot\nS-1;Wool sock;9,90 €;https://acme.test/sock\n")
	code, out, errOut = runCLI(t, dir, "", "kb", "import", "--account", "1", "--products", csv)
	if m := decodeOne(t, out); code != 0 || m["updated"].(float64) < 1 || m["created"].(float64) != 0 {
		t.Fatalf("nightly: %d %v %s", code, m, errOut)
	}
	bad := writeFile(t, "bad.csv", "sku;name;price;url\nB-1;Trail boot;free;https://acme.test/boot\nS-1;Wool sock;9,90 €;mailto:x\n")
	code, out, errOut = runCLI(t, dir, "", "kb", "import", "--account", "1", "--products", bad)
	if code != 2 || out != "" || !strings.Contains(errOut, "row 2: price") || !strings.Contains(errOut, "row 3: url") {
		t.Fatalf("bad rows: %d %q %q", code, out, errOut)
	}
	st, err := sqlite.Open(t.Context(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	docs, _, err := st.ListDocuments(t.Context(), 1, store.DocQuery{Type: store.DocProduct, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Product.SKU == "B-1" && d.Product.Price != "99,90 €" {
			t.Fatalf("boot card: %+v", d.Product)
		}
	}
	if len(docs) != 2 {
		t.Fatalf("%d products", len(docs))
	}
}
