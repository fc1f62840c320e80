package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The clients speak the providers' wire protocols with net/http and encoding/json rather
// than through the providers' SDKs: each SDK models its whole API, and together they added
// 44 MB to the service binary (30 MB of it stripped) for the one endpoint each that is used.

// MaxResponseBytes bounds what is read of an answer. A completion is a few kilobytes and a
// batch of embeddings a few megabytes; the bound only stops a broken or hostile endpoint
// from filling memory.
const MaxResponseBytes = 16 << 20

// ErrResponseTooLarge is an answer past MaxResponseBytes.
var ErrResponseTooLarge = fmt.Errorf("response larger than %d bytes", MaxResponseBytes)

// ErrCrossOriginRedirect stops a redirect away from the base URL's scheme and host, which
// would carry the API key to another server: Go's client drops Authorization on such a
// redirect but not x-api-key.
var ErrCrossOriginRedirect = errors.New("redirect to another origin refused")

// Options describe one endpoint of a provider.
type Options struct {
	API      string       // what is called, for messages and the User-Agent: "llm", "embedding", "rerank"
	Provider string       // the provider's name in messages
	Client   *http.Client // nil: DefaultHTTPClient
	BaseURL  string
	Path     string // resolved against BaseURL (ResolveEndpoint)
	// Header is sent with every request: authentication, versions. Content-Type, Accept and
	// User-Agent are added.
	Header http.Header
	// Secret is removed from every message an error carries.
	Secret string
	// Timeout bounds each attempt; the caller's context bounds the whole call.
	Timeout time.Duration
	Now     func() time.Time // reads Retry-After dates
	// Message takes the provider's message out of an error answer's body; nil keeps none.
	Message func(body []byte) string
}

// Endpoint posts JSON to one URL of a provider. It is safe for concurrent use.
type Endpoint struct {
	api, provider, secret string
	timeout               time.Duration
	now                   func() time.Time
	message               func([]byte) string
	client                *http.Client
	url                   string
	header                http.Header
	err                   error // the endpoint did not resolve; reported by every post
}

// answer is a provider's HTTP answer, read whole.
type answer struct {
	status int // 0 when no answer came
	header http.Header
	body   []byte
}

// NewEndpoint prepares posting to o.Path under o.BaseURL. The client is copied so that
// redirects can be kept on the base URL's origin without changing the caller's client.
func NewEndpoint(o Options) *Endpoint {
	header := o.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json")
	header.Set("User-Agent", "svc-"+o.API+"/1")
	e := &Endpoint{api: o.API, provider: o.Provider, secret: o.Secret, timeout: o.Timeout, now: o.Now,
		message: o.Message, header: header}
	if e.now == nil {
		e.now = time.Now
	}
	u, err := ResolveEndpoint(o.BaseURL, o.Path)
	if err != nil {
		e.err = err
		return e
	}
	e.url = u.String()
	if o.Client == nil {
		o.Client = DefaultHTTPClient()
	}
	c := *o.Client
	next := o.Client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != u.Scheme || req.URL.Host != u.Host {
			return ErrCrossOriginRedirect
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 { // net/http's own default
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	e.client = &c
	return e
}

// Post sends payload as JSON in one attempt, bounded by the endpoint's timeout, and decodes
// a successful answer into out. Any failure is an *Error.
func (e *Endpoint) Post(ctx context.Context, payload, out any) error {
	attempt, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	ans, err := e.post(attempt, payload)
	if err == nil && ans.status < 400 {
		if err = json.Unmarshal(ans.body, out); err != nil {
			err = fmt.Errorf("decode response: %w", err)
		}
	}
	if err != nil || ans.status >= 400 {
		return e.fail(ctx, attempt, ans, err)
	}
	return nil
}

// Failed is a failure the caller found itself: a request it will not send, or an answer it
// cannot use. It is never Retryable: the same request would meet the same end.
func (e *Endpoint) Failed(err error) *Error {
	return &Error{API: e.api, Provider: e.provider, Err: err}
}

// post sends payload and reads the answer. An error with a non-zero status is an answer
// whose body could not be read in full.
func (e *Endpoint) post(ctx context.Context, payload any) (answer, error) {
	res, err := e.send(ctx, payload, "")
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	return readAnswer(res)
}

// send posts payload and returns the provider's answer unread; accept, when set, replaces
// the endpoint's Accept header.
func (e *Endpoint) send(ctx context.Context, payload any, accept string) (*http.Response, error) {
	if e.err != nil {
		return nil, e.err
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = e.header.Clone()
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return e.client.Do(req)
}

// readAnswer reads an answer whole, up to MaxResponseBytes.
func readAnswer(res *http.Response) (answer, error) {
	a := answer{status: res.StatusCode, header: res.Header}
	var err error
	a.body, err = io.ReadAll(io.LimitReader(res.Body, MaxResponseBytes+1))
	if err == nil && len(a.body) > MaxResponseBytes {
		err = ErrResponseTooLarge
	}
	return a, err
}

// ResolveEndpoint resolves path against base the way the official SDKs did, so that
// configured base URLs keep meaning what they meant: a base with a path gets a trailing
// slash before path is added, so "https://api.openai.com/v1" and ".../v1/" both give
// ".../v1/chat/completions", and a gateway base "https://gw.example/anthropic" gives
// ".../anthropic/v1/messages".
func ResolveEndpoint(base, path string) (*url.URL, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, errors.New("base URL does not parse")
	}
	if u.Path != "" && !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.Parse(path)
}

// CheckBaseURL accepts an absolute http(s) URL. The message names only the scheme and host
// problem, since a URL can carry credentials.
func CheckBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("base URL does not parse")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("base URL must start with http:// or https://")
	}
	if u.Host == "" {
		return errors.New("base URL has no host")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return errors.New("base URL must not have a query or fragment")
	}
	return nil
}

// DefaultHTTPClient owns its transport, so that nothing else that tunes
// http.DefaultTransport changes how we talk to providers. It has no overall timeout: each
// attempt's timeout and the caller's context govern.
func DefaultHTTPClient() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return &http.Client{Transport: t.Clone()}
	}
	return &http.Client{Transport: http.DefaultTransport}
}
