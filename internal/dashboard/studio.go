package dashboard

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/intel"
	"svc/internal/marketing"
	"svc/internal/store"
	"svc/internal/studio"
)

var pageStudio = page{name: "studio", title: "studio.title", nav: "studio"}

// studioStore is what the studio page reads: the account's sites, to scope a generation.
type studioStore interface {
	ListSites(ctx context.Context, accountID int64) ([]store.Site, error)
}

func (s *Server) studioRoutes(rt router) {
	rt.handle("GET /dashboard/studio", ownerOnly, s.studioPage)
	rt.handle("POST /dashboard/studio/marketing", ownerOnly, s.studioMarketing)
	rt.handle("POST /dashboard/studio/intelligence", ownerOnly, s.studioIntelligence)
}

// The forms' choices. Format values are words the marketing composer recognises in any of
// the three languages; their labels come from the catalog.
var (
	marketingFormats = []studioChoice{{"social post", "studio.mformat_social"}, {"email", "studio.mformat_email"},
		{"ad copy", "studio.mformat_ad"}, {"sms", "studio.mformat_sms"}, {"landing page", "studio.mformat_landing"}}
	marketingDepths = []string{studio.DepthLean, studio.DepthFull, studio.DepthStrategy}
	intelFormats    = []string{intel.FormatText, intel.FormatMarkdown, intel.FormatTable, intel.FormatList, intel.FormatJSON}
	intelDepths     = []string{intel.DepthLean, intel.DepthFull}
	dataTypes       = []string{studio.DataProducts, studio.DataFAQ, studio.DataCategories}
)

// studioChoice is an option of a select: the value sent and the catalog key of its label.
type studioChoice struct {
	Value, Label string
}

// marketingForm is the marketing form as sent, kept to show it again.
type marketingForm struct {
	Brief, Product, Audience, Goal, Tone, Format, Depth, Lang, Site, Variants string
}

// intelForm is the Intelligence form as sent. Items are one per line (or comma-separated),
// fields comma-separated, as the API reads items and fields.
type intelForm struct {
	Op, Format, Depth, Lang, Site                  string
	Question, Topic, Items, Query, Fields          string
	Type, Category, DataQuery, DataPage, DataLimit string
}

// marketingView is a marketing result; exactly one of Lean, Full and Strategy is set.
type marketingView struct {
	Lean     *marketing.Lean
	Full     *marketing.Full
	Strategy *marketing.Strategy
	Meta     studio.Meta
}

// intelView is an Intelligence result by its shape: a table, a list, text (text and
// markdown, shown as written) or JSON (shown indented).
type intelView struct {
	Op, Format string
	Table      *intel.Table
	List       []string
	Text       string
	JSON       string
	// Empty: the op found nothing to show (no rows, items or text).
	Empty bool
	Meta  studio.Meta
	// Total is the data op's count of matching rows, nil for the other ops.
	Total *studioCount
}

// studioCount wraps a number a template shows only when present.
type studioCount struct{ N int }

type studioData struct {
	Sites []store.Site
	M     marketingForm
	I     intelForm

	MResult *marketingView
	MError  string
	IResult *intelView
	IError  string

	MarketingFormats                    []studioChoice
	MarketingDepths, Tones              []string
	IntelOps, IntelFormats, IntelDepths []string
	DataTypes                           []string
	MaxBrief, MaxVariants, MaxDataLimit int
}

func (s *Server) studioData(ctx context.Context, c *reqCtx) (studioData, error) {
	sites, err := s.st.ListSites(ctx, c.Account.ID)
	if err != nil {
		return studioData{}, err
	}
	return studioData{Sites: sites,
		M:                marketingForm{Depth: studio.DepthLean, Variants: strconv.Itoa(studio.DefaultVariants)},
		I:                intelForm{Op: intel.OpAnswer, Format: intel.FormatText, Depth: intel.DepthLean, Type: studio.DataProducts},
		MarketingFormats: marketingFormats, MarketingDepths: marketingDepths, Tones: account.TonePresets,
		IntelOps: studio.Ops, IntelFormats: intelFormats, IntelDepths: intelDepths, DataTypes: dataTypes,
		MaxBrief: studio.MaxBriefChars, MaxVariants: studio.MaxVariants, MaxDataLimit: studio.MaxDataLimit}, nil
}

// VariantChoices are the variant counts the marketing form offers: 1 to MaxVariants.
func (d studioData) VariantChoices() []int {
	out := make([]int, d.MaxVariants)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func (s *Server) studioPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.studioData(r.Context(), c)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageStudio, 0, d)
	return nil
}

// studioError is what a form shows for a failed generation, with the status a page without
// JavaScript gets: the studio's own safe sentence for bad input, the catalog's for a rate
// limit or an empty balance. ok false means err is not the form's and goes to the error page.
func (s *Server) studioError(c *reqCtx, err error) (msg string, status int, ok bool) {
	switch errs.KindOf(err) {
	case errs.BadRequest, errs.UnknownAction:
		return s.errorText(c, err), http.StatusBadRequest, true
	case errs.TooMany:
		return s.cat.T(c.Lang, "studio.error_balance"), http.StatusBadRequest, true
	case errs.RateLimited, errs.LimitReached:
		return s.errorText(c, err), http.StatusTooManyRequests, true
	}
	return "", 0, false
}

// optSiteID reads an optional positive id of a form ("" or 0: none).
func optSiteID(v string) (*int64, bool) {
	v = strings.TrimSpace(v)
	if v == "" || v == "0" {
		return nil, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return nil, false
	}
	return &n, true
}

func (s *Server) studioMarketing(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.studioData(r.Context(), c)
	if err != nil {
		return err
	}
	f := marketingForm{Brief: r.PostFormValue("brief"), Product: r.PostFormValue("product"),
		Audience: r.PostFormValue("audience"), Goal: r.PostFormValue("goal"), Tone: r.PostFormValue("tone"),
		Format: r.PostFormValue("format"), Depth: r.PostFormValue("depth"), Lang: r.PostFormValue("lang"),
		Site: r.PostFormValue("site_id"), Variants: strings.TrimSpace(r.PostFormValue("variants"))}
	d.M = f
	fail := func(msg string, status int) error {
		d.MError = msg
		s.renderPart(w, r, c, pageStudio, "marketing-result", status, d)
		return nil
	}
	in := studio.MarketingInput{Brief: f.Brief, Product: f.Product, Audience: f.Audience, Goal: f.Goal, Tone: f.Tone,
		Format: f.Format, Lang: f.Lang, Depth: f.Depth}
	if in.Depth == studio.DepthLean {
		in.Depth = "" // the studio's lean is the default, left out
	}
	if f.Variants != "" {
		n, err := strconv.Atoi(f.Variants)
		if err != nil || n < studio.MinVariants || n > studio.MaxVariants {
			return fail(s.cat.T(c.Lang, "studio.error_variants", studio.MinVariants, studio.MaxVariants), http.StatusBadRequest)
		}
		in.Variants = &n
	}
	var ok bool
	if in.SiteID, ok = optSiteID(f.Site); !ok {
		return fail(s.cat.T(c.Lang, "studio.error_site"), http.StatusBadRequest)
	}
	res, err := s.d.Studio.Marketing(r.Context(), c.Account, in)
	if err != nil {
		msg, status, ok := s.studioError(c, err)
		if !ok {
			return err
		}
		return fail(msg, status)
	}
	v := &marketingView{Meta: res.Meta}
	switch content := res.Content.(type) {
	case *marketing.Lean:
		v.Lean = content
	case *marketing.Full:
		v.Full = content
	case *marketing.Strategy:
		v.Strategy = content
	}
	d.MResult = v
	s.renderPart(w, r, c, pageStudio, "marketing-result", 0, d)
	return nil
}

// splitFormList splits a form's list as the API does: at commas and line breaks, items trimmed,
// empty ones dropped.
func splitFormList(v string) []string {
	var out []string
	for _, it := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

func (s *Server) studioIntelligence(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.studioData(r.Context(), c)
	if err != nil {
		return err
	}
	f := intelForm{Op: r.PostFormValue("op"), Format: r.PostFormValue("format"), Depth: r.PostFormValue("depth"),
		Lang: r.PostFormValue("lang"), Site: r.PostFormValue("site_id"), Question: r.PostFormValue("question"),
		Topic: r.PostFormValue("topic"), Items: r.PostFormValue("items"), Query: r.PostFormValue("query"),
		Fields: r.PostFormValue("fields"), Type: r.PostFormValue("type"), Category: r.PostFormValue("category"),
		DataQuery: r.PostFormValue("data_query"), DataPage: strings.TrimSpace(r.PostFormValue("page")),
		DataLimit: strings.TrimSpace(r.PostFormValue("limit"))}
	d.I = f
	fail := func(msg string, status int) error {
		d.IError = msg
		s.renderPart(w, r, c, pageStudio, "intel-result", status, d)
		return nil
	}
	in := studio.IntelInput{Op: f.Op, Format: f.Format, Depth: f.Depth, Lang: f.Lang}
	switch f.Op {
	case intel.OpAnswer:
		in.Question = f.Question
	case intel.OpSummarize:
		in.Topic = f.Topic
	case intel.OpCompare:
		in.Items, in.Query = splitFormList(f.Items), f.Query
	case intel.OpExtract:
		in.Fields, in.Topic = splitFormList(f.Fields), f.Topic
	case intel.OpData:
		in.Type, in.Category, in.Query = f.Type, f.Category, f.DataQuery
		for _, p := range []struct {
			v   string
			dst **int64
		}{{f.DataPage, &in.Page}, {f.DataLimit, &in.Limit}} {
			if p.v == "" {
				continue
			}
			n, err := strconv.ParseInt(p.v, 10, 64)
			if err != nil {
				return fail(s.cat.T(c.Lang, "studio.error_number"), http.StatusBadRequest)
			}
			*p.dst = &n
		}
	default:
		return fail(s.cat.T(c.Lang, "studio.error_op"), http.StatusBadRequest)
	}
	var ok bool
	if in.SiteID, ok = optSiteID(f.Site); !ok {
		return fail(s.cat.T(c.Lang, "studio.error_site"), http.StatusBadRequest)
	}
	res, err := s.d.Studio.Intelligence(r.Context(), c.Account, in)
	if err != nil {
		msg, status, ok := s.studioError(c, err)
		if !ok {
			return err
		}
		return fail(msg, status)
	}
	v := &intelView{Op: res.Op, Format: res.Format, Meta: res.Meta}
	if res.Meta.Total != nil {
		v.Total = &studioCount{N: *res.Meta.Total}
	}
	switch out := res.Result.(type) {
	case intel.Table:
		v.Table, v.Empty = &out, len(out.Rows) == 0
	case intel.List:
		v.List, v.Empty = out.Items, len(out.Items) == 0
	case intel.Text:
		v.Text, v.Empty = out.Result, strings.TrimSpace(out.Result) == ""
	default:
		// JSON, and any shape added later, is shown as the API would return it.
		data := any(out)
		if j, ok := out.(intel.JSONData); ok {
			data = j.Data
		}
		b, err := json.MarshalIndent(data, "", "  ")
		if err != nil {
			return err
		}
		v.JSON = string(b)
	}
	d.IResult = v
	s.renderPart(w, r, c, pageStudio, "intel-result", 0, d)
	return nil
}
