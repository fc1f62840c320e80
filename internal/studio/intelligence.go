package studio

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/intel"
	"svc/internal/store"
	"svc/internal/textindex"
)

// Limits of the Intelligence API (ours; SERVICE.md leaves them open).
const (
	MaxQuestionChars = 2000
	MaxItems         = 10
	MaxFields        = 20
	DefaultDataLimit = 20
	MaxDataLimit     = 100
)

// Data types of the data op.
const (
	DataProducts   = "products"
	DataFAQ        = "faq"
	DataCategories = "categories"
)

// IntelInput is an Intelligence API request as sent.
type IntelInput struct {
	Op, Format, Depth, Lang string
	SiteID                  *int64
	Question, Topic, Query  string
	Items, Fields           []string
	Type, Category          string
	Page, Limit             *int64
}

// IntelResult is data of an Intelligence API response.
type IntelResult struct {
	Op, Format string
	Result     any
	Meta       Meta
}

// Ops are the Intelligence API's ops, in SERVICE.md's order.
var Ops = []string{intel.OpAnswer, intel.OpSummarize, intel.OpCompare, intel.OpExtract, intel.OpData}

// Intelligence runs one op for the account.
func (s *Service) Intelligence(ctx context.Context, a store.Account, in IntelInput) (IntelResult, error) {
	if !slices.Contains(Ops, in.Op) {
		return IntelResult{}, errs.Coded(errs.UnknownAction, "err.studio.op_unknown", "Unknown op %q; use answer, summarize, compare, extract or data.",
			clip(in.Op, 40))
	}
	req, siteID, err := s.intelRequest(ctx, a, in)
	if err != nil {
		return IntelResult{}, err
	}
	var dq dataQuery
	if req.Op == intel.OpData {
		if dq, err = newDataQuery(in, req, siteID); err != nil {
			return IntelResult{}, err
		}
	}
	if err := s.allow(a, "intelligence", a.IntelligenceRatePerMin); err != nil {
		return IntelResult{}, err
	}
	if req.Op == intel.OpData {
		return s.data(ctx, a, req, dq)
	}
	if a.BalanceMicro-a.ReservedMicro <= 0 {
		return IntelResult{}, errNoBalance
	}
	query, named := intelQuery(req)
	src, err := s.gather(ctx, a, siteID, query, req.Lang, named)
	if err != nil {
		return IntelResult{}, err
	}
	var ans intel.Answer
	done := false
	g := generation{event: EventIntelligence}
	reservation := int64(0)
	defer func() { s.release(ctx, a, reservation) }()
	if s.model != nil {
		resp, rid, ok, err := s.callModel(ctx, a, intel.Prompt(req, src))
		if err != nil {
			return IntelResult{}, err
		}
		reservation = rid
		if ok {
			if parsed, perr := intel.Parse(req, src, resp.Text); perr == nil {
				intel.Guard(&parsed, req, src)
				ans, done = parsed, true
				g.in, g.out = resp.InputTokens, resp.OutputTokens
				g.calls = []store.CallUsage{{Call: "intelligence", Model: resp.Model, InputTokens: resp.InputTokens,
					OutputTokens: resp.OutputTokens}}
			} else {
				s.log.Warn("model intelligence reply was not JSON; the built-in composer answers instead", "account", a.ID, "err", perr)
			}
		}
		g.degraded = !done
	}
	if !done {
		ans = intel.Compose(req, src)
	}
	result := intel.Shape(req, ans)
	if !g.degraded && s.model == nil {
		g.in, g.out = s.builtinTokens(query, src), s.outputTokens(result)
	}
	tokens, err := s.settle(ctx, a, g, reservation)
	if err != nil {
		return IntelResult{}, err
	}
	reservation = 0
	return IntelResult{Op: req.Op, Format: req.Format, Result: result, Meta: Meta{Lang: req.Lang, Grounded: ans.Grounded(),
		KBUsed: ans.KBUsed(), Products: ans.ProductsUsed(), Tokens: tokens, Depth: req.Depth}}, nil
}

// intelQuery is the text the sources are retrieved for, and the products an op names.
func intelQuery(req intel.Request) (string, []string) {
	switch req.Op {
	case intel.OpAnswer:
		return req.Question, nil
	case intel.OpSummarize:
		return req.Topic, nil
	case intel.OpCompare:
		if len(req.Items) > 0 {
			return strings.Join(req.Items, " "), req.Items
		}
		return req.Query, nil
	case intel.OpExtract:
		return strings.TrimSpace(req.Topic + " " + strings.Join(req.Fields, " ")), nil
	}
	return "", nil
}

// dataQuery is a validated data op.
type dataQuery struct {
	typ         string
	siteID      int64
	lang        string // the rows' language: the request's, else the account's
	page, limit int
	q           store.CatalogQuery
}

func newDataQuery(in IntelInput, req intel.Request, siteID int64) (dataQuery, error) {
	d := dataQuery{typ: strings.TrimSpace(in.Type), siteID: siteID, page: 1, limit: DefaultDataLimit}
	switch d.typ {
	case DataProducts, DataFAQ, DataCategories:
	case "":
		return d, errs.Coded(errs.BadRequest, "err.studio.type_required", "The type field is required: products, faq or categories.")
	default:
		return d, errs.Coded(errs.BadRequest, "err.studio.type_invalid", "type must be products, faq or categories.")
	}
	if in.Page != nil {
		if *in.Page < 1 || *in.Page > 1_000_000 {
			return d, errs.Coded(errs.BadRequest, "err.studio.page_invalid", "page must be 1 or more.")
		}
		d.page = int(*in.Page)
	}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > MaxDataLimit {
			return d, errs.Coded(errs.BadRequest, "err.studio.limit_range", "limit must be 1 to %d.", MaxDataLimit)
		}
		d.limit = int(*in.Limit)
	}
	// Without lang, the account's language (req.Lang's default), as every other op: a table
	// of one language's products, not all three mixed; meta.lang says which.
	d.lang = req.Lang
	d.q = store.CatalogQuery{SiteID: siteID, Lang: d.lang, Category: strings.TrimSpace(in.Category),
		Offset: (d.page - 1) * d.limit, Limit: d.limit}
	for _, t := range textindex.QueryTerms(in.Query, req.Lang) {
		d.q.Terms = append(d.q.Terms, store.SearchTerm{Text: t.Text, Prefix: t.Prefix})
	}
	return d, nil
}

// data serves the data op: catalog rows, no model, free (recorded as a zero-cost event).
func (s *Service) data(ctx context.Context, a store.Account, req intel.Request, d dataQuery) (IntelResult, error) {
	var result any
	var total int
	switch d.typ {
	case DataProducts:
		rows, n, err := s.st.CatalogProducts(ctx, a.ID, d.q)
		if err != nil {
			return IntelResult{}, err
		}
		result, total = intel.DataProducts(req.Format, rows, req.Depth), n
	case DataFAQ:
		rows, n, err := s.st.CatalogFAQ(ctx, a.ID, d.q)
		if err != nil {
			return IntelResult{}, err
		}
		result, total = intel.DataFAQ(req.Format, rows, req.Depth), n
	default:
		rows, err := s.st.CatalogCategories(ctx, a.ID, d.siteID, d.lang)
		if err != nil {
			return IntelResult{}, err
		}
		total = len(rows)
		lo := min(d.q.Offset, len(rows))
		hi := min(lo+d.limit, len(rows))
		result = intel.DataCategories(req.Format, rows[lo:hi], req.Depth)
	}
	if _, err := s.settle(ctx, a, generation{event: EventData}, 0); err != nil {
		return IntelResult{}, err
	}
	return IntelResult{Op: req.Op, Format: req.Format, Result: result, Meta: Meta{Lang: req.Lang, Grounded: total > 0,
		Depth: req.Depth, Total: &total}}, nil
}

// intelRequest validates in.
func (s *Service) intelRequest(ctx context.Context, a store.Account, in IntelInput) (intel.Request, int64, error) {
	req := intel.Request{Op: in.Op, Business: a.Name}
	switch f := strings.TrimSpace(in.Format); f {
	case "":
		req.Format = intel.FormatJSON
		if in.Op != intel.OpData {
			req.Format = intel.FormatText
		}
	case intel.FormatText, intel.FormatMarkdown, intel.FormatJSON, intel.FormatTable, intel.FormatList:
		req.Format = f
	default:
		return req, 0, errs.Coded(errs.BadRequest, "err.studio.intel_format_invalid", "format must be text, markdown, json, table or list.")
	}
	switch d := strings.TrimSpace(in.Depth); d {
	case "", "lean":
		req.Depth = "lean"
	case "full":
		req.Depth = d
	default:
		return req, 0, errs.Coded(errs.BadRequest, "err.studio.intel_depth_invalid", "depth must be lean or full.")
	}
	lang, err := requestLang(in.Lang, a.Lang)
	if err != nil {
		return req, 0, err
	}
	req.Lang = lang
	text := func(name, v string, required bool) (string, error) {
		v = strings.TrimSpace(v)
		switch n := utf8.RuneCountInString(v); {
		case !utf8.ValidString(v):
			return "", errs.Newf(errs.BadRequest, "%s is not valid UTF-8 text.", name).WithKey("err.studio." + name + "_utf8")
		case n == 0 && required:
			return "", errs.Newf(errs.BadRequest, "The %s field is required for the %s op.", name, in.Op).WithKey("err.studio."+name+"_required", in.Op)
		case n > MaxQuestionChars:
			return "", errs.Newf(errs.BadRequest, "%s is %d characters long; at most %d are allowed.", name, n, MaxQuestionChars).
				WithKey("err.studio."+name+"_too_long", n, MaxQuestionChars)
		}
		return v, nil
	}
	switch in.Op {
	case intel.OpAnswer:
		req.Question, err = text("question", in.Question, true)
	case intel.OpSummarize:
		req.Topic, err = text("topic", in.Topic, true)
	case intel.OpCompare:
		if req.Query, err = text("query", in.Query, false); err == nil {
			switch {
			case len(in.Items) > MaxItems:
				err = errs.Coded(errs.BadRequest, "err.studio.items_too_many", "compare takes at most %d items.", MaxItems)
			case len(in.Items) == 1:
				err = errs.Coded(errs.BadRequest, "err.studio.items_too_few", "compare needs at least two items, or a query.")
			case len(in.Items) == 0 && req.Query == "":
				err = errs.Coded(errs.BadRequest, "err.studio.items_required", "compare needs items[] (two or more names) or a query.")
			}
			for _, it := range in.Items {
				if utf8.RuneCountInString(it) > MaxFieldChars {
					err = errs.Coded(errs.BadRequest, "err.studio.item_too_long", "an item is longer than %d characters.", MaxFieldChars)
				}
			}
			req.Items = in.Items
		}
	case intel.OpExtract:
		if req.Topic, err = text("topic", in.Topic, false); err == nil {
			switch {
			case len(in.Fields) == 0:
				err = errs.Coded(errs.BadRequest, "err.studio.fields_required", "The fields field is required for the extract op: the names of what to pull from the KB, comma-separated.")
			case len(in.Fields) > MaxFields:
				err = errs.Coded(errs.BadRequest, "err.studio.fields_too_many", "extract takes at most %d fields.", MaxFields)
			}
			for _, f := range in.Fields {
				if utf8.RuneCountInString(f) > MaxFieldChars {
					err = errs.Coded(errs.BadRequest, "err.studio.field_too_long", "a field name is longer than %d characters.", MaxFieldChars)
				}
			}
			req.Fields = in.Fields
		}
	}
	if err != nil {
		return req, 0, err
	}
	var site int64
	if in.SiteID != nil {
		if site, err = s.siteScope(ctx, a, *in.SiteID); err != nil {
			return req, 0, err
		}
	}
	return req, site, nil
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
