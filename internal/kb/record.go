package kb

// Record types of the import format.
const (
	TypePage    = "page"
	TypeQA      = "qa"
	TypeProduct = "product"
	TypeArticle = "article"
)

// Record is one validated line of an import file. It is flat rather than one struct per type
// because the builder needs the same few fields (title, body, lang) from every kind; the
// fields a type does not use stay empty.
type Record struct {
	Line int    // 1-based line number in the file, for error messages
	Type string // TypePage, TypeQA, TypeProduct or TypeArticle
	Lang string // "tr", "en", "de", or "" when it must be detected
	// LangHint is a declared language (a crawled page's <html lang>): used unless the text
	// clearly is in another of the three languages, because real sites mislabel pages.
	LangHint string

	URL   string // page, product; article when crawled
	Title string // page, article
	Body  string // page, article: text or HTML

	Question string // qa
	Answer   string // qa

	Name        string // product
	Price       string // product, display text such as "119,90 €"
	Category    string // product
	Image       string // product
	Description string // product: text or HTML
	// SKU is a product's stock-keeping unit, its identity in a shop's catalogue export
	// (internal/ingest's products spreadsheets); the JSON Lines format has no such field.
	SKU string

	Slug         string // article
	CategorySlug string // article
	CategoryName string // article
}
