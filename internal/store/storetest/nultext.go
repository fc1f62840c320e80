package storetest

import (
	"errors"
	"testing"

	"svc/internal/errs"
	"svc/internal/nultext"
	"svc/internal/store"
)

// testTextWithNUL: a NUL in any text a store is given, written or searched for, is the same
// client error on every store (nultext.Stored), and nothing of the write is kept. PostgreSQL
// would refuse the text with an error of its own and SQLite would keep it.
func testTextWithNUL(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Nul", 0)
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, nultext.ErrNUL) || errs.KindOf(err) != errs.BadRequest {
			t.Errorf("%s: got %v (kind %v), want the client error of nultext", what, err, errs.KindOf(err))
		}
	}

	u := store.User{AccountID: a.ID, Email: "pg\x00@x.example", Role: store.UserOwner}
	refused("CreateUser", s.CreateUser(ctx(), &u))
	_, err := s.UsersByEmail(ctx(), "pg\x00@x.example")
	refused("UsersByEmail", err)
	if us, err := s.ListUsers(ctx(), a.ID); err != nil || len(us) != 0 {
		t.Errorf("users after a refused CreateUser: %+v %v", us, err)
	}

	site := store.Site{AccountID: a.ID, URL: "https://shop.test/", Host: "shop.test", Name: "Sh\x00op"}
	refused("CreateSite", s.CreateSite(ctx(), &site))
	if sites, err := s.ListSites(ctx(), a.ID); err != nil || len(sites) != 0 {
		t.Errorf("sites after a refused CreateSite: %+v %v", sites, err)
	}

	good, bad := page("https://shop.test/a", "h1", "alpha"), page("https://shop.test/b", "h2", "beta")
	bad.Title = "be\x00ta"
	_, err = s.ImportDocuments(ctx(), a.ID, []store.Document{good, bad})
	refused("ImportDocuments", err)
	_, n, err := s.ListDocuments(ctx(), a.ID, store.DocQuery{Limit: 10})
	if err != nil || n != 0 {
		t.Errorf("documents after a refused import (one transaction): %d %v", n, err)
	}
	_, _, err = s.ListDocuments(ctx(), a.ID, store.DocQuery{Query: "a\x00b", Limit: 10})
	refused("ListDocuments with a query", err)

	// The store still works after each refusal.
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{good}); err != nil {
		t.Fatalf("import after the refusals: %v", err)
	}
}
