package dashboard

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"svc/internal/i18n"
)

// Every catalog key the templates and the handlers name literally exists, so no page shows
// a raw key. Keys built at run time (printf "lang.%s") are covered by the pages' tests.
func TestEveryKeyUsedIsInTheCatalog(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	tmplKey := regexp.MustCompile(`\.(?:T|N) "([a-z0-9_.]+)"`)
	goKey := regexp.MustCompile(`"((?:flash|error|auth|profile|assistant|developer|overview|billing|conversations|review|kb|widget|studio|team|nav|action|pager|transcript|tone|lang|role|tests)\.[a-z0-9_.]+)"`)
	found := 0
	check := func(file, key string) {
		found++
		if !cat.Has(key) && !cat.Has(key+".one") {
			t.Errorf("%s: catalog key %q does not exist", file, key)
		}
	}
	err = fs.WalkDir(templateFS, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templateFS, p)
		if err != nil {
			return err
		}
		for _, m := range tmplKey.FindAllStringSubmatch(string(b), -1) {
			check(p, m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goKey.FindAllStringSubmatch(string(b), -1) {
			if strings.HasSuffix(m[1], ".") || strings.HasSuffix(m[1], "_") {
				continue // a prefix a key is built from
			}
			check(f, m[1])
		}
	}
	if found < 100 {
		t.Fatalf("found only %d keys: the patterns no longer match the code", found)
	}
}
