package dashboard

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"svc/internal/store"
)

var pageDeveloper = page{name: "developer", title: "developer.title", nav: "developer"}

// developerStore is what the developer page reads.
type developerStore interface {
	ActiveKey(ctx context.Context, accountID int64) (store.APIKey, error)
}

func (s *Server) developerRoutes(rt router) {
	rt.handle("GET /dashboard/developer", ownerOnly, s.developerPage)
	rt.handle("POST /dashboard/developer/rotate", ownerOnly, s.rotateKey)
}

type developerData struct {
	Key     store.APIKey
	HasKey  bool
	NewKey  string // shown once, right after a rotation
	BaseURL string
	// KeyForExamples is the new key when there is one, else a placeholder with the prefix.
	KeyForExamples string
}

func (s *Server) developerData(r *http.Request, c *reqCtx) (developerData, error) {
	d := developerData{BaseURL: s.baseURL(r)}
	k, err := s.st.ActiveKey(r.Context(), c.Account.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return d, err
	default:
		d.Key, d.HasKey = k, true
		d.KeyForExamples = k.Prefix + "…"
	}
	return d, nil
}

func (s *Server) developerPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.developerData(r, c)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageDeveloper, 0, d)
	return nil
}

// rotateKey issues a new key at once (the page asks for confirmation before the form is
// sent); the old key is refused from the next request on. The new key is in this response
// only: it is never stored in plain text, nor put in a cookie or a URL.
func (s *Server) rotateKey(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	key, err := s.d.Accounts.RotateKey(r.Context(), c.Account.ID)
	if err != nil {
		return err
	}
	d, err := s.developerData(r, c)
	if err != nil {
		return err
	}
	d.NewKey, d.KeyForExamples = key, key
	s.render(w, r, c, pageDeveloper, 0, d)
	return nil
}

// baseURL is the service's public URL, or the request's own origin when none is set.
func (s *Server) baseURL(r *http.Request) string {
	if s.d.PublicURL != "" {
		return strings.TrimRight(s.d.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
