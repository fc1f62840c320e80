package fetch

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// capReader returns at most limit bytes of r and then fails with tooLarge if
// r has more. It reads at most limit+1 bytes from r in total, so a body of any
// size (or an endless one) costs no more than the limit.
type capReader struct {
	r         io.Reader
	remaining int64 // bytes still allowed; -1 once the limit was crossed
	tooLarge  error
}

func newCapReader(r io.Reader, limit int64, tooLarge error) *capReader {
	return &capReader{r: r, remaining: limit, tooLarge: tooLarge}
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.remaining < 0 {
		return 0, c.tooLarge
	}
	// Ask for one byte beyond the limit so that "exactly at the limit" and
	// "over the limit" can be told apart.
	if int64(len(p)) > c.remaining+1 {
		p = p[:c.remaining+1]
	}
	n, err := c.r.Read(p)
	if int64(n) > c.remaining {
		n = int(c.remaining)
		c.remaining = -1
		return n, c.tooLarge
	}
	c.remaining -= int64(n)
	return n, err
}

// gzipSlack is how much larger than the decompressed limit a compressed body
// may be. Real gzip adds a few bytes per 64 KiB block even for incompressible
// data; a body far larger than its output is a stream of empty blocks meant to
// keep us reading.
const gzipSlack = 1 << 20

// bodyReader is a response body wrapped with our limits. Close releases the
// connection and the request's deadline.
type bodyReader struct {
	io.Reader
	ctx     context.Context
	closers []func() error
	cancel  context.CancelFunc
	timeout time.Duration
}

// Read turns errors caused by our own deadline into ErrTimeout, whatever the
// layer below chose to report.
func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = deadlineError(b.ctx, b.timeout, err)
	}
	return n, err
}

func (b *bodyReader) Close() error {
	var first error
	for i := len(b.closers) - 1; i >= 0; i-- {
		if err := b.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	b.cancel()
	return first
}

// deadlineError reports err in terms of ctx once ctx is done: ErrTimeout (and
// context.DeadlineExceeded) when our own per-request timer fired, the
// caller's cause when the caller cancelled. The layers below report a dead
// context in several ways (closed connection, "request canceled", the cause
// itself...); this gives callers one thing to test. A timeout of the
// transport's own (connect, TLS handshake, response header) is also reported
// as ErrTimeout. Other errors pass through.
func deadlineError(ctx context.Context, timeout time.Duration, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		if cause == ErrTimeout {
			return fmt.Errorf("%w after %s: %w", ErrTimeout, timeout, context.DeadlineExceeded)
		}
		if errors.Is(err, cause) {
			return err
		}
		return fmt.Errorf("%w: %v", cause, err)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && !errors.Is(err, ErrTimeout) {
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return err
}

// decodeContentEncoding wraps raw according to Content-Encoding. We only ever
// advertise gzip, so anything else (except identity) is refused rather than
// handed on as garbage.
func decodeContentEncoding(raw io.Reader, encoding string, limit int64) (io.Reader, func() error, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return raw, nil, nil
	case "gzip", "x-gzip":
		compressed := newCapReader(raw, limit+gzipSlack, fmt.Errorf("compressed body over %d bytes: %w", limit+gzipSlack, ErrTooLarge))
		zr, err := gzip.NewReader(bufio.NewReader(compressed))
		if err != nil {
			return nil, nil, fmt.Errorf("gzip body: %w", err)
		}
		return zr, zr.Close, nil
	default:
		return nil, nil, fmt.Errorf("%w: %q", ErrEncoding, encoding)
	}
}

// readAll reads r to the end. The buffer starts at the Content-Length when
// that is plausible, so common bodies need one allocation, and never grows
// past limit+1 (the most a capReader can deliver), so an oversized body costs
// about the limit, not twice it.
func readAll(r io.Reader, hint, limit int64) ([]byte, error) {
	size := int64(512)
	if hint > 0 && hint <= limit {
		size = hint + 1
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(2*int64(cap(buf)), limit+1)+1)
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// discardLimit is how much of an unwanted body (error pages, redirects) we
// read so the connection can be reused; anything longer closes it instead.
const discardLimit = 4 << 10

func drainAndClose(rc io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, rc, discardLimit)
	_ = rc.Close()
}
