package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/ingest"
	"svc/internal/kb"
	"svc/internal/store"
)

// maxUpload is the largest file (or bulk body) the KB API takes (DECISIONS.md: uploads up to
// 20 MiB, larger: 413), the bound ingest applies to a file too.
const maxUpload = 20 << 20

// uploadSlack is what a multipart upload carries beside its file: part headers and the
// small fields (lang, title, url, site_id).
const uploadSlack = 64 << 10

// uploadPaths are the actions whose body may be an upload: every other request body is
// bounded by maxBody (64 KiB). The middleware sets the bound before routing, so the path
// must be exactly the action's (a path with dot segments is refused anyway, see plainPaths).
var uploadPaths = map[string]bool{
	"/api/v1/kb/documentUpload": true,
	"/api/v1/kb/productsUpsert": true,
	"/api/v1/kb/import":         true,
}

// bodyLimit is the body bound of a request to path.
func bodyLimit(path string) int64 {
	switch {
	case strings.HasPrefix(path, "/dashboard/"):
		return maxDashboardBody
	case uploadPaths[path]:
		return maxUpload + uploadSlack
	}
	return maxBody
}

// upload is a multipart upload: its small fields and its one file.
type upload struct {
	p    params
	file []byte
	name string
	has  bool // a part named "file" was sent
}

var errNotMultipart = errors.New("not multipart")

// readUpload reads a multipart/form-data body part by part: the part named "file" into
// memory up to maxUpload (one larger is refused with 413, the rest of the body read and
// dropped so the client hears the answer), every other part as a field of at most maxBody.
// A body of another type is errNotMultipart, for the caller to read as it does.
func readUpload(r *http.Request) (upload, error) {
	up := upload{p: params{}}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return up, errNotMultipart
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return up, errs.Wrap(errs.BadRequest,
			"The multipart/form-data body has no boundary parameter; let your HTTP client set the Content-Type of a multipart body.", err)
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return up, bodyError(err, "The multipart body could not be read: its parts or their headers are malformed.")
		}
		name := part.FormName()
		switch {
		case name == "":
			_, err = io.Copy(io.Discard, part)
		case name == "file":
			if up.has {
				part.Close()
				return up, errs.New(errs.BadRequest, "Send one file per request, in the field file.")
			}
			up.has, up.name = true, part.FileName()
			if up.name == "" {
				up.name = "upload" // a field, not a file part: it titles the document all the same
			}
			up.file, err = io.ReadAll(io.LimitReader(part, maxUpload+1))
			if err == nil && len(up.file) > maxUpload {
				part.Close()
				_, _ = io.Copy(io.Discard, r.Body) // within the body's own bound
				return up, errs.Newf(errs.TooLarge, "The file is larger than %d MiB.", maxUpload>>20)
			}
		default:
			var v []byte
			v, err = io.ReadAll(io.LimitReader(part, maxBody+1))
			if err == nil && len(v) > maxBody {
				part.Close()
				return up, errs.Newf(errs.TooLarge, "The field %s is larger than %d KiB.", truncate(name, 40), maxBody>>10)
			}
			if _, dup := up.p[name]; !dup {
				up.p[name] = string(v)
			}
		}
		part.Close()
		if err != nil {
			return up, bodyError(err, "The multipart body could not be read.")
		}
	}
	if err := up.p.checkNUL(); err != nil {
		return up, err
	}
	return up, nil
}

// kbDocumentUpload reads one file of any format ingest reads (PDF, DOCX, ODT, XLSX, ODS,
// CSV, Markdown, text, HTML) into documents, and stores them as the API's: nothing when the
// file cannot be read, whose problem the answer names along with the accepted formats.
// A file is keyed by its URL when one is given, else by its title (the file's name unless
// one is given): uploading a changed file under the same name replaces the document in
// place, keeping its id.
func (s *Server) kbDocumentUpload(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	up, err := readUpload(r)
	if errors.Is(err, errNotMultipart) {
		_, _ = io.Copy(io.Discard, r.Body) // within the body's bound: the client hears the answer
		return errs.New(errs.BadRequest, "Send the document as multipart/form-data in the field file (curl -F file=@returns.pdf).")
	}
	if err != nil {
		return err
	}
	if !up.has {
		return errs.New(errs.BadRequest, "The file field is required: send the document as multipart/form-data in the field file.")
	}
	opt := ingest.Options{Name: up.name, Lang: strings.ToLower(strings.TrimSpace(up.p["lang"])),
		Title: strings.TrimSpace(up.p["title"]), URL: strings.TrimSpace(up.p["url"]),
		Limits: ingest.Limits{MaxBytes: maxUpload}}
	if err := checkDocFields(opt); err != nil {
		return err
	}
	siteID, err := s.kbSiteParam(r, c, up.p)
	if err != nil {
		return err
	}
	res, err := ingest.Read(r.Context(), bytes.NewReader(up.file), opt)
	if err != nil {
		return fileProblem(err, "Accepted formats: "+ingest.Accepted+".")
	}
	for i := range res.Documents {
		res.Documents[i].SiteID, res.Documents[i].Origin = siteID, store.OriginAPI
	}
	if _, err := s.st.ImportDocuments(r.Context(), c.Account.ID, res.Documents); err != nil {
		return err
	}
	ids := make([]int64, 0, len(res.Documents))
	for _, d := range res.Documents {
		ids = append(ids, d.ID)
	}
	writeData(w, map[string]any{"documents": ids, "chunks": res.Chunks(), "format": res.Format})
	return nil
}

// checkDocFields checks an upload's lang, title and url before the file is read, by the
// import format's rules for a page.
func checkDocFields(opt ingest.Options) error {
	switch opt.Lang {
	case "", "tr", "en", "de":
	default:
		return errs.Newf(errs.BadRequest, "lang must be tr, en or de (or left out to detect it); got %q.", truncate(opt.Lang, 10))
	}
	rec := kb.Record{Type: kb.TypePage, URL: opt.URL, Title: opt.Title, Body: "x"}
	if rec.Title == "" {
		rec.Title = "x"
	}
	if err := kb.Validate(&rec); err != nil {
		if e, ok := errs.As(err); ok {
			return errs.Wrap(errs.BadRequest, e.Safe+".", err)
		}
		return err
	}
	return nil
}

// fileProblem is the answer to a file ingest refused: its problem (400, or 413 for its
// size) with hint after it, unless the message names it already; any other error is the
// server's.
func fileProblem(err error, hint string) error {
	e, ok := errs.As(err)
	if !ok || (e.Kind != errs.BadRequest && e.Kind != errs.TooLarge) {
		return err
	}
	msg := e.Safe
	if hint != "" && !strings.Contains(msg, hint) {
		msg += " " + hint
	}
	return &errs.Error{Kind: e.Kind, Safe: msg, Cause: err}
}

// productsHint ends every problem of a products file.
const productsHint = "A products file is CSV or XLSX with a header row naming name, url, price, category, image, description and sku."

// productFields are the fields of a product in a JSON productsUpsert.
var productFields = []string{ingest.FieldName, ingest.FieldURL, ingest.FieldPrice, ingest.FieldCategory, ingest.FieldImage,
	ingest.FieldDescription, ingest.FieldSKU}

// kbProductsUpsert upserts products by SKU, else URL (store.UpsertProducts): from a JSON
// body {"products": [...]} (numbered from 1 in its order for errors), or a CSV or XLSX file
// with a header row. Every bad row is listed by its number and nothing is stored.
func (s *Server) kbProductsUpsert(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	var docs []store.Document
	var siteID int64
	up, err := readUpload(r)
	switch {
	case errors.Is(err, errNotMultipart):
		var p params
		var rows []ingest.ProductRow
		if p, rows, err = readProductsJSON(r); err != nil {
			return err
		}
		lang, err := qaLang(p)
		if err != nil {
			return err
		}
		if siteID, err = s.kbSiteParam(r, c, p); err != nil {
			return err
		}
		if docs, err = ingest.BuildProducts(rows, lang); err != nil {
			return fileProblem(err, "")
		}
	case err != nil:
		return err
	case !up.has:
		return errs.New(errs.BadRequest, `Send the products as JSON ({"products": [...]}) or as a CSV or XLSX file in the field file.`)
	default:
		lang, err := qaLang(up.p)
		if err != nil {
			return err
		}
		if siteID, err = s.kbSiteParam(r, c, up.p); err != nil {
			return err
		}
		docs, err = ingest.Products(r.Context(), bytes.NewReader(up.file), ingest.Options{Name: up.name, Lang: lang,
			Limits: ingest.Limits{MaxBytes: maxUpload}})
		if _, rows := errors.AsType[*ingest.RowErrors](err); rows {
			return fileProblem(err, "")
		}
		if err != nil {
			return fileProblem(err, productsHint)
		}
	}
	if len(docs) == 0 {
		return errs.New(errs.BadRequest, "No products were sent.")
	}
	for i := range docs {
		docs[i].SiteID, docs[i].Origin = siteID, store.OriginAPI
	}
	res, err := s.st.UpsertProducts(r.Context(), c.Account.ID, docs)
	if err != nil {
		return err
	}
	writeData(w, res)
	return nil
}

// maxProducts bounds a JSON productsUpsert, as ingest bounds a spreadsheet's rows.
var maxProducts = ingest.DefaultLimits().MaxRows

// readProductsJSON reads {"products": [{name, url, price, …}], "lang": …, "site_id": …}.
// A product's fields are strings (a price or SKU may be a number); a field the format does
// not have is refused by name, so a misspelt column does not vanish silently.
func readProductsJSON(r *http.Request) (params, []ingest.ProductRow, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		_, _ = io.Copy(io.Discard, r.Body)
		return nil, nil, errs.Newf(errs.BadRequest,
			`Content-Type %q is not supported here: send the products as application/json ({"products": [...]}) or a CSV or XLSX file as multipart/form-data.`, mt)
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, nil, uploadBodyError(err, "The JSON body could not be read.")
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, nil, jsonError(raw, err)
	}
	p := params{}
	for k, v := range body {
		if k == "products" {
			continue
		}
		s, err := jsonText(v)
		if err != nil {
			return nil, nil, errs.Newf(errs.BadRequest, "Field %q must be a string or a number.", truncate(k, 40))
		}
		p[k] = s
	}
	if err := p.checkNUL(); err != nil {
		return nil, nil, err
	}
	list, ok := body["products"]
	if !ok {
		return nil, nil, errs.New(errs.BadRequest, `The products field is required: {"products": [{"name": "…", "price": "…", "sku": "…"}]}.`)
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(list, &items); err != nil {
		return nil, nil, errs.Wrap(errs.BadRequest, "products must be a list of objects.", err)
	}
	if len(items) > maxProducts {
		return nil, nil, errs.Newf(errs.BadRequest, "At most %d products a request.", maxProducts)
	}
	rows := make([]ingest.ProductRow, 0, len(items))
	for i, it := range items {
		row := ingest.ProductRow{Row: i + 1}
		for k, v := range it {
			s, err := jsonText(v)
			if err != nil {
				return nil, nil, errs.Newf(errs.BadRequest, "Product %d: %s must be a string.", i+1, truncate(k, 40))
			}
			switch k {
			case ingest.FieldName:
				row.Name = s
			case ingest.FieldURL:
				row.URL = s
			case ingest.FieldPrice:
				row.Price = s
			case ingest.FieldCategory:
				row.Category = s
			case ingest.FieldImage:
				row.Image = s
			case ingest.FieldDescription:
				row.Description = s
			case ingest.FieldSKU:
				row.SKU = s
			default:
				return nil, nil, errs.Newf(errs.BadRequest, "Product %d: unknown field %q; a product has %s.", i+1, truncate(k, 40),
					strings.Join(productFields, ", "))
			}
		}
		rows = append(rows, row)
	}
	return p, rows, nil
}

// jsonText is a JSON string, or a number as written, or "" for null.
func jsonText(v json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return "", err
	}
	switch t := x.(type) {
	case string:
		return t, nil
	case json.Number:
		return t.String(), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("not a string")
}

// uploadBodyError is bodyError for a body bounded as an upload.
func uploadBodyError(err error, msg string) error {
	if isMaxBytes(err) {
		return errs.Wrap(errs.TooLarge, fmt.Sprintf("The request body is larger than %d MiB.", maxUpload>>20), err)
	}
	return errs.Wrap(errs.BadRequest, msg, err)
}

// importTypes are the body types of a JSON Lines import.
var importTypes = []string{"application/x-ndjson", "application/jsonl", "text/plain"}

// kbImport imports JSON Lines records as `svc kb import` does: every line parsed, checked
// and built as it is read, all of it in one transaction, so a bad line (reported by its
// number) imports nothing. The body is the file itself, or a multipart upload of it in
// the field file (with site_id as a field); site_id may also be in the query string.
func (s *Server) kbImport(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	var in io.Reader
	var p params
	up, err := readUpload(r)
	switch {
	case errors.Is(err, errNotMultipart):
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if !slices.Contains(importTypes, mt) {
			_, _ = io.Copy(io.Discard, r.Body)
			return errs.Newf(errs.BadRequest, "Content-Type %q is not supported here: send JSON Lines as %s, or a file as multipart/form-data in the field file.",
				mt, strings.Join(importTypes, ", "))
		}
		if p, err = queryParams(r); err != nil {
			return err
		}
		in = r.Body
	case err != nil:
		return err
	case !up.has:
		return errs.New(errs.BadRequest, "The file field is required: send the JSON Lines file in the field file, or as the body itself.")
	default:
		p, in = up.p, bytes.NewReader(up.file)
		q, err := queryParams(r)
		if err != nil {
			return err
		}
		for k, v := range q {
			if _, ok := p[k]; !ok {
				p[k] = v
			}
		}
	}
	siteID, err := s.kbSiteParam(r, c, p)
	if err != nil {
		return err
	}
	res, err := kb.Import(r.Context(), s.st, c.Account.ID, siteID, in)
	if err != nil {
		if isMaxBytes(err) {
			return uploadBodyError(err, "")
		}
		if le, ok := errors.AsType[*kb.LineError](err); ok {
			return errs.Wrap(errs.BadRequest, fmt.Sprintf("Line %d: %s. Nothing was imported.", le.Line, le.Reason), err)
		}
		return err
	}
	if res.Pages+res.QA+res.Products+res.Articles+res.Unchanged == 0 {
		return errs.New(errs.BadRequest, "The import holds no records: send one JSON object a line.")
	}
	writeData(w, res)
	return nil
}

// queryParams are the parameters of the query string alone, for a request whose body is not
// a form (a JSON Lines import).
func queryParams(r *http.Request) (params, error) {
	vals, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, encodingError("query string", r.URL.RawQuery, err)
	}
	p := params{}
	p.addForm(vals)
	return p, p.checkNUL()
}
