package sdk

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"svc/sdk/go/svcclient"
)

// requireTool finds a program on PATH or skips the test; under SVC_REQUIRE_SDK=1 (CI) a
// missing program fails it, so the libraries' tests cannot silently stop running there.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("SVC_REQUIRE_SDK") == "1" {
			t.Fatalf("%s is not on PATH and SVC_REQUIRE_SDK=1", name)
		}
		t.Skipf("%s is not on PATH (SVC_REQUIRE_SDK=1 makes this a failure)", name)
	}
	return p
}

// The committed dist/ is what the pinned TypeScript compiler makes of src/ today (which
// also type-checks src/): `cd sdk/typescript && npm ci && npm run build` after a change.
func TestTypeScriptDistIsFresh(t *testing.T) {
	t.Parallel()
	node := requireTool(t, "node")
	tsc := filepath.Join("typescript", "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		if os.Getenv("SVC_REQUIRE_SDK") == "1" {
			t.Fatalf("%s is missing (run npm ci in sdk/typescript) and SVC_REQUIRE_SDK=1", tsc)
		}
		t.Skipf("%s is missing: run npm ci in sdk/typescript", tsc)
	}
	out := t.TempDir()
	cmd := exec.Command(node, filepath.Join("node_modules", "typescript", "bin", "tsc"), "-p", ".", "--outDir", out)
	cmd.Dir = "typescript"
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, msg)
	}
	fresh, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadDir(filepath.Join("typescript", "dist"))
	if err != nil {
		t.Fatal(err)
	}
	names := func(es []os.DirEntry) []string {
		var n []string
		for _, e := range es {
			n = append(n, e.Name())
		}
		return n
	}
	if !slices.Equal(names(fresh), names(committed)) {
		t.Fatalf("dist/ holds %v, a fresh build %v: run npm run build in sdk/typescript", names(committed), names(fresh))
	}
	for _, e := range fresh {
		a, _ := os.ReadFile(filepath.Join(out, e.Name()))
		b, _ := os.ReadFile(filepath.Join("typescript", "dist", e.Name()))
		if !bytes.Equal(a, b) {
			t.Errorf("dist/%s differs from a fresh build of src/: run npm run build in sdk/typescript", e.Name())
		}
	}
}

// The three libraries carry one version, and say so everywhere they state it.
func TestVersionsAgree(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, pattern string }{
		{"typescript/package.json", `"version": "([^"]+)"`},
		{"typescript/src/client.ts", `VERSION = "([^"]+)"`},
		{"typescript/dist/client.js", `VERSION = "([^"]+)"`},
		{"python/pyproject.toml", `(?m)^version = "([^"]+)"`},
		{"python/svc_client/client.py", `__version__ = "([^"]+)"`},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if m := regexp.MustCompile(c.pattern).FindSubmatch(src); m != nil {
			got = string(m[1])
		}
		if got != svcclient.Version {
			t.Errorf("%s: version %q, the Go library's is %s", c.file, got, svcclient.Version)
		}
	}
}
