package dashboard

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/internal/account"
	"svc/internal/chat"
	"svc/internal/i18n"
	"svc/internal/store"
)

var pageAssistant = page{name: "assistant", title: "assistant.title", nav: "assistant"}

// assistantStore is what the assistant page reads: the key the try-it box sends with.
type assistantStore interface {
	ActiveKey(ctx context.Context, accountID int64) (store.APIKey, error)
}

// maxToneCustom is the tone note's limit (account.Service enforces it too).
const maxToneCustom = 500

// tryPerMinute bounds the try-it box per user: it runs the real, billed pipeline.
const tryPerMinute = 10

func (s *Server) assistantRoutes(rt router) {
	rt.handle("GET /dashboard/assistant", ownerOnly, s.assistantPage)
	rt.handle("POST /dashboard/assistant/tone", ownerOnly, s.saveTone)
	rt.handle("POST /dashboard/assistant/settings", ownerOnly, s.saveAssistantSettings)
	rt.handle("POST /dashboard/assistant/try", ownerOnly, s.tryAssistant)
}

type assistantData struct {
	Presets    []string
	Preset     string
	Custom     string
	SalesMode  bool
	Lang       string
	Question   string
	Result     *chat.SendResult
	TryError   string
	MaxCustom  int
	AccountLng string
}

func (s *Server) assistantData(c *reqCtx) assistantData {
	return assistantData{Presets: account.TonePresets, Preset: c.Account.TonePreset, Custom: c.Account.ToneCustom,
		SalesMode: c.Account.SalesMode, Lang: c.Account.Lang, MaxCustom: maxToneCustom}
}

func (s *Server) assistantPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	s.render(w, r, c, pageAssistant, 0, s.assistantData(c))
	return nil
}

// saveTone is the dashboard's tone form (DECISIONS.md: fields preset and custom); what it
// stores is what getTone returns from the next request on.
func (s *Server) saveTone(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	preset := strings.TrimSpace(r.PostFormValue("preset"))
	custom := strings.TrimSpace(r.PostFormValue("custom"))
	d := s.assistantData(c)
	d.Preset, d.Custom = preset, custom
	if !slices.Contains(account.TonePresets, preset) {
		s.formError(w, r, c, pageAssistant, invalid("assistant.error_preset"), d)
		return nil
	}
	if utf8.RuneCountInString(custom) > maxToneCustom {
		s.formError(w, r, c, pageAssistant, invalid("assistant.error_custom", maxToneCustom), d)
		return nil
	}
	if _, err := s.d.Accounts.Update(r.Context(), c.Account.ID, account.Settings{TonePreset: &preset, ToneCustom: &custom}); err != nil {
		s.formError(w, r, c, pageAssistant, err, d)
		return nil
	}
	s.redirect(w, r, "/dashboard/assistant", "flash.tone_saved")
	return nil
}

// saveAssistantSettings stores Sales Mode and the account's default language.
func (s *Server) saveAssistantSettings(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	lang := r.PostFormValue("lang")
	sales := r.PostFormValue("sales_mode") == "on"
	d := s.assistantData(c)
	if !i18n.Supported(lang) {
		s.formError(w, r, c, pageAssistant, invalid("assistant.error_lang"), d)
		return nil
	}
	if _, err := s.d.Accounts.Update(r.Context(), c.Account.ID, account.Settings{Lang: &lang, SalesMode: &sales}); err != nil {
		s.formError(w, r, c, pageAssistant, err, d)
		return nil
	}
	s.redirect(w, r, "/dashboard/assistant", "flash.settings_saved")
	return nil
}

// tryAssistant asks the real pipeline a question, in the account's API conversation, as
// the API would: the answer is real and billed like any other (cached answers are free).
// With htmx only the result is swapped in; without JavaScript the whole page comes back.
func (s *Server) tryAssistant(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := s.assistantData(c)
	d.Question = strings.TrimSpace(r.PostFormValue("message"))
	respond := func(status int) { s.renderPart(w, r, c, pageAssistant, "try-result", status, d) }
	if d.Question == "" {
		d.TryError = s.cat.T(c.Lang, "assistant.error_question")
		respond(http.StatusBadRequest)
		return nil
	}
	if ok, wait := s.d.Limiter.Allow("dash:try:"+strconv.FormatInt(c.User.ID, 10), tryPerMinute, s.now()); !ok {
		d.TryError = s.cat.T(c.Lang, "error.rate_limited", int(wait.Seconds()+0.999))
		respond(http.StatusTooManyRequests)
		return nil
	}
	key, err := s.st.ActiveKey(r.Context(), c.Account.ID)
	if err != nil {
		return err
	}
	res, err := s.d.Chat.Send(r.Context(), c.Account, key.ID, d.Question)
	if err != nil {
		d.TryError = s.errorText(c, err)
		respond(http.StatusBadRequest)
		return nil
	}
	d.Result = &res
	respond(0)
	return nil
}
