package dashboard

import (
	"os"
	"slices"
	"testing"
)

// The dashboard's assets stay small, and the vendored files are exactly the pinned
// packages' (when node_modules is installed, as in CI).
func TestAssetsGzippedSize(t *testing.T) {
	set, err := loadAssets()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.files) == 0 {
		t.Fatal("no assets are embedded")
	}
	// Each asset's gzipped size, for BENCHMARKS.md.
	names := make([]string, 0, len(set.files))
	total := 0
	for name, a := range set.files {
		names = append(names, name)
		total += len(a.gz)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Logf("%-28s %6d bytes gzipped", name, len(set.files[name].gz))
	}
	t.Logf("%-28s %6d bytes gzipped", "total", total)
	// htmx (~16 KB) and uPlot (~22 KB) are most of it; the budget leaves room for our own.
	if total > 80_000 {
		t.Errorf("the dashboard's assets are %d bytes gzipped, over the 80 KB budget", total)
	}
}

func TestVendoredFilesMatchThePinnedPackages(t *testing.T) {
	pairs := map[string]string{
		"assets/vendor/htmx.min.js":       "node_modules/htmx.org/dist/htmx.min.js",
		"assets/vendor/uPlot.iife.min.js": "node_modules/uplot/dist/uPlot.iife.min.js",
		"assets/vendor/uPlot.min.css":     "node_modules/uplot/dist/uPlot.min.css",
	}
	if _, err := os.Stat("node_modules"); err != nil {
		if os.Getenv("SVC_REQUIRE_BROWSER") == "1" {
			t.Fatal("node_modules is missing: run npm ci in internal/dashboard")
		}
		t.Skip("node_modules is not installed (npm ci in internal/dashboard)")
	}
	for vendored, pinned := range pairs {
		a, err := os.ReadFile(vendored)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(pinned)
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%s differs from %s: run go generate ./internal/dashboard", vendored, pinned)
		}
	}
}
