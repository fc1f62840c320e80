package intel

import (
	"strings"
	"testing"
)

func TestParsePrice(t *testing.T) {
	cases := []struct {
		in  string
		cur string
		v   float64
	}{
		{"4.290,00 TL", "TRY", 4290}, {"$129.00", "USD", 129}, {"119,90 €", "EUR", 119.9},
		{"1.500 TL", "TRY", 1500}, {"$1,234.56", "USD", 1234.56}, {"€ 9,90", "EUR", 9.9}, {"12 EUR", "EUR", 12},
	}
	for _, c := range cases {
		cur, v, ok := parsePrice(c.in)
		if !ok || cur != c.cur || v != c.v {
			t.Errorf("%q: %s %v %v", c.in, cur, v, ok)
		}
	}
	for _, bad := range []string{"", "free", "129"} {
		if _, _, ok := parsePrice(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestFindValues(t *testing.T) {
	cases := []struct {
		kind valueKind
		in   string
		want string
	}{
		{kindDuration, "Delivery takes 1–3 business days within Turkey.", "1–3 business days"},
		{kindDuration, "Türkiye'nin her yerine teslimat 1–3 iş günü sürer.", "1–3 iş günü"},
		{kindDuration, "Die Lieferung nach Deutschland dauert 5–7 Werktage.", "5–7 Werktage"},
		{kindDuration, "Every product comes with a 2-year warranty.", "2-year"},
		{kindDuration, "Tüm ürünlerimiz 2 yıl garantilidir.", "2 yıl"},
		{kindDuration, "3 ayakkabı", ""},
		{kindWeight, "Tek ayak ağırlığı 640 g (42 numara)", "640 g"},
		{kindWeight, "Weighs 1.1 kg.", "1.1 kg"},
		{kindWeight, "5 gün", ""},
		{kindCapacity, "A 35-litre pack", "35-litre"},
		{kindCapacity, "35-Liter-Rucksack", "35-Liter"},
		{kindTemp, "Comfort temperature 0 °C, limit -5 °C.", "0 °C|-5 °C"},
		{kindSizes, "EU sizes 38–46", "38–46"},
		{kindSizes, "Adjustable from 105–135 cm", ""},
		{kindMoney, "Shipping costs 89,90 TL (free from 1.500 TL).", "89,90 TL|1.500 TL"},
		{kindMoney, "and $24.00; free on orders of $250 or more", "$24.00|$250"},
		{kindPercent, "gives you a 3% discount", "3%"},
		{kindPercent, "%3 indirim", "%3"},
		{kindEmail, "Email: support@yolcu-outdoor.example", "support@yolcu-outdoor.example"},
		{kindPhone, "Phone: +90 216 555 01 48 (weekdays 09:00–18:00 Istanbul time)", "+90 216 555 01 48"},
		{kindPhone, "0216 555 01 48 numaralı müşteri hizmetleri", "0216 555 01 48"},
		{kindPhone, "your order number (YO-2026-12345)", ""},
		{kindAddress, "Our Istanbul store is in Kadıköy, at Moda Caddesi No: 48.", "Moda Caddesi No: 48"},
		{kindAddress, "Unser Lager ist in der Hauptstraße 5 in Berlin.", "Hauptstraße 5"},
		{kindAddress, "Ankara mağazamız Çankaya'da, Tunalı Hilmi Caddesi No: 72 adresindedir.", "Tunalı Hilmi Caddesi No: 72"},
	}
	for _, c := range cases {
		if got := strings.Join(findValues(c.kind, c.in), "|"); got != c.want {
			t.Errorf("%s in %q: %q, want %q", c.kind, c.in, got, c.want)
		}
	}
}

func TestReadField(t *testing.T) {
	cases := []struct {
		field   string
		kind    valueKind
		product string
		groups  int
	}{
		{"price", kindMoney, "price", 1},
		{"Fiyat", kindMoney, "price", 1},
		{"delivery time", kindDuration, "", 2},
		{"teslimat süresi", kindDuration, "", 2},
		{"Lieferzeit", kindDuration, "", 2},
		{"Versandkosten", kindMoney, "", 2},
		{"warranty", kindDuration, "", 1},
		{"weight", kindWeight, "", 1},
		{"product name", kindNone, "name", 2},
		{"battery life", kindNone, "", 2},
	}
	for _, c := range cases {
		f := readField(c.field)
		if f.kind != c.kind || f.product != c.product || len(f.groups) != c.groups {
			t.Errorf("%q: kind %q product %q groups %d", c.field, f.kind, f.product, len(f.groups))
		}
	}
}

func TestKBUsedAndProductsUsed(t *testing.T) {
	a := Answer{
		Sources: []Source{{Title: "A", Passage: 1}, {Title: "B", Passage: 2}, {Title: "A", Passage: 1}},
		Points:  []Point{{Text: "x", Source: Source{Title: "Boot", Type: "product", Passage: 3}}},
		Rows:    []Row{{Name: "Tent", Passage: 4}, {Name: "Boot"}},
		Fields: []Field{{Name: "f", Value: "", Source: Source{Passage: 5}},
			{Name: "g", Value: "v", Source: Source{Title: "Bag", Type: "product"}}},
	}
	if a.KBUsed() != 4 || a.ProductsUsed() != 3 {
		t.Errorf("KBUsed %d ProductsUsed %d", a.KBUsed(), a.ProductsUsed())
	}
}
