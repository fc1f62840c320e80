package sqlite

import (
	"context"

	"svc/internal/store"
)

func (s *Store) CatalogProducts(ctx context.Context, accountID int64, q store.CatalogQuery) ([]store.CatalogProduct, int, error) {
	return nil, 0, errTODO
}

func (s *Store) CatalogFAQ(ctx context.Context, accountID int64, q store.CatalogQuery) ([]store.CatalogFAQ, int, error) {
	return nil, 0, errTODO
}

func (s *Store) CatalogCategories(ctx context.Context, accountID, siteID int64, lang string) ([]store.CatalogCategory, error) {
	return nil, errTODO
}
