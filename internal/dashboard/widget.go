package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"svc/internal/account"
	"svc/internal/embed"
	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/store"
)

var (
	pageWidget        = page{name: "widget", title: "widget.title", nav: "widget"}
	pageWidgetEdit    = page{name: "widget_edit", title: "widget.edit_title", nav: "widget"}
	pageWidgetPreview = page{name: "widget_preview", title: "widget.preview_title", nav: "widget"}
)

// widgetStore is what the widget pages read beyond account.Service: one token, for the edit
// form and the live preview (both scoped to the signed-in account).
type widgetStore interface {
	GetEmbedToken(ctx context.Context, accountID, tokenID int64) (store.EmbedToken, error)
}

// defaultWidgetColor is the widget's own default colour (widget/src/main.ts), so a snippet
// without a choice looks like the widget without the attribute.
const defaultWidgetColor = "#0a66c2"

// hexColor is what data-svc-color accepts: #rgb or #rrggbb. Anything else is replaced by the
// default, so nothing an owner types can break out of the snippet's attribute.
var hexColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

func (s *Server) widgetRoutes(rt router) {
	rt.handle("GET /dashboard/widget", ownerOnly, s.widgetPage)
	rt.handle("POST /dashboard/widget/tokens", ownerOnly, s.createEmbedToken)
	rt.handle("GET /dashboard/widget/tokens/{id}/edit", ownerOnly, s.editEmbedTokenPage)
	rt.handle("POST /dashboard/widget/tokens/{id}", ownerOnly, s.updateEmbedToken)
	rt.handle("POST /dashboard/widget/tokens/{id}/revoke", ownerOnly, s.revokeEmbedToken)
	rt.handle("GET /dashboard/widget/tokens/{id}/preview", ownerOnly, s.widgetPreviewPage)
}

// tokenRow is one embed token with today's usage, as the table shows it.
type tokenRow struct {
	store.EmbedToken
	Usage     store.EmbedUsage
	BudgetPct int // budget_used_pct: rounded down, like the API's
	Active    bool
}

// BarPct is BudgetPct capped for the progress bar (the spend may pass the budget by one
// answer's reservation).
func (t tokenRow) BarPct() int { return min(t.BudgetPct, 100) }

// tokenForm is what the create and edit forms send, kept as typed for a form shown again.
type tokenForm struct {
	Domains, Label, Budget string
	ShowSources            bool // the widget lists a reply's sources (a checkbox: sent only when on)
	// Look is the widget's appearance (widget_look.go): on the edit form only, nil on create.
	Look *lookForm
}

// tokenFields is what the create and edit forms' fields (the "token-fields" partial) show:
// the values and the limits their hints name.
type tokenFields struct {
	Form       tokenForm
	MaxLabel   int
	MaxDomains int
	// MinBudget and MaxBudget are the budget's limits as the page writes money ("$0.05").
	MinBudget, MaxBudget string
}

func newTokenFields(lang string, f tokenForm) tokenFields {
	return tokenFields{Form: f, MaxLabel: embed.MaxLabelChars, MaxDomains: embed.MaxDomains,
		MinBudget: formatUSD(lang, embed.MinBudgetMicro), MaxBudget: formatUSD(lang, embed.MaxBudgetMicro)}
}

// budgetField is a budget as the form's field shows it: the amount as the page writes numbers,
// without the currency (the field's label names it), with two decimals or the four a budget
// may have: "1.00", "1,00", "0,0525".
func budgetField(lang string, micro int64) string {
	whole, frac, _ := strings.Cut(embed.FormatBudget(micro), ".")
	frac = strings.TrimRight(frac, "0")
	frac += strings.Repeat("0", max(0, 2-len(frac)))
	return whole + styleOf(lang).decimal + frac
}

// budgetFromField reads the field as embed.ParseBudget does, with the page's decimal comma
// ("1,50" on a Turkish or German page) taken for the point. A point is a point on every page,
// as in the API; a comma on an English page is left for ParseBudget to refuse, since "0,50"
// there could mean fifty.
func budgetFromField(lang, s string) string {
	if styleOf(lang).decimal == "," && !strings.Contains(s, ".") {
		return strings.Replace(s, ",", ".", 1)
	}
	return s
}

// snippetOpts are the snippet's data-svc-lang and data-svc-color.
type snippetOpts struct {
	Lang, Color string
}

// createdToken is a token right after creation: the only time its full value exists outside
// the browser that asked for it.
type createdToken struct {
	ID      int64
	Token   string
	Snippet string
}

type widgetData struct {
	Tokens      []tokenRow
	ActiveCount int
	MaxActive   int
	Created     *createdToken
	Opts        snippetOpts
	// Snippet is the install snippet with a placeholder where the token goes.
	Snippet string
	// Preview is the active token whose live preview is shown (0: none), PreviewSrc the
	// address of the framed preview page.
	Preview    int64
	PreviewSrc string
	// Contrast warns when the snippet's colour stands out too little from a light page.
	Contrast []contrastWarning
	// The create form's values and limits.
	tokenFields
}

// snippetOpts reads the snippet options of a request, falling back to the account's language
// and the widget's default colour.
func (s *Server) snippetOpts(c *reqCtx, lang, color string) snippetOpts {
	o := snippetOpts{Lang: lang, Color: strings.ToLower(strings.TrimSpace(color))}
	if !i18n.Supported(o.Lang) {
		o.Lang = c.Account.Lang
	}
	if !i18n.Supported(o.Lang) {
		o.Lang = i18n.Default
	}
	if !hexColor.MatchString(o.Color) {
		o.Color = defaultWidgetColor
	}
	if len(o.Color) == 4 {
		// #rgb as #rrggbb: the form's colour input takes only the long form.
		o.Color = string([]byte{'#', o.Color[1], o.Color[1], o.Color[2], o.Color[2], o.Color[3], o.Color[3]})
	}
	return o
}

// snippet is the tag a site pastes. Every part is validated (token characters, a supported
// language, a hex colour) except the operator's public URL; the page escapes it all anyway.
func (s *Server) snippet(r *http.Request, token string, o snippetOpts) string {
	return `<script src="` + s.baseURL(r) + `/widget.js" data-svc-token="` + token + `" data-svc-lang="` + o.Lang +
		`" data-svc-color="` + o.Color + `" defer></script>`
}

func (s *Server) widgetData(r *http.Request, c *reqCtx, o snippetOpts) (widgetData, error) {
	d := widgetData{MaxActive: account.MaxActiveEmbedTokens, Opts: o,
		tokenFields: newTokenFields(c.Lang, tokenForm{Budget: budgetField(c.Lang, embed.DefaultBudgetMicro), ShowSources: true})}
	d.Snippet = s.snippet(r, embed.TokenPrefix+"…", o)
	d.Contrast = contrastWarnings(c.Lang, o.Color, embed.ThemeLight)
	ts, err := s.d.Accounts.EmbedTokens(r.Context(), c.Account)
	if err != nil {
		return d, err
	}
	for _, t := range ts {
		row := tokenRow{EmbedToken: t.Token, Usage: t.Usage, Active: t.Token.Status == store.EmbedActive}
		if t.Token.DailyBudgetMicro > 0 {
			row.BudgetPct = int(t.Usage.SpendMicro * 100 / t.Token.DailyBudgetMicro)
		}
		if row.Active {
			d.ActiveCount++
		}
		d.Tokens = append(d.Tokens, row)
	}
	return d, nil
}

// previewSrc is the framed preview page of a token with the snippet options.
func previewSrc(id int64, o snippetOpts) string {
	return "/dashboard/widget/tokens/" + strconv.FormatInt(id, 10) + "/preview?" + url.Values{"lang": {o.Lang}, "color": {o.Color}}.Encode()
}

// widgetPage lists the tokens and frames the live preview of one active token: the one
// ?preview=<id> names, else the newest. Framing it costs nothing: the widget calls the
// service only once the owner opens it.
func (s *Server) widgetPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	d, err := s.widgetData(r, c, s.snippetOpts(c, q.Get("lang"), q.Get("color")))
	if err != nil {
		return err
	}
	want, _ := strconv.ParseInt(q.Get("preview"), 10, 64)
	for _, t := range d.Tokens {
		// Active tokens come first, newest first: the first one is the default.
		if t.Active && (d.Preview == 0 || t.ID == want) {
			d.Preview = t.ID
		}
	}
	if d.Preview != 0 {
		d.PreviewSrc = previewSrc(d.Preview, d.Opts)
	}
	s.render(w, r, c, pageWidget, 0, d)
	return nil
}

// tokenInput is the account.Service input of a form sent from a page in lang. An empty
// budget is "not given": the default on create, unchanged on update.
func tokenInput(lang string, f tokenForm) account.EmbedTokenInput {
	in := account.EmbedTokenInput{Domains: &f.Domains, Label: &f.Label, ShowSources: &f.ShowSources}
	if f.Budget != "" {
		budget := budgetFromField(lang, f.Budget)
		in.DailyBudget = &budget
	}
	if f.Look != nil {
		f.Look.apply(&in)
	}
	return in
}

func readTokenForm(r *http.Request) tokenForm {
	return tokenForm{Domains: strings.TrimSpace(r.PostFormValue("domains")), Label: r.PostFormValue("label"),
		Budget: strings.TrimSpace(r.PostFormValue("daily_budget_usd")), ShowSources: r.PostFormValue("show_sources") != "",
		Look: readLookForm(r)}
}

// tokenFormError is the form error of a failed create or update on a page in lang: the
// dashboard's own text for what it can name, otherwise account.Service's safe message (bad
// domains, label, budget). nil means err is not the form's fault and goes to the error page.
func tokenFormError(lang string, err error) error {
	switch errs.KindOf(err) {
	case errs.TooMany:
		return invalid("widget.error_limit", account.MaxActiveEmbedTokens)
	case errs.BadRequest:
		// A budget's limits and example as the page writes amounts, not as the API does
		// ("0.05", "1.50"); the budget as typed is the error's own first argument.
		if e, ok := errs.As(err); ok && len(e.Args) > 0 {
			switch e.Key {
			case "err.embed.budget_range":
				return invalid("widget.error_budget_range", e.Args[0], formatUSD(lang, embed.MinBudgetMicro), formatUSD(lang, embed.MaxBudgetMicro))
			case "err.embed.budget_invalid":
				return invalid("widget.error_budget_invalid", e.Args[0], budgetField(lang, 1_500_000))
			}
		}
		return err
	}
	return nil
}

// createEmbedToken makes a token and answers with the page showing it once, with its
// snippet: the full token is in this response only, never stored, put in a cookie or a URL.
func (s *Server) createEmbedToken(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := readTokenForm(r)
	opts := s.snippetOpts(c, r.PostFormValue("lang"), r.PostFormValue("color"))
	var created *createdToken
	ferr := invalid("widget.error_domains")
	if f.Domains != "" {
		plain, t, err := s.d.Accounts.CreateEmbedToken(r.Context(), c.Account, tokenInput(c.Lang, f))
		if err == nil {
			created = &createdToken{ID: t.ID, Token: plain, Snippet: s.snippet(r, plain, opts)}
		} else if tokenFormError(c.Lang, err) == nil {
			return err
		}
		ferr = tokenFormError(c.Lang, err)
	}
	// The list is read once, after the change, so a new token is in the table too.
	d, err := s.widgetData(r, c, opts)
	if err != nil {
		return err
	}
	if ferr != nil {
		d.Form = f
		s.formError(w, r, c, pageWidget, ferr, d)
		return nil
	}
	d.Created = created
	s.render(w, r, c, pageWidget, 0, d)
	return nil
}

// accountToken reads one of the signed-in account's tokens; another account's is the
// store's ErrNotFound, a 404.
func (s *Server) accountToken(ctx context.Context, c *reqCtx, id int64) (store.EmbedToken, error) {
	return s.st.GetEmbedToken(ctx, c.Account.ID, id)
}

type widgetEditData struct {
	Token  store.EmbedToken
	Active bool
	tokenFields
	// Look is the appearance section's choices, limits, preview and contrast.
	Look lookView
}

func (s *Server) editData(lang string, t store.EmbedToken) widgetEditData {
	return widgetEditData{Token: t, Active: t.Status == store.EmbedActive,
		tokenFields: newTokenFields(lang, tokenForm{Domains: strings.Join(t.Domains, "\n"), Label: t.Label, Budget: budgetField(lang, t.DailyBudgetMicro),
			ShowSources: !t.HideSources, Look: lookFormOf(t)})}
}

// withLook completes d with the appearance section for the form as shown; the preview takes
// the snippet's language and colour from the query, like the widget page's.
func (s *Server) withLook(r *http.Request, c *reqCtx, d *widgetEditData) {
	if d.Form.Look == nil {
		d.Form.Look = lookFormOf(d.Token)
	}
	q := r.URL.Query()
	d.Look = s.lookView(r.Context(), c, d.Token, d.Form.Look, s.snippetOpts(c, q.Get("lang"), q.Get("color")))
}

func (s *Server) editEmbedTokenPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	t, err := routeItem(r, c, s.accountToken)
	if err != nil {
		return err
	}
	d := s.editData(c.Lang, t)
	s.withLook(r, c, &d)
	s.render(w, r, c, pageWidgetEdit, 0, d)
	return nil
}

func (s *Server) updateEmbedToken(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	t, err := routeItem(r, c, s.accountToken)
	if err != nil {
		return err
	}
	d := s.editData(c.Lang, t)
	d.Form = readTokenForm(r)
	if d.Form.Domains == "" {
		s.withLook(r, c, &d)
		s.formError(w, r, c, pageWidgetEdit, invalid("widget.error_domains"), d)
		return nil
	}
	if err := s.d.Accounts.UpdateEmbedToken(r.Context(), c.Account, t.ID, tokenInput(c.Lang, d.Form)); err != nil {
		ferr := tokenFormError(c.Lang, err)
		if ferr == nil {
			return err
		}
		s.withLook(r, c, &d)
		s.formError(w, r, c, pageWidgetEdit, ferr, d)
		return nil
	}
	s.redirect(w, r, "/dashboard/widget", "flash.widget_token_saved")
	return nil
}

// revokeEmbedToken revokes for good (the page asks before the form is sent); the widget
// using the token, and any preview of it, is refused from its next request.
func (s *Server) revokeEmbedToken(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	if err := s.d.Accounts.RevokeEmbedToken(r.Context(), c.Account, id); err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/widget", "flash.widget_token_revoked")
	return nil
}
