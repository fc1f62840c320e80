package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"svc/internal/account"
	"svc/internal/chat"
	"svc/internal/clientip"
	"svc/internal/embed"
	"svc/internal/errs"
)

// EmbedPerIP is the embed surface's request limit per client address (SERVICE.md, Limits).
// It is the only limit every request spends, because an address is the one thing a caller
// cannot vary at will. The per-visitor message limits and the token-wide limit live in chat,
// which counts them only for a valid message and, token-wide, only for one that needs a new
// answer: a shared allowance that invalid requests or polling could spend would let anyone
// holding the public token lock every visitor out.
const EmbedPerIP = 30

// embedHandler is one action of the widget's surface, for one visitor.
type embedHandler func(w http.ResponseWriter, r *http.Request, v chat.Visitor, p params) error

type embedAction struct {
	methods []string
	fn      embedHandler
}

// Headers the widget sends; the CORS preflight must allow them.
const (
	headerEmbedToken = "X-SVC-Embed-Token"
	headerVisitor    = "X-SVC-Visitor"
)

func (s *Server) embedRoutes() map[string]embedAction {
	get, post := []string{http.MethodGet, http.MethodHead}, []string{http.MethodPost}
	return map[string]embedAction{
		"start":       {get, s.embedStart},
		"send":        {post, s.embedSend},
		"sync":        {get, s.embedSync},
		"suggestions": {get, s.embedSuggestions},
		"feedback":    {post, s.embedFeedback},
	}
}

// embedDispatch serves /api/v1/embed/<action>, the widget's surface, in this order:
//
//  1. OPTIONS is a CORS preflight (see preflight).
//  2. A secret key is refused outright (401): it must never be in a browser.
//  3. The embed token (or a dashboard preview token) must be valid and active (401).
//  4. The Origin must be an allowed domain or a subdomain of one (403); a write must carry
//     an Origin at all (403). Only an allowed origin gets CORS headers. A preview token's
//     Origin must instead be the service's own (403), and gets none.
//  5. The client address's request rate (429), counted before the token was known.
//  6. The action must be in the token's scope (403) and the method right (405).
//  7. The visitor id (400) and the parameters (400).
//
// Nothing here spends an allowance shared by the token's visitors (see EmbedPerIP).
func (s *Server) embedDispatch(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions {
		s.preflight(w, r)
		return
	}
	now := s.now().UTC()
	addr := clientip.Key(clientip.Of(r, s.trusted))
	ipOK, ipWait := s.limiter.Allow("embed:ip:"+addr, EmbedPerIP, now)
	if err := s.embedRequest(w, r, addr, ipOK, ipWait); err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) embedRequest(w http.ResponseWriter, r *http.Request, addr string, ipOK bool, ipWait time.Duration) error {
	ipLimited := &errs.Error{Kind: errs.RateLimited, RetryAfter: ipWait,
		Safe: "Too many requests from this address. Try again shortly."}
	if r.Header.Get("Authorization") != "" || r.Header.Get("X-SVC-Key") != "" {
		return errs.New(errs.Unauthorized,
			"The secret API key is not accepted by the widget surface; keep it on your server. The widget uses its public embed token.")
	}
	presented := strings.TrimSpace(r.Header.Get(headerEmbedToken))
	if presented == "" {
		if !ipOK {
			return ipLimited
		}
		return errs.New(errs.Unauthorized, "An embed token is required in the X-SVC-Embed-Token header.")
	}
	// A dashboard preview token stands for an embed token whose full value the dashboard
	// cannot know; it is checked by the dashboard, and then like the token it previews.
	preview := s.preview != nil && strings.HasPrefix(presented, previewTokenPrefix)
	var ec account.EmbedCaller
	var err error
	if preview {
		ec, err = s.preview.AuthenticatePreview(r.Context(), presented)
	} else {
		ec, err = s.accounts.AuthenticateEmbed(r.Context(), presented)
	}
	if err != nil {
		if !ipOK && errs.KindOf(err) == errs.Unauthorized {
			return ipLimited
		}
		return err
	}
	origin := r.Header.Get("Origin")
	switch {
	case origin == "":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return errs.New(errs.Forbidden, "A widget request that writes must come from a web page on an allowed domain (Origin header).")
		}
	case preview:
		// The preview runs in the dashboard, on the service's own origin, instead of on one
		// of the token's domains. Same-origin requests need no CORS headers, so none are set.
		if !sameOrigin(origin, r.Host) && (s.publicOrigin == "" || !strings.EqualFold(origin, s.publicOrigin)) {
			return errs.New(errs.Forbidden, "A widget preview token works only in the dashboard that issued it.")
		}
	default:
		host, ok := embed.OriginHost(origin)
		if !ok || !embed.Allowed(ec.Token.Domains, host) {
			return errs.New(errs.Forbidden, "This site is not allowed to use this embed token.")
		}
		setCORS(w.Header(), origin)
	}
	if !ipOK {
		return ipLimited
	}
	a, ok := s.embedActions[r.PathValue("action")]
	if !ok {
		return errs.New(errs.Forbidden, "That action is not available to the widget.")
	}
	if !slices.Contains(a.methods, r.Method) {
		w.Header().Set("Allow", strings.Join(a.methods, ", "))
		return errs.Newf(errs.MethodNotAllowed, "Use %s for this action.", a.methods[0])
	}
	visitor, ok := embed.NormalizeVisitor(r.Header.Get(headerVisitor))
	if !ok {
		return errs.New(errs.BadRequest, "The X-SVC-Visitor header must hold the visitor's UUID.")
	}
	p, err := readParams(r)
	if err != nil {
		return err
	}
	return a.fn(w, r, chat.Visitor{Account: ec.Account, Token: ec.Token, ID: visitor, Addr: addr}, p)
}

// previewTokenPrefix starts the dashboard's preview tokens (dashboard.PreviewTokenPrefix;
// the dashboard's tests prove the two agree end to end).
const previewTokenPrefix = "svc_prev_"

// sameOrigin reports whether origin is the origin the request was sent to: a well-formed
// http(s) origin whose host and port are the request's Host. The scheme cannot be compared
// behind a proxy that ends TLS, and an origin differing only in scheme would need the same
// host and port to serve both.
func sameOrigin(origin, host string) bool {
	if _, ok := embed.OriginHost(origin); !ok || host == "" {
		return false
	}
	_, authority, _ := strings.Cut(origin, "://")
	return strings.EqualFold(authority, host)
}

// setCORS lets the allowed origin read the response. Credentials are never allowed: the
// widget authenticates with headers, and cookies of the service's origin mean nothing to it.
// The header carries the origin's canonical serialisation, rebuilt from its parts, never the
// request's bytes; an origin that has none (refused by embed.OriginHost) gets no header.
func setCORS(h http.Header, origin string) {
	allowed, ok := embed.CanonicalOrigin(origin)
	if !ok {
		return
	}
	h.Set("Access-Control-Allow-Origin", allowed)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", "Retry-After, X-Request-Id")
}

// preflight answers a CORS preflight. It carries no token (browsers send no custom header
// values in a preflight), so an origin passes when any active token allows it; the request
// that follows is checked against its own token. Other origins get no CORS headers, and the
// browser then refuses to send the request.
func (s *Server) preflight(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	host, ok := embed.OriginHost(origin)
	if !ok {
		s.writeError(w, r, errs.New(errs.Forbidden, "A preflight must come from a web page (Origin header)."))
		return
	}
	domains, err := s.st.ActiveEmbedDomains(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !embed.Allowed(domains, host) {
		s.writeError(w, r, errs.New(errs.Forbidden, "This site is not allowed to use the widget."))
		return
	}
	h := w.Header()
	setCORS(h, origin)
	h.Set("Access-Control-Allow-Methods", "GET, POST")
	h.Set("Access-Control-Allow-Headers", "Content-Type, "+headerEmbedToken+", "+headerVisitor)
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) embedStart(w http.ResponseWriter, r *http.Request, v chat.Visitor, p params) error {
	lang := p["lang"]
	if lang != "tr" && lang != "en" && lang != "de" {
		lang = ""
	}
	view, err := s.chat.VisitorStart(r.Context(), v, lang)
	if err != nil {
		return err
	}
	writeData(w, embedStartView{ConversationID: view.ConversationID, Lang: view.Lang, Name: v.Account.Name,
		Mode: view.Mode, Reason: view.Reason, MaxMessageChars: chat.MaxEmbedMessageChars, ShowSources: !v.Token.HideSources,
		Messages: messageViews(view.Messages)})
	return nil
}

func (s *Server) embedSend(w http.ResponseWriter, r *http.Request, v chat.Visitor, p params) error {
	msg, ok := p["message"]
	if !ok {
		return errs.New(errs.BadRequest, "The message field is required.")
	}
	if wantsStream(r) {
		return s.newEventStream(w, r).run(func(st chat.Stream) (chat.SendResult, error) {
			return s.chat.VisitorSendStream(r.Context(), v, msg, st)
		}, func(res chat.SendResult) any { return toEmbedSendView(res) })
	}
	res, err := s.chat.VisitorSend(r.Context(), v, msg)
	if err != nil {
		return err
	}
	writeData(w, toEmbedSendView(res))
	return nil
}

func toEmbedSendView(res chat.SendResult) embedSendView {
	return embedSendView{ConversationID: res.ConversationID, LowConfidence: res.LowConfidence, Mode: res.Mode,
		Lang: res.Reply.Lang, Reason: res.Reason, Messages: []messageView{toMessageView(res.User), toMessageView(res.Reply)}}
}

func (s *Server) embedSync(w http.ResponseWriter, r *http.Request, v chat.Visitor, p params) error {
	since, err := p.int64Param("sinceId", 0)
	if err != nil {
		return err
	}
	if since < 0 {
		return errs.New(errs.BadRequest, "sinceId must be 0 or a message id.")
	}
	view, err := s.chat.VisitorSync(r.Context(), v, since)
	if err != nil {
		return err
	}
	writeData(w, embedSyncView{ConversationID: view.ConversationID, Mode: view.Mode, Reason: view.Reason,
		Messages: messageViews(view.Messages)})
	return nil
}

func (s *Server) embedSuggestions(w http.ResponseWriter, r *http.Request, v chat.Visitor, _ params) error {
	sg, err := s.chat.VisitorSuggestions(r.Context(), v)
	if err != nil {
		return err
	}
	writeData(w, toSuggestionsView(sg))
	return nil
}

func (s *Server) embedFeedback(w http.ResponseWriter, r *http.Request, v chat.Visitor, p params) error {
	if p["messageId"] == "" {
		return errs.New(errs.BadRequest, "The messageId field is required.")
	}
	id, err := p.int64Param("messageId", 0)
	if err != nil {
		return err
	}
	if err := s.chat.VisitorFeedback(r.Context(), v, id, p["rating"], p["comment"]); err != nil {
		return err
	}
	writeData(w, map[string]bool{"saved": true})
	return nil
}
