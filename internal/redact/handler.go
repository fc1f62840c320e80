package redact

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler is a slog.Handler that redacts secrets (see String) from a record's message and
// from every attribute's value, at any depth of groups, before the wrapped handler sees it.
// Errors, Stringers and other values are redacted through their text; a value that holds no
// secret is passed on unchanged, so structured output keeps its shape.
type Handler struct {
	next slog.Handler
}

// NewHandler wraps h; a Handler is returned as it is, so wrapping twice costs nothing.
func NewHandler(h slog.Handler) slog.Handler {
	if r, ok := h.(*Handler); ok {
		return r
	}
	return &Handler{next: h}
}

// Logger returns a logger whose records are redacted; l itself when it already is.
func Logger(l *slog.Logger) *slog.Logger {
	if _, ok := l.Handler().(*Handler); ok {
		return l
	}
	return slog.New(NewHandler(l.Handler()))
}

// Enabled implements slog.Handler.
func (h *Handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

// Handle implements slog.Handler.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = attr(a)
	}
	return &Handler{next: h.next.WithAttrs(red)}
}

// WithGroup implements slog.Handler.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name)}
}

func attr(a slog.Attr) slog.Attr {
	a.Value = value(a.Value.Resolve())
	return a
}

func value(v slog.Value) slog.Value {
	switch v.Kind() {
	case slog.KindString:
		return slog.StringValue(String(v.String())) // String returns s itself when it holds no secret
	case slog.KindGroup:
		as := v.Group()
		red := make([]slog.Attr, len(as))
		for i, a := range as {
			red[i] = attr(a)
		}
		return slog.GroupValue(red...)
	case slog.KindAny:
		var s string
		switch x := v.Any().(type) {
		case nil:
			return v
		case error:
			s = x.Error()
		case fmt.Stringer:
			s = x.String()
		case []byte:
			s = string(x)
		default:
			s = fmt.Sprintf("%+v", x)
		}
		if Contains(s) {
			return slog.StringValue(String(s))
		}
	}
	return v
}
