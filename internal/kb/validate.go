package kb

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/nultext"
)

// Validate trims the record's fields in place and checks what its type requires, as
// ParseJSONL checks a line, so a record made by a form rather than read from a file (the
// dashboard's Q&A editor) meets the same rules. Errors are phrased for the operator and carry
// no line number; ParseJSONL adds it.
func Validate(r *Record) error {
	for _, f := range r.textFields() {
		// A NUL is refused, never dropped (nultext): the file is the operator's to fix.
		if nultext.In(*f.v) {
			return because("err.kb.field_nul", "%s contains a NUL character (U+0000)", f.name)
		}
	}
	for _, f := range []*string{&r.Lang, &r.URL, &r.Title, &r.Body, &r.Question, &r.Answer,
		&r.Name, &r.Price, &r.Category, &r.Image, &r.Description, &r.Slug, &r.CategorySlug,
		&r.CategoryName, &r.SKU} {
		*f = strings.TrimSpace(*f)
	}
	r.Lang = strings.ToLower(r.Lang)
	switch r.Lang {
	case "", "tr", "en", "de":
	default:
		return because("err.kb.lang_invalid", "lang %q is not one of tr, en, de", r.Lang)
	}
	switch r.Type {
	case TypePage:
		return validatePage(r)
	case TypeQA:
		return validateQA(r)
	case TypeProduct:
		return validateProduct(r)
	case TypeArticle:
		return validateArticle(r)
	}
	return because("err.kb.type_invalid", "unknown type %q", r.Type)
}

// textField is one text field of a record, named as the import format names it.
type textField struct {
	name string
	v    *string
}

// textFields are the record's text fields, in the import format's order.
func (r *Record) textFields() []textField {
	return []textField{{"type", &r.Type}, {"lang", &r.Lang}, {"url", &r.URL}, {"title", &r.Title},
		{"body", &r.Body}, {"question", &r.Question}, {"answer", &r.Answer}, {"name", &r.Name},
		{"price", &r.Price}, {"category", &r.Category}, {"image", &r.Image},
		{"description", &r.Description}, {"slug", &r.Slug}, {"category_slug", &r.CategorySlug},
		{"category_name", &r.CategoryName}, {"lang_hint", &r.LangHint}, {"sku", &r.SKU}}
}

func validatePage(r *Record) error {
	if r.URL == "" && r.Title == "" {
		return because("err.kb.page_needs_url_or_title", "page needs url or title")
	}
	if r.Body == "" {
		return because("err.kb.page_needs_body", "page needs body")
	}
	return firstErr(
		checkURL("url", r.URL),
		checkLen("title", r.Title, maxTitleLen),
		checkBytes("body", r.Body, maxBodyLen),
	)
}

func validateQA(r *Record) error {
	if r.Question == "" || r.Answer == "" {
		return because("err.kb.qa_needs_question_and_answer", "qa needs question and answer")
	}
	return firstErr(
		checkLen("question", r.Question, MaxQuestionLen),
		checkLen("answer", r.Answer, MaxAnswerLen),
	)
}

func validateProduct(r *Record) error {
	if r.Name == "" {
		return because("err.kb.product_needs_name", "product needs name")
	}
	return firstErr(
		checkLen("name", r.Name, maxNameLen),
		checkURL("url", r.URL),
		checkLen("price", r.Price, maxPriceLen),
		checkLen("category", r.Category, maxCategoryLen),
		checkURL("image", r.Image),
		checkBytes("description", r.Description, maxBodyLen),
		checkLen("sku", r.SKU, MaxSKULen),
	)
}

func validateArticle(r *Record) error {
	if r.Slug == "" || r.Title == "" || r.Body == "" {
		return because("err.kb.article_needs_fields", "article needs slug, title and body")
	}
	return firstErr(
		checkSlug("slug", r.Slug),
		checkLen("title", r.Title, maxTitleLen),
		checkBytes("body", r.Body, maxBodyLen),
		checkSlug("category_slug", r.CategorySlug),
		checkLen("category_name", r.CategoryName, maxCategoryLen),
	)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkURL accepts an empty value or an absolute http(s) URL with a host: anything else
// (javascript:, relative paths, file:) would become a broken or unsafe link in a reply.
func checkURL(field, v string) error {
	if v == "" {
		return nil
	}
	if len(v) > maxURLLen {
		return because("err.kb.field_too_long", "%s is longer than %d characters", field, maxURLLen)
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
		return because("err.kb.field_url", "%s must be an http or https URL", field)
	}
	return nil
}

func checkLen(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max {
		return because("err.kb.field_too_long", "%s is longer than %d characters", field, max)
	}
	return nil
}

func checkBytes(field, v string, max int) error {
	if len(v) > max {
		return because("err.kb.field_too_large", "%s is larger than %d KiB", field, max>>10)
	}
	return nil
}

// checkSlug accepts an empty value or a URL path segment: slugs end up in help-centre links.
func checkSlug(field, v string) error {
	if err := checkLen(field, v, maxSlugLen); err != nil {
		return err
	}
	for _, c := range v {
		if unicode.IsSpace(c) || unicode.IsControl(c) || strings.ContainsRune(`/\?#%"'<>`, c) {
			return because("err.kb.slug_chars", "%s %q may not contain spaces or any of / \\ ? # %% \" ' < >", field, v)
		}
	}
	return nil
}
