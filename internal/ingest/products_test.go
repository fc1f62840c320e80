package ingest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"svc/internal/errs"
	"svc/internal/store"
)

func products(t *testing.T, name string, data []byte, lang string) ([]store.Document, error) {
	t.Helper()
	return Products(context.Background(), bytes.NewReader(data), Options{Name: name, Lang: lang})
}

// Headers in Turkish and German are understood in any order; unknown columns go into the
// description; the catalogue's language is detected once; SKUs reach the card.
func TestProductsFromSpreadsheets(t *testing.T) {
	t.Parallel()
	csv := "Stok Kodu;Ürün Adı;FİYAT;Kategori;Görsel;Açıklama;Renk;Bağlantı\n" +
		"K-42;Kaçkar bot;\"1.299,90 TL\";Ayakkabı;https://shop.test/k.jpg;Su geçirmez deri bot, dağ yürüyüşleri için;kahverengi;https://shop.test/kackar\n" +
		"\n" +
		"K-43;Kaçkar bot siyah;1.299,90 TL;Ayakkabı;;Aynı botun siyah rengi;siyah;https://shop.test/kackar\n"
	docs, err := products(t, "urunler.csv", []byte(csv), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("%d products", len(docs))
	}
	d := docs[0]
	p := d.Product
	if d.Type != store.DocProduct || d.Lang != "tr" || p.Name != "Kaçkar bot" || p.SKU != "K-42" || p.Price != "1.299,90 TL" ||
		p.Category != "Ayakkabı" || p.Image != "https://shop.test/k.jpg" || p.URL != "https://shop.test/kackar" {
		t.Fatalf("product %+v lang %q", p, d.Lang)
	}
	if !strings.Contains(d.Body, "Su geçirmez deri bot") || !strings.Contains(d.Body, "Renk: kahverengi") {
		t.Fatalf("description %q", d.Body)
	}
	if docs[1].Product.SKU != "K-43" || docs[1].Product.URL != docs[0].Product.URL {
		t.Fatalf("variant %+v", docs[1].Product)
	}

	xlsx := xlsxOf(t,
		xsheet{"Hinweise", [][]any{{"Dieses Blatt ist keine Produktliste."}}},
		xsheet{"Katalog", [][]any{{"Artikelnummer", "Produktname", "Preis", "Produkt-URL"},
			{"W-1", "Wanderschuh Alpin", "149,00 €", "https://shop.test/alpin"},
			{"W-2", "Wandersocke", 12.5, ""}}})
	docs, err = products(t, "katalog.xlsx", xlsx, "de")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].Product.SKU != "W-1" || docs[1].Product.Price != "12.5" || docs[1].Lang != "de" {
		t.Fatalf("%+v %+v", docs[0].Product, docs[1].Product)
	}
}

// Every bad row is reported by its number in the file, with its field; nothing is built.
func TestProductRowErrors(t *testing.T) {
	t.Parallel()
	csv := "name,price,url,sku\n" +
		"Boot,119.90 €,https://shop.test/boot,B1\n" +
		"Sock,cheap,https://shop.test/sock,S1\n" +
		"\n" +
		"Hat,10 €,javascript:alert(1),H1\n" +
		",5 €,https://shop.test/x,X1\n" +
		"Boot again,1 €,https://shop.test/boot2,B1\n" +
		"Scarf,7 €,https://shop.test/scarf,\n" +
		"Scarf red,7 €,https://shop.test/scarf,\n"
	_, err := products(t, "p.csv", []byte(csv), "en")
	var re *RowErrors
	if !errors.As(err, &re) {
		t.Fatalf("%v", err)
	}
	type got struct {
		row   int
		field string
	}
	var rows []got
	for _, r := range re.Rows {
		rows = append(rows, got{r.Row, r.Field})
	}
	want := []got{{3, FieldPrice}, {5, ""}, {6, ""}, {7, FieldSKU}, {9, FieldURL}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want %+v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Fatalf("rows %+v, want %+v", rows, want)
		}
	}
	if e, ok := errs.As(err); !ok || e.Kind != errs.BadRequest || !strings.Contains(e.Safe, "row 3: price \"cheap\" is not an amount") ||
		!strings.Contains(e.Safe, "row 5: url must be an http or https URL") {
		t.Fatalf("message %+v", e)
	}
	if re.Rows[0].Key != "err.ingest.price" || re.Rows[1].Key != "err.kb.field_url" {
		t.Fatalf("keys %+v", re.Rows)
	}
}

// A file that is not a products table is refused as a whole.
func TestProductFileProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		data []byte
		code string
	}{
		{"p.csv", []byte("colour,size\nred,M\n"), CodeNoHeader},
		{"p.docx", docxOf(t, wp("", "x")), CodeNotProducts},
		{"p.pdf", []byte("not a pdf"), CodeCorrupt},
	}
	for _, tc := range cases {
		if _, err := products(t, tc.name, tc.data, ""); Code(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
}

func TestValidPrice(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"19.90", "119,90 €", "€ 5", "€5", "1.299,00 TL", "USD 12", "CHF 9.-", "$1,299.00", "₺1.299", "12"} {
		if !validPrice(p) {
			t.Errorf("%q refused", p)
		}
	}
	for _, p := range []string{"cheap", "on request", "10-20 €", "-5 €", "10 € / Stück", "1e9"} {
		if validPrice(p) {
			t.Errorf("%q accepted", p)
		}
	}
}

// The header synonyms file is checked as it loads: a header naming two fields, or a field
// missing its own name, is refused.
func TestHeaderSynonyms(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"ÜRÜN ADI", "ürün adı", "Urun_Adi", "Produktname", "Artikel-Nr", "Art.-Nr."} {
		if headerFields[headerKey(h)] == "" && h != "Artikel-Nr" {
			t.Errorf("%q names no field", h)
		}
	}
	if _, err := parseHeaders([]byte("name\tname\nurl\turl\nprice\tprice\ncategory\tcategory\nimage\timage\ndescription\tdescription\nsku\tsku\nsku\tName\n")); err == nil {
		t.Error("a header naming two fields was accepted")
	}
	if _, err := parseHeaders([]byte("name\tname\n")); err == nil {
		t.Error("fields without their own header were accepted")
	}
	if _, err := parseHeaders([]byte("colour\tfarbe\n")); err == nil {
		t.Error("an unknown field was accepted")
	}
}

// BuildProducts serves a request's products (the KB API) as it serves a file's rows.
func TestBuildProducts(t *testing.T) {
	t.Parallel()
	docs, err := BuildProducts([]ProductRow{{Row: 1, Name: "Lamp", Price: "30 €", SKU: "L1"}}, "")
	if err != nil || len(docs) != 1 || docs[0].Product.SKU != "L1" || len(docs[0].Chunks) == 0 {
		t.Fatalf("%v %+v", err, docs)
	}
	if _, err := BuildProducts([]ProductRow{{Row: 1, Name: "Lamp"}}, "fr"); errs.KindOf(err) != errs.BadRequest {
		t.Fatalf("lang fr: %v", err)
	}
}
