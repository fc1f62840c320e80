package validate

import (
	"bytes"

	"cmp"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"svc/internal/openapi"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// docURL names the embedded document inside the schema compiler. It is never fetched:
// the compiler is handed the document itself, and the name only anchors the $refs.
const docURL = "https://svc.invalid/api/v1/openapi.json"

// legacyPath is the pre-v1 form /api.php?endpoint=chat&action=<action>, which the service
// treats exactly as /api/v1/chat/<action>; the validator does the same.
const legacyPath = "/api.php"

// maxListed caps how many schema failures one error lists: a body that is wrong in one
// place can fail every branch of an anyOf, and a wall of text hides the first cause.
const maxListed = 8

// Validator checks HTTP responses against the embedded document. It is built once by
// NewValidator and only read afterwards, so one Validator may serve parallel tests.
type Validator struct {
	paths     []*pathEntry // concrete templates first, then by number of literal segments
	unmatched *response    // what any path the document does not list must answer
}

// pathEntry is one path template of the document.
type pathEntry struct {
	template string
	segments []segment
	ops      map[string]*operation // by upper-case method
	// notAllowed is the 405 response documented on one of the path's operations. Its
	// presence says that every undeclared method on the path answers 405.
	notAllowed *response
	// otherMethods, from the path item's x-svc-other-methods, lists by status what an
	// undeclared method may get on a path that checks credentials before the method (the
	// embed surface): it then replaces the "must be 405" rule.
	otherMethods *operation
}

// segment is one slash-separated part of a path template: a literal, or a parameter
// that matches any one non-empty segment.
type segment struct {
	literal string
	param   bool
}

type operation struct {
	id        string
	responses map[string]*response // by status key: "200", "4XX" or "default"
}

// response is a documented response with its schemas compiled.
type response struct {
	ptr     string // where the response object sits in the document
	content map[string]*mediaType
	headers []header
}

type mediaType struct {
	name   string
	schema *jsonschema.Schema // nil when the document gives no schema
}

type header struct {
	name     string
	required bool
	kind     string // JSON type of the header's schema, to know how to parse the text
	schema   *jsonschema.Schema
}

// NewValidator compiles the embedded document. It fails when the document is not valid
// JSON, a $ref does not resolve, or a schema is not valid JSON Schema 2020-12.
func NewValidator() (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapi.Document()))
	if err != nil {
		return nil, fmt.Errorf("openapi: document is not JSON: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("openapi: document is not a JSON object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Timestamps are part of the contract (RFC 3339), so format is asserted, not
	// just annotated as 2020-12 would do by default.
	c.AssertFormat()
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	b := builder{root: root, compiler: c}

	v := &Validator{}
	paths, ok := root["paths"].(map[string]any)
	if !ok {
		return nil, errors.New("openapi: document has no paths object")
	}
	for tmpl, raw := range paths {
		e, err := b.pathEntry(tmpl, raw)
		if err != nil {
			return nil, err
		}
		v.paths = append(v.paths, e)
	}
	slices.SortFunc(v.paths, func(a, b *pathEntry) int {
		return cmp.Or(
			cmp.Compare(a.params(), b.params()),
			-cmp.Compare(len(a.segments), len(b.segments)),
			cmp.Compare(a.template, b.template),
		)
	})

	if raw, ok := root["x-svc-unmatched-path"]; ok {
		if v.unmatched, err = b.response(raw, "/x-svc-unmatched-path"); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// params counts the parameter segments; OpenAPI matches concrete paths before templated
// ones, and fewer parameters is the more concrete.
func (e *pathEntry) params() int {
	n := 0
	for _, s := range e.segments {
		if s.param {
			n++
		}
	}
	return n
}

func (e *pathEntry) match(segs []string) bool {
	if len(segs) != len(e.segments) {
		return false
	}
	for i, s := range e.segments {
		if s.param {
			if segs[i] == "" {
				return false
			}
		} else if s.literal != segs[i] {
			return false
		}
	}
	return true
}

// ValidateResponse checks that a response to (method, u) with this status, header and
// body is one the document describes. The error, when not nil, names the request, the
// documented operation and each mismatch, with the JSON pointer of every failing field.
//
// Rules beyond plain OpenAPI, all stated in the document's info description:
//   - /api.php?endpoint=chat&action=A is checked as /api/v1/chat/A;
//   - a method a path does not declare must get the path's documented 405 (HEAD falls back
//     to GET, without a body), or, when the path item has x-svc-other-methods, one of the
//     responses listed there;
//   - a path the document does not list must get the x-svc-unmatched-path response (404).
func (v *Validator) ValidateResponse(method string, u *url.URL, status int, header http.Header, body []byte) error {
	method = strings.ToUpper(method)
	if method == "" {
		method = http.MethodGet // as net/http reads an empty Request.Method
	}
	req := method + " " + u.RequestURI()

	segs, err := splitPath(u)
	if err != nil {
		return fmt.Errorf("openapi: %s: %w", req, err)
	}
	if u.Path == legacyPath {
		q := u.Query()
		if q.Get("endpoint") == "chat" && q.Get("action") != "" {
			segs = []string{"", "api", "v1", "chat", q.Get("action")}
		}
	}

	var entry *pathEntry
	for _, e := range v.paths {
		if e.match(segs) {
			entry = e
			break
		}
	}
	if entry == nil {
		if v.unmatched == nil {
			return fmt.Errorf("openapi: %s: no documented path matches", req)
		}
		if status != http.StatusNotFound {
			return fmt.Errorf("openapi: %s: no documented path matches, so the status must be 404, got %d", req, status)
		}
		return v.unmatched.check(req+" (unlisted path) 404", method, header, body)
	}

	where := req
	if entry.template != u.Path {
		where += " (as " + entry.template + ")"
	}
	op := entry.ops[method]
	if op == nil && method == http.MethodHead {
		op = entry.ops[http.MethodGet]
	}
	if op == nil && entry.otherMethods != nil {
		where = fmt.Sprintf("%s [%s on %s] %d", where, method, entry.template, status)
		resp := entry.otherMethods.lookup(status)
		if resp == nil {
			return fmt.Errorf("openapi: %s: %s does not take %s and status %d is not documented for other methods; documented: %s",
				where, entry.template, method, status, strings.Join(entry.otherMethods.statuses(), ", "))
		}
		return resp.check(where, method, header, body)
	}
	if op == nil {
		if entry.notAllowed == nil {
			return fmt.Errorf("openapi: %s: method %s is not documented for %s", where, method, entry.template)
		}
		if status != http.StatusMethodNotAllowed {
			return fmt.Errorf("openapi: %s: %s does not take %s, so the status must be 405, got %d",
				where, entry.template, method, status)
		}
		return entry.notAllowed.check(fmt.Sprintf("%s 405", where), method, header, body)
	}

	where = fmt.Sprintf("%s [%s] %d", where, op.id, status)
	resp := op.lookup(status)
	if resp == nil {
		return fmt.Errorf("openapi: %s: status %d is not documented; documented: %s",
			where, status, strings.Join(op.statuses(), ", "))
	}
	return resp.check(where, method, header, body)
}

// lookup finds the response for status the way OpenAPI orders them: the exact code, then
// its range ("4XX"), then "default".
func (op *operation) lookup(status int) *response {
	code := strconv.Itoa(status)
	if r := op.responses[code]; r != nil {
		return r
	}
	if r := op.responses[code[:1]+"XX"]; r != nil {
		return r
	}
	return op.responses["default"]
}

func (op *operation) statuses() []string {
	keys := make([]string, 0, len(op.responses))
	for k := range op.responses {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// check holds header and body against one documented response.
func (r *response) check(where, method string, h http.Header, body []byte) error {
	var problems []string
	for _, hd := range r.headers {
		if p := hd.check(h); p != "" {
			problems = append(problems, p)
		}
	}
	problems = append(problems, r.checkBody(method, h, body)...)
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("openapi: %s (response %s):\n  %s", where, r.ptr, strings.Join(problems, "\n  "))
}

func (r *response) checkBody(method string, h http.Header, body []byte) []string {
	if method == http.MethodHead {
		return nil // a HEAD answer carries the GET headers but never a body
	}
	if len(r.content) == 0 {
		if len(body) > 0 {
			return []string{fmt.Sprintf("body: the document describes no body, got %d bytes", len(body))}
		}
		return nil
	}
	ct := h.Get("Content-Type")
	if ct == "" {
		return []string{"header Content-Type: missing; documented: " + strings.Join(r.mediaNames(), ", ")}
	}
	name, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return []string{fmt.Sprintf("header Content-Type: %q does not parse: %v", ct, err)}
	}
	mt := r.media(name)
	if mt == nil {
		return []string{fmt.Sprintf("header Content-Type: %q is not documented; documented: %s",
			name, strings.Join(r.mediaNames(), ", "))}
	}
	if !isJSON(mt.name) {
		return nil // only JSON bodies have schemas here
	}
	val, err := jsonschema.UnmarshalJSON(strings.NewReader(string(body)))
	if err != nil {
		return []string{fmt.Sprintf("body: not JSON although Content-Type is %s: %v", name, err)}
	}
	if mt.schema == nil {
		return nil
	}
	if err := mt.schema.Validate(val); err != nil {
		return schemaProblems("body", err)
	}
	return nil
}

// media finds the documented media type for a response's Content-Type: the exact name,
// then "type/*", then "*/*".
func (r *response) media(name string) *mediaType {
	name = strings.ToLower(name)
	if mt := r.content[name]; mt != nil {
		return mt
	}
	if i := strings.IndexByte(name, '/'); i > 0 {
		if mt := r.content[name[:i]+"/*"]; mt != nil {
			return mt
		}
	}
	return r.content["*/*"]
}

func (r *response) mediaNames() []string {
	names := make([]string, 0, len(r.content))
	for _, mt := range r.content {
		names = append(names, mt.name)
	}
	slices.Sort(names)
	return names
}

// check returns what is wrong with the header in h, or "" when nothing is.
func (hd header) check(h http.Header) string {
	vals := h.Values(hd.name)
	if len(vals) == 0 {
		if hd.required {
			return fmt.Sprintf("header %s: required but missing", hd.name)
		}
		return ""
	}
	if hd.schema == nil {
		return ""
	}
	raw := vals[0]
	var val any = raw
	switch hd.kind {
	case "integer", "number", "boolean":
		// The header is text; a typed schema means the text must be that JSON literal.
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
		if err != nil {
			return fmt.Sprintf("header %s: %q is not a valid %s", hd.name, raw, hd.kind)
		}
		val = v
	}
	if err := hd.schema.Validate(val); err != nil {
		return fmt.Sprintf("header %s: %q does not match its schema: %s", hd.name, raw,
			strings.Join(schemaProblems("", err), "; "))
	}
	return ""
}

// schemaProblems lists the leaf failures of a validation error, each with the JSON pointer
// of the failing value (prefixed with label) and the reason.
func schemaProblems(label string, err error) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{fmt.Sprintf("%s: %v", label, err)}
	}
	p := message.NewPrinter(language.English)
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		reason := "invalid"
		if e.ErrorKind != nil {
			reason = e.ErrorKind.LocalizedString(p)
		}
		out = append(out, fmt.Sprintf("%s %s: %s", label, pointer(e.InstanceLocation), reason))
	}
	walk(ve)
	if len(out) > maxListed {
		out = append(out[:maxListed], fmt.Sprintf("... and %d more", len(out)-maxListed))
	}
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// pointer renders a JSON pointer (RFC 6901) from its reference tokens; the root is "/"
// rather than "" so that it reads as a place.
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func escapeToken(t string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
}

// splitPath splits the request path into decoded segments. It works on the escaped form
// so that an encoded slash (%2F) stays inside its segment instead of creating a new one.
func splitPath(u *url.URL) ([]string, error) {
	parts := strings.Split(u.EscapedPath(), "/")
	for i, p := range parts {
		s, err := url.PathUnescape(p)
		if err != nil {
			return nil, fmt.Errorf("path segment %q: %w", p, err)
		}
		parts[i] = s
	}
	return parts, nil
}

func isJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}

// builder turns the parsed document into the validator's tables.
type builder struct {
	root     map[string]any
	compiler *jsonschema.Compiler
}

func (b builder) pathEntry(tmpl string, raw any) (*pathEntry, error) {
	item, ptr, err := b.resolve(raw, "/paths/"+escapeToken(tmpl))
	if err != nil {
		return nil, err
	}
	e := &pathEntry{template: tmpl, ops: map[string]*operation{}}
	if !strings.HasPrefix(tmpl, "/") {
		return nil, fmt.Errorf("openapi: path %q does not start with /", tmpl)
	}
	for _, s := range strings.Split(tmpl, "/") {
		switch {
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") && strings.Count(s, "{") == 1:
			e.segments = append(e.segments, segment{param: true})
		case strings.ContainsAny(s, "{}"):
			return nil, fmt.Errorf("openapi: path %q: only whole-segment parameters are supported", tmpl)
		default:
			e.segments = append(e.segments, segment{literal: s})
		}
	}
	// The operation keys of a path item, in the order they are tried for the path's 405.
	for _, m := range []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"} {
		rawOp, ok := item[m]
		if !ok {
			continue
		}
		opPtr := ptr + "/" + m
		opObj, ok := rawOp.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("openapi: %s is not an object", opPtr)
		}
		op := &operation{responses: map[string]*response{}}
		op.id, _ = opObj["operationId"].(string)
		resps, ok := opObj["responses"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("openapi: %s has no responses", opPtr)
		}
		for code, rawResp := range resps {
			r, err := b.response(rawResp, opPtr+"/responses/"+escapeToken(code))
			if err != nil {
				return nil, err
			}
			op.responses[strings.ToUpper(code)] = r
		}
		if r := op.responses["405"]; r != nil && e.notAllowed == nil {
			e.notAllowed = r
		}
		e.ops[strings.ToUpper(m)] = op
	}
	if raw, ok := item[otherMethodsKey]; ok {
		at := ptr + "/" + otherMethodsKey
		resps, ok := raw.(map[string]any)
		if !ok || len(resps) == 0 {
			return nil, fmt.Errorf("openapi: #%s must be a non-empty object of responses by status", at)
		}
		e.otherMethods = &operation{id: otherMethodsKey, responses: map[string]*response{}}
		for code, rawResp := range resps {
			r, err := b.response(rawResp, at+"/"+escapeToken(code))
			if err != nil {
				return nil, err
			}
			e.otherMethods.responses[strings.ToUpper(code)] = r
		}
	}
	return e, nil
}

// otherMethodsKey is the path-item extension that lists, by status, the responses a method
// the path does not declare may get, for paths that refuse a caller before they look at the
// method (see ValidateResponse).
const otherMethodsKey = "x-svc-other-methods"

func (b builder) response(raw any, at string) (*response, error) {
	obj, ptr, err := b.resolve(raw, at)
	if err != nil {
		return nil, err
	}
	r := &response{ptr: "#" + ptr, content: map[string]*mediaType{}}
	content, _ := obj["content"].(map[string]any)
	for name, rawMT := range content {
		mtObj, ok := rawMT.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("openapi: %s/content/%s is not an object", ptr, escapeToken(name))
		}
		mt := &mediaType{name: strings.ToLower(name)}
		if _, ok := mtObj["schema"]; ok {
			schemaPtr := ptr + "/content/" + escapeToken(name) + "/schema"
			if mt.schema, err = b.compile(schemaPtr); err != nil {
				return nil, err
			}
		}
		r.content[mt.name] = mt
	}
	headers, _ := obj["headers"].(map[string]any)
	for name, rawH := range headers {
		hObj, hPtr, err := b.resolve(rawH, ptr+"/headers/"+escapeToken(name))
		if err != nil {
			return nil, err
		}
		hd := header{name: name}
		hd.required, _ = hObj["required"].(bool)
		if rawSchema, ok := hObj["schema"]; ok {
			if hd.schema, err = b.compile(hPtr + "/schema"); err != nil {
				return nil, err
			}
			if s, _, err := b.resolve(rawSchema, hPtr+"/schema"); err == nil {
				hd.kind, _ = s["type"].(string)
			}
		}
		r.headers = append(r.headers, hd)
	}
	slices.SortFunc(r.headers, func(a, b header) int { return cmp.Compare(a.name, b.name) })
	return r, nil
}

// compile compiles the schema at a JSON pointer of the document; $refs inside it resolve
// against the whole document, so components are shared, and compiled once.
func (b builder) compile(ptr string) (*jsonschema.Schema, error) {
	tokens := strings.Split(ptr, "/")
	for i, t := range tokens {
		tokens[i] = url.PathEscape(t) // the compiler percent-decodes the fragment
	}
	s, err := b.compiler.Compile(docURL + "#" + strings.Join(tokens, "/"))
	if err != nil {
		return nil, fmt.Errorf("openapi: schema at #%s: %w", ptr, err)
	}
	return s, nil
}

// resolve follows local $refs ("#/components/...") from the object at ptr until it reaches
// an object without one, and returns that object and where it sits.
func (b builder) resolve(raw any, ptr string) (map[string]any, string, error) {
	seen := map[string]bool{}
	for {
		obj, ok := raw.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("openapi: #%s is not an object", ptr)
		}
		ref, ok := obj["$ref"].(string)
		if !ok {
			return obj, ptr, nil
		}
		if seen[ref] {
			return nil, "", fmt.Errorf("openapi: #%s: $ref cycle through %s", ptr, ref)
		}
		seen[ref] = true
		target, err := lookupRef(b.root, ref)
		if err != nil {
			return nil, "", fmt.Errorf("openapi: #%s: %w", ptr, err)
		}
		raw, ptr = target, strings.TrimPrefix(ref, "#")
	}
}

// lookupRef finds the value a local reference ("#/a/b~1c") points at in doc.
func lookupRef(doc any, ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("$ref %q is not local to the document", ref)
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, fmt.Errorf("$ref %q: %w", ref, err)
	}
	if frag == "" {
		return doc, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("$ref %q is not a JSON pointer", ref)
	}
	cur := doc
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("$ref %q: no %q", ref, tok)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("$ref %q: no index %q", ref, tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("$ref %q: %q is inside a scalar", ref, tok)
		}
	}
	return cur, nil
}
