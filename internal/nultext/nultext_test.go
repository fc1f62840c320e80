package nultext_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"svc/internal/errs"
	"svc/internal/nultext"
)

func TestFieldNamesTheField(t *testing.T) {
	t.Parallel()
	if err := nultext.Field("email", "pg@x.example"); err != nil {
		t.Fatalf("clean text refused: %v", err)
	}
	err := nultext.Field("email", "pg\x00@x.example")
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.BadRequest || !errors.Is(err, nultext.ErrNUL) {
		t.Fatalf("got %v, want a bad-request error that is ErrNUL", err)
	}
	if !strings.Contains(err.Error(), `"email"`) || e.Key != "err.text.nul_field" || len(e.Args) != 1 || e.Args[0] != "email" {
		t.Fatalf("the refusal does not name the field: %q key %q args %v", err.Error(), e.Key, e.Args)
	}
}

func TestValuesChecksNamesAndEveryValueInNameOrder(t *testing.T) {
	t.Parallel()
	if err := nultext.Values(url.Values{"q": {"ab"}, "page": {"2"}}); err != nil {
		t.Fatalf("clean form refused: %v", err)
	}
	for _, tc := range []struct {
		v    url.Values
		name string
	}{
		{url.Values{"q": {"a\x00b"}, "z": {"\x00"}}, "q"},
		{url.Values{"tags": {"ok", "b\x00d"}}, "tags"},
		{url.Values{"na\x00me": {"v"}}, "name"},
		{url.Values{strings.Repeat("x", 60) + "\x00": {""}}, strings.Repeat("x", 40) + "…"},
	} {
		err := nultext.Values(tc.v)
		e, ok := errs.As(err)
		if !ok || len(e.Args) != 1 || e.Args[0] != tc.name {
			t.Errorf("%v: got %v, want the field %q named", tc.v, err, tc.name)
		}
		if strings.ContainsRune(err.Error(), 0) {
			t.Errorf("%v: the message echoes a NUL: %q", tc.v, err.Error())
		}
	}
}

func TestStripAndStored(t *testing.T) {
	t.Parallel()
	if got := nultext.Strip("a\x00b\x00"); got != "ab" {
		t.Fatalf("Strip: %q", got)
	}
	if got := nultext.Strip("plain"); got != "plain" {
		t.Fatalf("Strip changed clean text: %q", got)
	}
	err := nultext.Stored()
	if errs.KindOf(err) != errs.BadRequest || !errors.Is(err, nultext.ErrNUL) {
		t.Fatalf("Stored: %v", err)
	}
}
