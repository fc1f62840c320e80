package llm

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
)

// The clients speak the two wire protocols with net/http and encoding/json rather than
// through the providers' SDKs: each SDK models its whole API, and together they added 44 MB
// to the service binary (30 MB of it stripped) for the one endpoint each that is used.

// maxResponseBytes bounds what is read of an answer. A completion is a few kilobytes; the
// bound only stops a broken or hostile endpoint from filling memory.
const maxResponseBytes = 16 << 20

// userAgent names the service to the provider.
const userAgent = "svc-llm/1"

// errResponseTooLarge is an answer past maxResponseBytes.
var errResponseTooLarge = fmt.Errorf("response larger than %d bytes", maxResponseBytes)

// errCrossOriginRedirect stops a redirect away from the base URL's scheme and host, which
// would carry the API key to another server: Go's client drops Authorization on such a
// redirect but not x-api-key.
var errCrossOriginRedirect = errors.New("redirect to another origin refused")

// poster sends requests to one endpoint of a provider.
type poster struct {
	client   *http.Client
	endpoint string
	header   http.Header // sent with every request: authentication, versions, content type
	err      error       // the endpoint did not resolve; reported by every post
}

// answer is a provider's HTTP answer, read whole.
type answer struct {
	status int // 0 when no answer came
	header http.Header
	body   []byte
}

// newPoster prepares posting to path under base. The client is copied so that redirects
// can be kept on base's origin without changing the caller's client.
func newPoster(client *http.Client, base, path string, header http.Header) *poster {
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json")
	header.Set("User-Agent", userAgent)
	p := &poster{header: header}
	u, err := endpoint(base, path)
	if err != nil {
		p.err = err
		return p
	}
	p.endpoint = u.String()
	c := *client
	next := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != u.Scheme || req.URL.Host != u.Host {
			return errCrossOriginRedirect
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 { // net/http's own default
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	p.client = &c
	return p
}

// endpoint resolves path against base the way both SDKs did, so that configured base URLs
// keep meaning what they meant: a base with a path gets a trailing slash before path is
// added, so "https://api.openai.com/v1" and ".../v1/" both give ".../v1/chat/completions",
// and a gateway base "https://gw.example/anthropic" gives ".../anthropic/v1/messages".
func endpoint(base, path string) (*url.URL, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, errors.New("base URL does not parse")
	}
	if u.Path != "" && !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.Parse(path)
}

// post sends payload as JSON and reads the answer. An error with a non-zero status is an
// answer whose body could not be read in full.
func (p *poster) post(ctx context.Context, payload any) (answer, error) {
	if p.err != nil {
		return answer{}, p.err
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return answer{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header = p.header.Clone()
	res, err := p.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode, header: res.Header}
	a.body, err = io.ReadAll(io.LimitReader(res.Body, maxResponseBytes+1))
	if err == nil && len(a.body) > maxResponseBytes {
		err = errResponseTooLarge
	}
	return a, err
}

// decode reads a successful answer into out.
func (a answer) decode(out any) error {
	if err := json.Unmarshal(a.body, out); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}
