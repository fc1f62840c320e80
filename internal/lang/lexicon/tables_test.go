package lexicon

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// minTable is the number of word-like quoted entries that make a Go literal a word table.
const minTable = 6

// allowedTables are the Go files outside this package that may still hold word tables, each
// with the reason. A file leaves the list when its tables move into data files.
var allowedTables = map[string]string{
	// Not language data: identifiers, keys, path segments, SQL table names, test fixtures.
	"internal/api/embed_surface.go":                "the embed surface's action names",
	"internal/cli/cli.go":                          "command names",
	"internal/cli/privacy.go":                      "privacy command's flag and field names",
	"internal/crawl/article.go":                    "URL path segments of help and blog pages",
	"internal/crawl/docs.go":                       "URL path segments and file names of documentation sites",
	"internal/dashboard/funcs.go":                  "template function names",
	"internal/embed/surgetest/surgetest.go":        "test fixture text",
	"internal/engine/answerability.go":             "the answerability model's feature names, as its data file spells them",
	"internal/engine/replytexts.go":                "the i18n catalog's key names of the lead-ins",
	"internal/eval/sitetest/render.go":             "test fixture text",
	"internal/eval/sitetest/titles.go":             "test fixture page titles",
	"internal/extract/breadcrumbs.go":              "CSS class names",
	"internal/fetch/guard.go":                      "descriptions of blocked address ranges",
	"internal/grounding/amounts.go":                "amount connectors (-, x, /), not words",
	"internal/grounding/concepts.go":               "concept ids a family yields to, not words",
	"internal/kb/htmltext.go":                      "HTML element names",
	"internal/llm/llmtest/anthropic.go":            "stop reasons of a fake provider",
	"internal/llm/llmtest/openai.go":               "stop reasons of a fake provider",
	"internal/marketing/parse.go":                  "JSON keys a model may wrap its answer in",
	"internal/openapi/validate/validator.go":       "JSON Schema keywords",
	"internal/store/sqlstore/account_delete.go":    "SQL table names",
	"internal/store/storetest/answers.go":          "test fixture text",
	"internal/store/storetest/catalog.go":          "test fixture text",
	"internal/store/storetest/dashboard_review.go": "test fixture text",
	"internal/textindex/fold.go":                   "letters and their ASCII base, not words",
}

// TestNoWordTablesInGo fails when a Go file (tests aside) outside this package holds a word
// or phrase table: a composite literal with minTable or more word-like string entries, or one
// string of minTable or more lower-case words (a list split with strings.Fields). Language
// data belongs in data files, where it is validated and kept in one copy.
func TestNoWordTablesInGo(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{}
	for _, dir := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if path == here || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			for file, lines := range packageTables(t, path) {
				rel, _ := filepath.Rel(root, file)
				found[filepath.ToSlash(rel)] = lines
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	for file, at := range found {
		if _, ok := allowedTables[file]; !ok {
			slices.SortFunc(at, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
			t.Errorf("%s holds word tables at %s: move them into internal/lang/lexicon/data", file, strings.Join(at, ", "))
		}
	}
	for file := range allowedTables {
		if _, ok := found[file]; !ok {
			t.Errorf("%s is allowed word tables but holds none: take it off allowedTables", file)
		}
	}
}

// packageTables returns the lines of the word tables in the Go files (tests aside) of one
// directory, by file. The files are read together, so a splitting helper declared in one
// file (wordFlags) is known in the others.
func packageTables(t *testing.T, dir string) map[string][]string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", path, err)
		}
		files[path] = f
	}
	splitters := splitFuncs(files)
	out := map[string][]string{}
	for path, f := range files {
		if lines := wordTables(fset, f, splitters); len(lines) > 0 {
			out[path] = lines
		}
	}
	return out
}

// wordTables returns the lines of the word tables in one parsed file.
func wordTables(fset *token.FileSet, f *ast.File, splitters func(ast.Expr) bool) []string {
	var out []string
	at := func(n ast.Node) { out = append(out, strconv.Itoa(fset.Position(n.Pos()).Line)) }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			count := 0
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					count += wordLit(kv.Key)
					e = kv.Value
				}
				count += wordLit(e)
				if wordList(e) {
					at(e)
				}
			}
			if count >= minTable {
				at(n)
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				if wordList(v) {
					at(v)
				}
			}
		case *ast.CallExpr:
			if len(n.Args) == 1 && wordList(n.Args[0]) && splitters(n.Fun) {
				at(n)
			}
			// A helper of the package called with the entries is a table too: phrases("sale", …).
			// Methods and other packages' functions (log calls with their keys) are not.
			if _, local := n.Fun.(*ast.Ident); !local {
				break
			}
			count := 0
			for _, a := range n.Args {
				count += wordLit(a)
			}
			if count >= minTable {
				at(n)
			}
		}
		return true
	})
	return out
}

// splitFuncs returns a test for the callees that split a string into words: strings.Fields,
// and the functions of the package that hand their parameter to it (wordFlags, wordSet).
func splitFuncs(files map[string]*ast.File) func(ast.Expr) bool {
	isFields := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "strings" && (sel.Sel.Name == "Fields" || sel.Sel.Name == "Split")
	}
	local := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && isFields(c.Fun) {
					local[fd.Name.Name] = true
				}
				return true
			})
		}
	}
	return func(e ast.Expr) bool {
		if id, ok := e.(*ast.Ident); ok {
			return local[id.Name]
		}
		return isFields(e)
	}
}

// wordList reports whether e is one string literal of minTable or more words, the way a word
// list is written for strings.Fields.
func wordList(e ast.Expr) bool {
	bl, ok := e.(*ast.BasicLit)
	if !ok {
		return false
	}
	s, ok := unquote(bl)
	ws := strings.Fields(s)
	return ok && len(ws) >= minTable && allWords(ws)
}

// wordLit is 1 when e is a string literal that reads as a word or phrase of a language: lower
// case letters, spaces, apostrophes and hyphens (a trailing '*' marks a prefix), 0 otherwise.
// Identifiers, paths, formats, SQL and prose with capitals or punctuation do not count.
func wordLit(e ast.Expr) int {
	bl, ok := e.(*ast.BasicLit)
	if !ok {
		return 0
	}
	s, ok := unquote(bl)
	if !ok || strings.TrimSpace(s) == "" {
		return 0
	}
	if allWords(strings.Fields(strings.TrimSuffix(s, "*"))) {
		return 1
	}
	return 0
}

func unquote(bl *ast.BasicLit) (string, bool) {
	if bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}

func allWords(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		letters := 0
		for _, r := range w {
			switch {
			case unicode.IsLetter(r) && !unicode.IsUpper(r):
				letters++
			case r == '\'' || r == '’' || r == '-':
			default:
				return false
			}
		}
		if letters == 0 {
			return false
		}
	}
	return true
}
