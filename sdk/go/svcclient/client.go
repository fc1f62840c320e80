// Package svcclient is the Go client of svc's HTTP API: the Chat API, the marketing generator,
// the Intelligence API, embed-token management and the knowledge-base API. It uses only the
// standard library.
//
// Every call returns the action's typed data or an error; a refusal of the service is an
// *APIError carrying the envelope's error code and message, the HTTP status and the request
// id. A 429 answer (and a 503 to a read) is retried after its Retry-After, at most
// MaxRetries times and only when the wait is no longer than MaxRetryWait.
package svcclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Version is the version of this client library.
const Version = "0.1.0"

// Defaults of a new Client.
const (
	DefaultTimeout      = 60 * time.Second
	DefaultMaxRetries   = 2
	DefaultMaxRetryWait = 30 * time.Second
)

// maxResponse bounds the bytes read from one response: the largest answers (a full
// marketing strategy, a page of 100 documents) are far below it.
const maxResponse = 32 << 20

// Client calls one svc service with one secret key. It is safe for concurrent use.
type Client struct {
	base         *url.URL
	key          string
	http         *http.Client
	timeout      time.Duration
	maxRetries   int
	maxRetryWait time.Duration
	userAgent    string
	// sleep waits d or until ctx ends; tests replace it so that no test waits.
	sleep func(ctx context.Context, d time.Duration) error
}

// Option changes a Client's settings.
type Option func(*Client)

// WithHTTPClient makes the client send its requests through h (for a proxy, custom TLS or a
// test transport). Its own Timeout, if any, applies besides WithTimeout's.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithTimeout bounds each attempt of a call (DefaultTimeout; 0 means no bound beyond the
// caller's context).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithRetries sets how many times a 429 (or a 503 to a read) is retried (DefaultMaxRetries;
// 0 never retries) and the longest Retry-After waited for (DefaultMaxRetryWait): a longer
// one, such as a daily limit's, is returned at once as the *APIError.
func WithRetries(max int, maxWait time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.maxRetryWait = max, maxWait }
}

// WithUserAgent sets the User-Agent header, for example to name your application.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// New returns a client of the service at baseURL (for example "https://svc.example.com")
// authenticated by the secret key apiKey ("svc_pk_…").
func New(baseURL, apiKey string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(baseURL), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("svcclient: base URL %q: want http(s)://host[:port]", baseURL)
	}
	if strings.TrimSpace(apiKey) == "" {
		return nil, errors.New("svcclient: the API key is empty")
	}
	c := &Client{base: u, key: apiKey, http: http.DefaultClient, timeout: DefaultTimeout,
		maxRetries: DefaultMaxRetries, maxRetryWait: DefaultMaxRetryWait,
		userAgent: "svc-go/" + Version, sleep: sleepCtx}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// APIError is a refusal of the service: the envelope's error code and message, with the
// HTTP status, the request id (X-Request-Id) and, on a 429 or 503, the Retry-After.
type APIError struct {
	Status     int
	Code       string // the envelope's "error": bad_request, unauthorized, not_found, rate_limited, ...
	Message    string // the envelope's "message": a human sentence
	RequestID  string
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("svc: %d %s: %s", e.Status, e.Code, e.Message)
	if e.RequestID != "" {
		s += " (request " + e.RequestID + ")"
	}
	return s
}

// IsCode reports whether err is an *APIError with the given error code.
func IsCode(err error, code string) bool {
	var e *APIError
	return errors.As(err, &e) && e.Code == code
}

// request is one call: its operation, query or body, and where its data goes.
type request struct {
	op          string
	query       url.Values
	body        []byte // nil for none; kept whole so that a retry sends it again
	contentType string
}

// jsonRequest is a POST of fields as a JSON object.
func jsonRequest(op string, fields any) (request, error) {
	b, err := json.Marshal(fields)
	if err != nil {
		return request{}, fmt.Errorf("svcclient: %s: %w", op, err)
	}
	return request{op: op, body: b, contentType: "application/json"}, nil
}

// envelope is every JSON answer of the service.
type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
}

// call sends r, retrying as the options say, and decodes the envelope's data into out.
func (c *Client) call(ctx context.Context, r request, out any) error {
	op, ok := lookup(r.op)
	if !ok {
		return fmt.Errorf("svcclient: unknown operation %q", r.op)
	}
	for attempt := 0; ; attempt++ {
		data, err := c.once(ctx, op, r)
		var ae *APIError
		if errors.As(err, &ae) && attempt < c.maxRetries && c.retryable(op, ae) {
			wait := ae.RetryAfter
			if wait <= 0 {
				wait = time.Second
			}
			if err := c.sleep(ctx, wait); err != nil {
				return ae
			}
			continue
		}
		if err != nil {
			return err
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("svcclient: %s: decoding data: %w", op.Name, err)
		}
		return nil
	}
}

// retryable says whether a refusal is worth sending again: a rate limit whose wait is within
// bounds, or an unavailable database under a read (a write may have been applied).
func (c *Client) retryable(op Operation, e *APIError) bool {
	switch {
	case e.Status == http.StatusTooManyRequests:
	case e.Status == http.StatusServiceUnavailable && op.Method == http.MethodGet:
	default:
		return false
	}
	return e.RetryAfter <= c.maxRetryWait
}

// once makes one attempt and returns the envelope's data.
func (c *Client) once(ctx context.Context, op Operation, r request) (json.RawMessage, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	u := *c.base
	u.Path += op.Path()
	u.RawQuery = r.query.Encode()
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, op.Method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("svcclient: %s: %w", op.Name, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("svcclient: %s: %w", op.Name, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, fmt.Errorf("svcclient: %s: reading the answer: %w", op.Name, err)
	}
	var env envelope
	jsonErr := json.Unmarshal(raw, &env)
	if resp.StatusCode/100 == 2 && jsonErr == nil && env.Success {
		return env.Data, nil
	}
	e := &APIError{Status: resp.StatusCode, Code: env.Error, Message: env.Message,
		RequestID: resp.Header.Get("X-Request-Id"), RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
	if jsonErr != nil || e.Code == "" {
		// Not the service's envelope: a proxy's page, or a server of something else.
		e.Code = "invalid_response"
		e.Message = fmt.Sprintf("HTTP %d with a body that is not the service's JSON envelope", resp.StatusCode)
	}
	return nil, e
}

// retryAfter reads a Retry-After header: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
