package api

import (
	"net/http"
	"slices"
	"strings"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/studio"
)

// The marketing generator and the Intelligence API: secret key only, like the Chat API.

type metaView struct {
	Lang     string `json:"lang"`
	Grounded bool   `json:"grounded"`
	KBUsed   int    `json:"kb_used"`
	Products int    `json:"products"`
	Tokens   int    `json:"tokens"`
	Depth    string `json:"depth"`
	Total    *int   `json:"total,omitempty"`
}

func toMetaView(m studio.Meta) metaView {
	return metaView{Lang: m.Lang, Grounded: m.Grounded, KBUsed: m.KBUsed, Products: m.Products, Tokens: m.Tokens,
		Depth: m.Depth, Total: m.Total}
}

// optInt reads an optional integer parameter: nil when absent or empty.
func (p params) optInt(name string) (*int64, error) {
	if strings.TrimSpace(p[name]) == "" {
		return nil, nil
	}
	v, err := p.int64Param(name, 0)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (s *Server) marketingGenerate(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	in := studio.MarketingInput{Brief: p["brief"], Product: p["product"], Audience: p["audience"], Goal: p["goal"],
		Tone: p["tone"], Format: p["format"], Lang: p["lang"], Depth: p["depth"]}
	v, err := p.optInt("variants")
	if err != nil {
		return err
	}
	if v != nil {
		n := int(*v)
		if int64(n) != *v {
			return errs.New(errs.BadRequest, "variants must be 1 to 5.")
		}
		in.Variants = &n
	}
	if in.SiteID, err = p.optInt("site_id"); err != nil {
		return err
	}
	res, err := s.studio.Marketing(r.Context(), c.Account, in)
	if err != nil {
		return err
	}
	writeData(w, map[string]any{"content": res.Content, "meta": toMetaView(res.Meta)})
	return nil
}

// intelligence serves POST /api/v1/intelligence/<op>.
func (s *Server) intelligence(w http.ResponseWriter, r *http.Request) {
	op := r.PathValue("op")
	if err := s.intelligenceOp(w, r, op); err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) intelligenceOp(w http.ResponseWriter, r *http.Request, op string) error {
	if !slices.Contains(studio.Ops, op) {
		return errs.Newf(errs.UnknownAction, "Unknown op %q; use answer, summarize, compare, extract or data.", truncate(op, 40))
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return errs.New(errs.MethodNotAllowed, "Use POST for Intelligence API ops.")
	}
	c, err := s.authenticate(r)
	if err != nil {
		return err
	}
	p, err := readParams(r)
	if err != nil {
		return err
	}
	in := studio.IntelInput{Op: op, Format: p["format"], Depth: p["depth"], Lang: p["lang"], Question: p["question"],
		Topic: p["topic"], Query: p["query"], Items: p.list("items"), Fields: p.list("fields"), Type: p["type"],
		Category: p["category"]}
	if in.SiteID, err = p.optInt("site_id"); err != nil {
		return err
	}
	if in.Page, err = p.optInt("page"); err != nil {
		return err
	}
	if in.Limit, err = p.optInt("limit"); err != nil {
		return err
	}
	res, err := s.studio.Intelligence(r.Context(), c.Account, in)
	if err != nil {
		return err
	}
	writeData(w, map[string]any{"op": res.Op, "format": res.Format, "result": res.Result, "meta": toMetaView(res.Meta)})
	return nil
}
