package sqlstore

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
)

// The catalog queries page through an account's products and curated Q&A entries for the
// data op. Their SQL is portable apart from the term filter (Dialect.TermCondition), which
// reads each store's index the way its SearchChunks does.

const (
	// catalogLimit is the page size when a query names none.
	catalogLimit = 50
	// descriptionLen is the most characters of a product's description the catalog returns.
	descriptionLen = 500
)

// catalogFilter is the WHERE clause (after the account and type conditions) and its
// arguments that a CatalogQuery asks for. none reports a filter that nothing can pass (a
// category no product has), so the caller need not ask the database.
type catalogFilter struct {
	where string
	args  []any
	none  bool
}

func (f *catalogFilter) add(cond string, args ...any) {
	f.where += " AND " + cond
	f.args = append(f.args, args...)
}

// catalogWhere builds the site, language and term conditions of q for documents aliased d.
// Each term is its own condition, so the terms may be held by different chunks of a
// document; each reads the index as the dialect's TermCondition says.
func catalogWhere(d Dialect, accountID int64, q store.CatalogQuery) catalogFilter {
	var f catalogFilter
	if q.SiteID != 0 {
		f.add("d.site_id = ?", q.SiteID)
	}
	if q.Lang != "" {
		f.add("d.lang = ?", q.Lang)
	}
	for _, t := range q.Terms {
		if cond, args, ok := d.TermCondition(accountID, t); ok {
			f.add(cond, args...)
		}
	}
	return f
}

// pageBounds applies the defaults of a page: catalogLimit when no limit is given, no
// negative offset.
func pageBounds(q store.CatalogQuery) (limit, offset int) {
	limit, offset = q.Limit, max(q.Offset, 0)
	if limit <= 0 {
		limit = catalogLimit
	}
	return limit, offset
}

// CatalogProducts returns a page of the account's products, by name (ASCII case ignored,
// the part of LOWER every engine agrees on) then id, and how many match in all. The category
// is compared with textindex.Fold, in Go, because SQL's lower() does not know Turkish İ and
// ı: the account's distinct categories are read and those that fold to the requested one
// become an IN list.
func (s *Store) CatalogProducts(ctx context.Context, accountID int64, q store.CatalogQuery) ([]store.CatalogProduct, int, error) {
	limit, offset := pageBounds(q)
	f := catalogWhere(s.d, accountID, q)
	if cat := strings.TrimSpace(q.Category); cat != "" {
		names, err := s.matchingCategories(ctx, accountID, cat)
		if err != nil {
			return nil, 0, err
		}
		if len(names) == 0 {
			return []store.CatalogProduct{}, 0, nil
		}
		args := make([]any, len(names))
		for i, n := range names {
			args[i] = n
		}
		f.add("p.category IN ("+Placeholders(len(names))+")", args...)
	}
	from := ` FROM documents d JOIN products p ON p.document_id = d.id WHERE d.account_id = ? AND d.type = ?` + f.where
	base := append([]any{accountID, store.DocProduct}, f.args...)
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*)`+from, base...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("catalog products: count: %w", err)
	}
	out := []store.CatalogProduct{}
	if total == 0 || offset >= total {
		return out, total, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.id, p.name, p.url, p.price, p.category, p.image, d.body, d.lang`+from+`
		ORDER BY LOWER(p.name), p.name, d.id LIMIT ? OFFSET ?`, append(base, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("catalog products: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p store.CatalogProduct
		var body string
		if err := rows.Scan(&p.DocID, &p.Name, &p.URL, &p.Price, &p.Category, &p.Image, &body, &p.Lang); err != nil {
			return nil, 0, fmt.Errorf("catalog products: %w", err)
		}
		p.Description = ClipWords(body, descriptionLen)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("catalog products: %w", err)
	}
	return out, total, nil
}

// matchingCategories returns the account's product categories, as stored, that are the same
// as cat once folded (case, Turkish dotted and dotless i, diacritics).
func (s *Store) matchingCategories(ctx context.Context, accountID int64, cat string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT category FROM products WHERE account_id = ? AND category <> ''`,
		accountID)
	if err != nil {
		return nil, fmt.Errorf("catalog categories: %w", err)
	}
	all, err := ScanStrings(rows)
	if err != nil {
		return nil, fmt.Errorf("catalog categories: %w", err)
	}
	want := categoryKey(cat)
	var out []string
	for _, c := range all {
		if categoryKey(c) == want {
			out = append(out, c)
		}
	}
	return out, nil
}

// categoryKey is what two category names must share to be the same category.
func categoryKey(name string) string {
	return textindex.Fold(strings.Join(strings.Fields(name), " "))
}

// CatalogFAQ returns a page of the account's curated Q&A entries, oldest first, and how many
// match in all. The question is the document's title and the answer its body, as kb.Build
// stores them.
func (s *Store) CatalogFAQ(ctx context.Context, accountID int64, q store.CatalogQuery) ([]store.CatalogFAQ, int, error) {
	limit, offset := pageBounds(q)
	f := catalogWhere(s.d, accountID, q)
	from := ` FROM documents d WHERE d.account_id = ? AND d.type = ?` + f.where
	base := append([]any{accountID, store.DocQA}, f.args...)
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*)`+from, base...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("catalog faq: count: %w", err)
	}
	out := []store.CatalogFAQ{}
	if total == 0 || offset >= total {
		return out, total, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.id, d.title, d.body, d.lang`+from+` ORDER BY d.id LIMIT ? OFFSET ?`,
		append(base, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("catalog faq: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e store.CatalogFAQ
		if err := rows.Scan(&e.DocID, &e.Question, &e.Answer, &e.Lang); err != nil {
			return nil, 0, fmt.Errorf("catalog faq: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("catalog faq: %w", err)
	}
	return out, total, nil
}

// Kinds of CatalogCategory.
const (
	categoryProduct = "product"
	categoryArticle = "article"
)

// CatalogCategories lists the account's product categories and article categories with how
// many documents each has, of one site and in one language when given, by kind ("article"
// before "product") then name. Product categories that differ only in case or accents (as
// CatalogProducts compares them) are one category, named by their most used spelling.
// Documents without a category are not listed.
func (s *Store) CatalogCategories(ctx context.Context, accountID, siteID int64, lang string) ([]store.CatalogCategory, error) {
	f := catalogWhere(s.d, accountID, store.CatalogQuery{SiteID: siteID, Lang: lang})
	rows, err := s.r.QueryContext(ctx, `SELECT p.category, COUNT(*) FROM documents d JOIN products p ON p.document_id = d.id
		WHERE d.account_id = ? AND d.type = ? AND p.category <> ''`+f.where+` GROUP BY p.category`,
		append([]any{accountID, store.DocProduct}, f.args...)...)
	if err != nil {
		return nil, fmt.Errorf("catalog categories: %w", err)
	}
	type spelling struct {
		name  string
		count int
	}
	products := map[string][]spelling{}
	var keys []string
	for rows.Next() {
		var sp spelling
		if err := rows.Scan(&sp.name, &sp.count); err != nil {
			rows.Close()
			return nil, fmt.Errorf("catalog categories: %w", err)
		}
		k := categoryKey(sp.name)
		if _, seen := products[k]; !seen {
			keys = append(keys, k)
		}
		products[k] = append(products[k], sp)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("catalog categories: %w", err)
	}
	out := []store.CatalogCategory{}
	for _, k := range keys {
		sps := products[k]
		best, n := sps[0], 0
		for _, sp := range sps {
			n += sp.count
			if sp.count > best.count || sp.count == best.count && sp.name < best.name {
				best = sp
			}
		}
		out = append(out, store.CatalogCategory{Kind: categoryProduct, Name: best.name, Count: n})
	}

	rows, err = s.r.QueryContext(ctx, `SELECT a.category_slug, a.category_name, COUNT(*) FROM documents d
		JOIN articles a ON a.document_id = d.id
		WHERE d.account_id = ? AND d.type = ? AND (a.category_slug <> '' OR a.category_name <> '')`+f.where+`
		GROUP BY a.category_slug, a.category_name`, append([]any{accountID, store.DocArticle}, f.args...)...)
	if err != nil {
		return nil, fmt.Errorf("catalog categories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		c := store.CatalogCategory{Kind: categoryArticle}
		if err := rows.Scan(&c.Slug, &c.Name, &c.Count); err != nil {
			return nil, fmt.Errorf("catalog categories: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catalog categories: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if ka, kb := categoryKey(a.Name), categoryKey(b.Name); ka != kb {
			return ka < kb
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Slug < b.Slug
	})
	return out, nil
}
