package widget

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"svc/internal/widget/bundle"
)

// The committed bundle is what the sources build to today.
func TestDistIsFresh(t *testing.T) {
	fresh, err := bundle.Build(".")
	if err != nil {
		t.Fatalf("building src: %v", err)
	}
	if !bytes.Equal(fresh, Script()) {
		t.Fatalf("dist/widget.js (%d bytes) differs from a fresh build of src/ (%d bytes): run go generate ./internal/widget", len(Script()), len(fresh))
	}
	if !bytes.HasPrefix(Script(), []byte(bundle.Banner+"\n")) {
		t.Errorf("bundle does not start with the banner %q", bundle.Banner)
	}
}

// The widget renders server text with DOM APIs only.
func TestNoUnsafeRendering(t *testing.T) {
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"} {
		if i := bytes.Index(Script(), []byte(bad)); i >= 0 {
			lo, hi := max(0, i-60), min(len(Script()), i+60)
			t.Errorf("bundle contains %q: …%s…", bad, Script()[lo:hi])
		}
	}
}

const gzipBudget = 12 << 10

func TestGzip(t *testing.T) {
	gz := Gzip()
	t.Logf("widget.js: %d bytes, %d bytes gzipped (budget %d)", len(Script()), len(gz), gzipBudget)
	if len(gz) > gzipBudget {
		t.Errorf("gzipped bundle is %d bytes, over the %d byte budget", len(gz), gzipBudget)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain, Script()) {
		t.Error("Gzip() does not decompress to Script()")
	}
	if &Gzip()[0] != &gz[0] {
		t.Error("Gzip() is computed more than once")
	}
}

func TestETag(t *testing.T) {
	e := ETag()
	if len(e) != 34 || !strings.HasPrefix(e, `"`) || !strings.HasSuffix(e, `"`) || strings.HasPrefix(e, "W/") {
		t.Fatalf("ETag() = %s, want a quoted 32-hex strong tag", e)
	}
	if ETag() != e {
		t.Error("ETag() is not stable")
	}
}
