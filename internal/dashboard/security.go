package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"svc/internal/errs"
)

// Cookie names. svc_session is fixed by DECISIONS.md.
const (
	sessionCookie = "svc_session"
	flashCookie   = "svc_flash"
	cookiePath    = "/dashboard"
)

// csrfField is the hidden anti-forgery field every dashboard form carries.
const csrfField = "_csrf"

// anonFormTTL is how long a signed-out form (sign-in, forgot password, a link's form) stays
// valid for a client that sends neither Origin nor Sec-Fetch-Site.
const anonFormTTL = 2 * time.Hour

// contentSecurityPolicy allows only our own scripts and styles: no inline script or style
// element, no eval (htmx runs with allowEval off), no plug-ins, no framing by other sites.
// Product images of the KB may come from the shop's own https host.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; " +
	"connect-src 'self'; font-src 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; object-src 'none'"

// secureHeaders sets the headers every dashboard response carries. Pages are private, so
// nothing but the fingerprinted assets may be stored by a cache.
func (s *Server) secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		// Links carry one-time tokens in their path: never send them on as a Referer.
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		if !strings.HasPrefix(r.URL.Path, "/dashboard/assets/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// crossOrigin refuses a state-changing request that a browser says came from another
// origin (Sec-Fetch-Site, else Origin against Host): Go's CrossOriginProtection, trusting
// the public URL's origin too for deployments behind a proxy that rewrites Host.
func (s *Server) crossOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	if u, err := url.Parse(s.d.PublicURL); err == nil && u.Scheme != "" && u.Host != "" {
		_ = p.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.renderError(w, r, nil, errs.New(errs.Forbidden, "Cross-origin request refused."))
	}))
	return p.Handler(next)
}

// fromBrowser reports whether the request carries what browsers send and
// CrossOriginProtection judges; a request with neither header is judged by its form token.
func fromBrowser(r *http.Request) bool {
	return r.Header.Get("Sec-Fetch-Site") != "" || r.Header.Get("Origin") != ""
}

// maxFormBody bounds a dashboard form's body (guard applies it before anything reads the
// body); a route that takes a file declares its own larger limit (router.upload).
const maxFormBody = 1 << 20

// checkCSRF checks a POST's anti-forgery header or field when the request came without the
// headers CrossOriginProtection has already judged. Reading the field reads the form, within
// the body limit guard set; a browser's form is read by its handler (the import page has its
// own message for a file too large).
func (s *Server) checkCSRF(r *http.Request, c *reqCtx) error {
	if fromBrowser(r) {
		return nil
	}
	got := r.Header.Get("X-CSRF-Token")
	if got == "" {
		var err error
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			err = r.ParseMultipartForm(1 << 20) // files beyond 1 MiB wait on disk
		} else {
			err = r.ParseForm()
		}
		if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
			return errs.New(errs.TooLarge, "The form is too large.").WithKey("error.too_large")
		}
		got = r.PostForm.Get(csrfField)
	}
	ok := s.validAnonToken(got)
	if c.User.ID != 0 {
		ok = got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(c.CSRF)) == 1
	}
	if !ok {
		return errs.New(errs.Forbidden, "This form has expired. Reload the page and try again.")
	}
	return nil
}

// sessionCSRF derives a signed-in user's form token from the raw session id, so it needs no
// storage and any replica can check it; it changes with every sign-in.
func sessionCSRF(rawSession string) string {
	m := hmac.New(sha256.New, []byte(rawSession))
	m.Write([]byte("svc dashboard csrf"))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// anonToken is the form token of a signed-out page: an expiry signed with the process's
// key. It binds no session (there is none yet); browsers are judged by their headers.
func (s *Server) anonToken() string {
	exp := strconv.FormatInt(s.now().Add(anonFormTTL).Unix(), 10)
	return exp + "." + s.sign(exp)
}

func (s *Server) validAnonToken(tok string) bool {
	exp, mac, ok := strings.Cut(tok, ".")
	if !ok || subtle.ConstantTimeCompare([]byte(mac), []byte(s.sign(exp))) != 1 {
		return false
	}
	n, err := strconv.ParseInt(exp, 10, 64)
	return err == nil && s.now().Unix() < n
}

func (s *Server) sign(v string) string {
	m := hmac.New(sha256.New, s.formKey)
	m.Write([]byte(v))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func newFormKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// setCookie writes a dashboard cookie: HttpOnly, SameSite=Lax, Secure behind https.
func (s *Server) setCookie(w http.ResponseWriter, name, value string, maxAge time.Duration) {
	c := &http.Cookie{Name: name, Value: value, Path: cookiePath, HttpOnly: true, Secure: s.secure,
		SameSite: http.SameSiteLaxMode}
	if maxAge > 0 {
		c.MaxAge = int(maxAge / time.Second)
	} else if maxAge < 0 {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

func (s *Server) clearCookie(w http.ResponseWriter, name string) { s.setCookie(w, name, "", -1) }
