package kb

import (
	"errors"
	"strings"
	"testing"
)

func TestParseJSONLGood(t *testing.T) {
	file := "\uFEFF" + `{"type":"page","url":"https://x.test/a","title":"Shipping","body":"We ship in 2 days.","lang":"en"}` + "\r\n" +
		"\n   \n" +
		`{"type":"qa","question":" Kargo ücreti ne kadar? ","answer":"500 TL üzeri ücretsiz.","lang":"TR"}` + "\n" +
		`{"type":"product","name":"Zelt","url":"https://x.test/zelt","price":129.9,"category":"Zelte","image":"http://x.test/z.jpg","description":"Leicht."}` + "\n" +
		`{"type":"article","slug":"rueckgabe","title":"Rückgabe","body":"<p>30 Tage</p>","category_slug":"hilfe","category_name":"Hilfe","lang":"de"}` + "\n" +
		`{"type":"page","title":"No URL","body":"text","lang":null}`
	recs, err := ParseJSONL(strings.NewReader(file))
	if err != nil {
		t.Fatalf("ParseJSONL: %v", err)
	}
	want := []Record{
		{Line: 1, Type: TypePage, URL: "https://x.test/a", Title: "Shipping", Body: "We ship in 2 days.", Lang: "en"},
		{Line: 4, Type: TypeQA, Question: "Kargo ücreti ne kadar?", Answer: "500 TL üzeri ücretsiz.", Lang: "tr"},
		{Line: 5, Type: TypeProduct, Name: "Zelt", URL: "https://x.test/zelt", Price: "129.9", Category: "Zelte", Image: "http://x.test/z.jpg", Description: "Leicht."},
		{Line: 6, Type: TypeArticle, Slug: "rueckgabe", Title: "Rückgabe", Body: "<p>30 Tage</p>", CategorySlug: "hilfe", CategoryName: "Hilfe", Lang: "de"},
		{Line: 7, Type: TypePage, Title: "No URL", Body: "text"},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(recs), len(want), recs)
	}
	for i := range want {
		if recs[i] != want[i] {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, recs[i], want[i])
		}
	}
}

func TestParseJSONLEmpty(t *testing.T) {
	recs, err := ParseJSONL(strings.NewReader("\n\n"))
	if err != nil || len(recs) != 0 {
		t.Fatalf("got %v, %v; want no records and no error", recs, err)
	}
}

func TestParseJSONLBadLines(t *testing.T) {
	good := `{"type":"qa","question":"q","answer":"a"}` + "\n"
	tests := []struct {
		name string
		bad  string
		want string // substring of the reason
	}{
		{"invalid json", `{"type":"qa",`, "invalid JSON"},
		{"not an object", `["qa"]`, "not a JSON object"},
		{"missing type", `{"question":"q","answer":"a"}`, `missing "type"`},
		{"unknown type", `{"type":"faq","question":"q"}`, `unknown type "faq"`},
		{"unknown field", `{"type":"qa","question":"q","answer":"a","url":"https://x.test"}`, `unknown field "url"`},
		{"qa without answer", `{"type":"qa","question":"q"}`, "qa needs question and answer"},
		{"qa blank question", `{"type":"qa","question":"  ","answer":"a"}`, "qa needs question and answer"},
		{"page without url or title", `{"type":"page","body":"b"}`, "page needs url or title"},
		{"page without body", `{"type":"page","title":"t"}`, "page needs body"},
		{"product without name", `{"type":"product","price":"1 TL"}`, "product needs name"},
		{"article without slug", `{"type":"article","title":"t","body":"b"}`, "article needs slug, title and body"},
		{"bad lang", `{"type":"qa","question":"q","answer":"a","lang":"fr"}`, `lang "fr"`},
		{"javascript url", `{"type":"page","url":"javascript:alert(1)","body":"b"}`, "url must be an http or https URL"},
		{"relative url", `{"type":"page","url":"/a","body":"b"}`, "url must be an http or https URL"},
		{"ftp image", `{"type":"product","name":"n","image":"ftp://x.test/i.png"}`, "image must be an http or https URL"},
		{"slug with space", `{"type":"article","slug":"a b","title":"t","body":"b"}`, "slug"},
		{"title too long", `{"type":"page","title":"` + strings.Repeat("x", maxTitleLen+1) + `","body":"b"}`, "title is longer than"},
		{"number as title", `{"type":"page","title":5,"body":"b"}`, `field "title" must be text`},
		{"trailing data", `{"type":"qa","question":"q","answer":"a"} {}`, "unexpected data"},
		{"price object", `{"type":"product","name":"n","price":{"v":1}}`, "price must be text or a number"},
		// A NUL is refused with the field's name (nultext's rule), never stored or dropped.
		{"NUL in an answer", `{"type":"qa","question":"q","answer":"a\u0000b"}`, "answer contains a NUL character"},
		{"NUL in a title", `{"type":"page","title":"\u0000","body":"b"}`, "title contains a NUL character"},
		{"NUL in a price", `{"type":"product","name":"n","price":"1\u0000"}`, "price contains a NUL character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := good + "\n" + good + tt.bad + "\n" + good
			recs, err := ParseJSONL(strings.NewReader(file))
			if err == nil {
				t.Fatalf("no error; records %+v", recs)
			}
			if recs != nil {
				t.Errorf("records returned with an error: %+v", recs)
			}
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %T %v is not a *LineError", err, err)
			}
			if le.Line != 4 {
				t.Errorf("line = %d, want 4 (%v)", le.Line, err)
			}
			if !strings.HasPrefix(err.Error(), "line 4: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want prefix %q and %q in it", err, "line 4: ", tt.want)
			}
		})
	}
}

func TestParseJSONLLongLine(t *testing.T) {
	long := `{"type":"page","title":"t","body":"` + strings.Repeat("a", maxLineBytes) + `"}`
	_, err := ParseJSONL(strings.NewReader(`{"type":"qa","question":"q","answer":"a"}` + "\n" + long + "\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
		t.Fatalf("error = %v, want a line 2 error", err)
	}
}
