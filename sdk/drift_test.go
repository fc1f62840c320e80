package sdk

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"svc/internal/openapi"
	"svc/sdk/go/svcclient"
)

// notForLibraries are the document's tags whose operations no client library makes, each
// for a reason: embed is the widget's own surface (DECISIONS.md: internal, unversioned),
// widget the script and the demo page, legacy the same actions under their pre-v1 URL, and
// operations the liveness, readiness and document endpoints a client never needs a key for.
var notForLibraries = map[string]bool{"embed": true, "widget": true, "legacy": true, "operations": true}

// pendingKB are the knowledge-base API's actions (DECISIONS.md "Knowledge-base API"), which
// the libraries call before the document describes them: the server side lands on its own.
// Once the document has them they are checked like every other operation.
var pendingKB = []string{
	"GET kb/documents", "POST kb/documentUpload", "POST kb/documentDelete", "POST kb/qaCreate",
	"POST kb/qaUpdate", "POST kb/qaDelete", "POST kb/productsUpsert", "POST kb/import",
	"POST kb/crawlStart", "GET kb/crawlStatus",
}

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// documentOperations lists the operations of an OpenAPI document a client library must
// make, as "METHOD name" with name the path under /api/v1/. A path template whose parameter
// is an enum stands for one operation per value (/api/v1/intelligence/{op}); one whose
// parameter is free is a catch-all describing the refusal of unknown names, and no operation.
// A path outside /api/v1/ is returned whole, so that it shows as missing from every library.
func documentOperations(doc []byte) ([]string, error) {
	var d struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	type param struct {
		Name   string          `json:"name"`
		In     string          `json:"in"`
		Schema json.RawMessage `json:"schema"`
	}
	type op struct {
		Tags       []string `json:"tags"`
		Parameters []param  `json:"parameters"`
	}
	// enum resolves a schema (through $ref) to its enum, or nil.
	var enum func(raw json.RawMessage, depth int) []string
	enum = func(raw json.RawMessage, depth int) []string {
		var s struct {
			Ref  string   `json:"$ref"`
			Enum []string `json:"enum"`
		}
		if json.Unmarshal(raw, &s) != nil || depth > 8 {
			return nil
		}
		if name, ok := strings.CutPrefix(s.Ref, "#/components/schemas/"); ok {
			return enum(d.Components.Schemas[name], depth+1)
		}
		return s.Enum
	}
	placeholder := regexp.MustCompile(`\{([^}]+)\}`)
	var out []string
	for path, item := range d.Paths {
		var shared []param
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				return nil, err
			}
		}
		for _, m := range httpMethods {
			raw, ok := item[m]
			if !ok {
				continue
			}
			var o op
			if err := json.Unmarshal(raw, &o); err != nil {
				return nil, err
			}
			if slices.ContainsFunc(o.Tags, func(t string) bool { return notForLibraries[t] }) {
				continue
			}
			names := []string{path}
			catchAll := false
			for _, ph := range placeholder.FindAllStringSubmatch(path, -1) {
				var values []string
				for _, p := range append(slices.Clone(shared), o.Parameters...) {
					if p.In == "path" && p.Name == ph[1] {
						values = enum(p.Schema, 0)
					}
				}
				if len(values) == 0 {
					catchAll = true
					break
				}
				var next []string
				for _, n := range names {
					for _, v := range values {
						next = append(next, strings.Replace(n, ph[0], v, 1))
					}
				}
				names = next
			}
			if catchAll {
				continue
			}
			for _, n := range names {
				if rest, ok := strings.CutPrefix(n, "/api/v1/"); ok {
					n = rest
				}
				out = append(out, strings.ToUpper(m)+" "+n)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// tableEntries reads an operation table from a library's source: each match of re holds the
// name and the method, in that order.
func tableEntries(t *testing.T, file string, re *regexp.Regexp) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		out = append(out, m[2]+" "+m[1])
	}
	if len(out) == 0 {
		t.Fatalf("%s: no operation table found", file)
	}
	sort.Strings(out)
	return out
}

// libraries returns each library's operations, as "METHOD name".
func libraries(t *testing.T) map[string][]string {
	var goOps []string
	for _, o := range svcclient.Operations() {
		goOps = append(goOps, o.Method+" "+o.Name)
	}
	sort.Strings(goOps)
	return map[string][]string{
		"go":         goOps,
		"typescript": tableEntries(t, "typescript/src/operations.ts", regexp.MustCompile(`(?m)^\s*"([A-Za-z]+/[A-Za-z]+)":\s*"(GET|POST)",`)),
		"python":     tableEntries(t, "python/svc_client/_operations.py", regexp.MustCompile(`(?m)^\s*"([A-Za-z]+/[A-Za-z]+)":\s*"(GET|POST)",`)),
	}
}

// Every operation of the OpenAPI document is in every library, with the document's method,
// and a library calls nothing the document lacks but the knowledge-base API's pending actions.
func TestLibrariesCoverTheOpenAPIDocument(t *testing.T) {
	t.Parallel()
	want, err := documentOperations(openapi.Document())
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 18 {
		t.Fatalf("the document yields only %d operations: %v", len(want), want)
	}
	for name, ops := range libraries(t) {
		for _, w := range want {
			if !slices.Contains(ops, w) {
				t.Errorf("%s library: the document's operation %q is missing", name, w)
			}
		}
		for _, o := range ops {
			if !slices.Contains(want, o) && !slices.Contains(pendingKB, o) {
				t.Errorf("%s library: %q is in no document and in no decision", name, o)
			}
		}
	}
	for _, p := range pendingKB {
		if !slices.Contains(want, p) {
			t.Logf("not yet in the OpenAPI document (the KB API's server side): %s", p)
		}
	}
}

// The three libraries have the same operations, so one is never ahead of the others.
func TestLibrariesAgree(t *testing.T) {
	t.Parallel()
	libs := libraries(t)
	for name, ops := range libs {
		if !slices.Equal(ops, libs["go"]) {
			t.Errorf("%s library's operations differ from the Go library's:\n%v\n%v", name, ops, libs["go"])
		}
	}
}

// The drift check itself: an operation added to a document is reported missing, an enum
// path parameter expands, a catch-all and the excluded tags do not count.
func TestDocumentOperations(t *testing.T) {
	t.Parallel()
	doc := `{"paths":{
	  "/api/v1/chat/send":{"post":{"tags":["chat"]}},
	  "/api/v1/chat/newThing":{"get":{"tags":["chat"]}},
	  "/api/v1/chat/{action}":{"parameters":[{"name":"action","in":"path","schema":{"type":"string"}}],"get":{"tags":["chat"]}},
	  "/api/v1/intelligence/{op}":{"parameters":[{"name":"op","in":"path","schema":{"$ref":"#/components/schemas/Op"}}],
	    "post":{"tags":["intelligence"]},"x-svc-other-methods":{}},
	  "/api/v1/embed/send":{"post":{"tags":["embed"]}},
	  "/healthz":{"get":{"tags":["operations"]}},
	  "/elsewhere":{"get":{"tags":["new"]}}},
	 "components":{"schemas":{"Op":{"type":"string","enum":["answer","data"]}}}}`
	got, err := documentOperations([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /elsewhere", "GET chat/newThing", "POST chat/send", "POST intelligence/answer", "POST intelligence/data"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
