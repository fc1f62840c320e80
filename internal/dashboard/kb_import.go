package dashboard

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"

	"svc/internal/errs"
	"svc/internal/ingest"
	"svc/internal/kb"
	"svc/internal/store"
)

// kbMaxUpload is the largest file the dashboard takes (DECISIONS.md's upload bound, the one
// ingest applies); a larger JSON Lines file is imported with `svc kb import`, which streams
// it from disk.
const kbMaxUpload = 20 << 20

// kbMaxFiles and kbMaxUploadTotal bound one upload of several files: the files are read one
// after the other, so the memory one upload costs is one file's.
const (
	kbMaxFiles       = 10
	kbMaxUploadTotal = 50 << 20
)

// kbUploadSlack is what a multipart body holds beside the files: part headers, the form
// token and the site field.
const kbUploadSlack = 64 << 10

// kbImportsPerMinute bounds uploads per account: each one analyses whole files.
const kbImportsPerMinute = 10

// kbMaxLineErrors is how many bad lines the page lists; a file that is wrong throughout
// (another format altogether) needs the first few to be understood, not ten thousand.
const kbMaxLineErrors = 100

// kbImportData is the upload form and what the last upload did.
type kbImportData struct {
	Sites    []store.Site
	SiteID   int64
	MaxMiB   int
	MaxFiles int
	Products bool // the files were products spreadsheets
	// Error is a problem with the upload as a whole, or with its one file; Lines are that
	// file's bad lines (JSON Lines), More how many more there were beyond those listed.
	Error string
	Lines []kbLineError
	More  int
	// Result sums what the upload's JSON Lines files imported, when one was given and all
	// of them were.
	Result *store.ImportResult
	// Files is each file's own result, for an upload of documents or of several files.
	Files []kbFileResult
}

// kbFileResult is what one uploaded file did: its documents and chunks (a document file),
// its counts (a JSON Lines file), its products (a products spreadsheet), or its error.
type kbFileResult struct {
	Name      string
	Documents int
	Chunks    int
	Unchanged bool
	Records   int
	Products  *store.UpsertResult
	Error     string
	Lines     []kbLineError
	More      int
}

// kbLineError is one bad line of an import file (or row of a products file). Reason is the
// kb or ingest package's reason in the user's language when the catalog has its key (field
// names of the format stay as they are, in English, like the format itself), else their
// own English wording; the page frames it in the user's language.
type kbLineError struct {
	Line   int
	Reason string
}

func (s *Server) kbImportData(r *http.Request, c *reqCtx) (kbData, error) {
	d := s.kbView(c, "import", "import")
	sites, err := s.st.ListSites(r.Context(), c.Account.ID)
	if err != nil {
		return d, err
	}
	d.Import = &kbImportData{Sites: sites, MaxMiB: kbMaxUpload >> 20, MaxFiles: kbMaxFiles}
	return d, nil
}

func (s *Server) kbImportPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.kbImportData(r, c)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageKB, 0, d)
	return nil
}

// kbImport takes one or several files: JSON Lines imports (as `svc kb import` does: every
// line checked and built before anything is written, one transaction, every bad line
// listed), documents of every format ingest reads (PDF, DOCX, ODT, XLSX, ODS, CSV,
// Markdown, text, HTML), or, with "products" ticked, products spreadsheets upserted by SKU.
// Each file is stored on its own, in its own transaction: a bad file stores nothing of
// itself and is listed with its problem, the others are stored.
func (s *Server) kbImport(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.kbImportData(r, c)
	if err != nil {
		return err
	}
	imp := d.Import
	fail := func(status int, err error) error {
		imp.Error = s.errorText(c, err)
		s.render(w, r, c, pageKB, status, d)
		return nil
	}
	if ok, wait := s.d.Limiter.Allow("dash:kbimport:"+strconv.FormatInt(c.Account.ID, 10), kbImportsPerMinute, s.now()); !ok {
		return fail(http.StatusTooManyRequests, invalid("error.rate_limited", int(wait.Seconds()+0.999)))
	}
	tooLarge := func() error {
		return fail(http.StatusRequestEntityTooLarge, invalid("kb.import_error_too_large", imp.MaxMiB))
	}
	// The route caps the body (router.upload); over it, parsing fails with MaxBytesError.
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return fail(http.StatusRequestEntityTooLarge, invalid("kb.import_error_total_too_large", kbMaxUploadTotal>>20))
		}
		return fail(http.StatusBadRequest, invalid("kb.import_error_no_file"))
	}
	defer r.MultipartForm.RemoveAll()
	if v := r.FormValue("site"); v != "" && v != "0" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return errs.New(errs.NotFound, "No such site.")
		}
		site, err := s.accountSite(r.Context(), c, id)
		if err != nil {
			return err
		}
		imp.SiteID = site.ID
	}
	imp.Products = r.FormValue("products") != ""
	files := r.MultipartForm.File["file"]
	switch {
	case len(files) == 0:
		return fail(http.StatusBadRequest, invalid("kb.import_error_no_file"))
	case len(files) > kbMaxFiles:
		return fail(http.StatusBadRequest, invalid("kb.import_error_too_many_files", kbMaxFiles))
	case len(files) == 1 && files[0].Size > kbMaxUpload:
		return tooLarge()
	}
	var sum store.ImportResult
	jsonlOnly, failed := true, 0
	for _, fh := range files {
		res, jsonl, err := s.kbImportFile(r, c, imp, fh, &sum)
		if err != nil {
			return err
		}
		jsonlOnly = jsonlOnly && jsonl
		if res.Error != "" {
			failed++
		}
		imp.Files = append(imp.Files, res)
	}
	if len(files) == 1 && jsonlOnly {
		// One JSON Lines file: the page shows its counts or its bad lines, as it always has.
		f := imp.Files[0]
		imp.Files = nil
		if f.Error != "" {
			imp.Error, imp.Lines, imp.More = f.Error, f.Lines, f.More
			s.render(w, r, c, pageKB, http.StatusBadRequest, d)
			return nil
		}
		imp.Result = &sum
		s.render(w, r, c, pageKB, 0, d)
		return nil
	}
	status := 0
	switch {
	case failed == len(files):
		status = http.StatusBadRequest
		imp.Error = s.cat.T(c.Lang, "kb.import_none")
	case failed > 0:
		status = http.StatusBadRequest
		imp.Error = s.cat.T(c.Lang, "kb.import_some_failed", failed, len(files))
	}
	s.render(w, r, c, pageKB, status, d)
	return nil
}

// kbImportFile reads and stores one uploaded file, adding a JSON Lines file's counts to
// sum; jsonl says it was one. A problem with the file is its result's Error; an error is a
// server error.
func (s *Server) kbImportFile(r *http.Request, c *reqCtx, imp *kbImportData, fh *multipart.FileHeader,
	sum *store.ImportResult) (res kbFileResult, jsonl bool, err error) {
	res.Name = fh.Filename
	if fh.Size > kbMaxUpload {
		res.Error = s.errorText(c, invalid("kb.import_error_too_large", imp.MaxMiB))
		return res, ingest.JSONLines(fh.Filename, nil), nil
	}
	file, err := fh.Open()
	if err != nil {
		return res, false, err
	}
	defer file.Close()
	body, err := io.ReadAll(io.LimitReader(file, kbMaxUpload+1))
	if err != nil {
		return res, false, err
	}
	opt := ingest.Options{Name: fh.Filename, Limits: ingest.Limits{MaxBytes: kbMaxUpload}}
	switch {
	case imp.Products:
		docs, err := ingest.Products(r.Context(), bytes.NewReader(body), opt)
		if re, ok := errors.AsType[*ingest.RowErrors](err); ok {
			res.Error = s.errorText(c, invalid("kb.import_error_rows"))
			for _, row := range re.Rows {
				reason := row.Reason
				if row.Key != "" && s.cat.Has(row.Key) {
					reason = s.cat.T(c.Lang, row.Key, row.Args...)
				}
				res.Lines = append(res.Lines, kbLineError{Line: row.Row, Reason: reason})
			}
			res.Lines, res.More = capLineErrors(res.Lines)
			return res, false, nil
		} else if err != nil {
			return s.fileProblem(c, res, err)
		}
		for i := range docs {
			docs[i].SiteID, docs[i].Origin = imp.SiteID, store.OriginUpload
		}
		up, err := s.st.UpsertProducts(r.Context(), c.Account.ID, docs)
		if err != nil {
			return res, false, err
		}
		res.Products = &up
		return res, false, nil
	case ingest.JSONLines(fh.Filename, body):
		res, err := s.kbImportJSONL(r, c, imp, res, body, sum)
		return res, true, err
	}
	read, err := ingest.Read(r.Context(), bytes.NewReader(body), opt)
	if err != nil {
		return s.fileProblem(c, res, err)
	}
	for i := range read.Documents {
		read.Documents[i].SiteID, read.Documents[i].Origin = imp.SiteID, store.OriginUpload
	}
	counts, err := s.st.ImportDocuments(r.Context(), c.Account.ID, read.Documents)
	if err != nil {
		return res, false, err
	}
	res.Documents, res.Chunks = len(read.Documents), read.Chunks()
	res.Unchanged = counts.Unchanged == len(read.Documents)
	return res, false, nil
}

// fileProblem is the result of a file ingest refused: its problem in the user's language.
// Anything that is not the file's problem is a server error.
func (s *Server) fileProblem(c *reqCtx, res kbFileResult, err error) (kbFileResult, bool, error) {
	if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooLarge {
		return res, false, err
	}
	res.Error = s.errorText(c, err)
	return res, false, nil
}

// kbImportJSONL imports a JSON Lines file as `svc kb import` does, but lists every bad line
// (kb.Import stops at the first), so a file can be fixed in one go.
func (s *Server) kbImportJSONL(r *http.Request, c *reqCtx, imp *kbImportData, res kbFileResult, body []byte,
	sum *store.ImportResult) (kbFileResult, error) {
	recs, err := kb.ParseJSONL(bytes.NewReader(body))
	if le, ok := errors.AsType[*kb.LineError](err); ok {
		res.Lines, res.More = kbLineErrors(body, le, func(le *kb.LineError) string { return s.lineReason(c, le) })
		res.Error = s.errorText(c, invalid("kb.import_error_lines"))
		return res, nil
	} else if err != nil {
		return res, err
	}
	docs := make([]store.Document, 0, len(recs))
	var bad []kbLineError
	for _, rec := range recs {
		doc, err := kb.Build(rec)
		if err != nil {
			reason := err.Error()
			if le, ok := errors.AsType[*kb.LineError](err); ok {
				reason = s.lineReason(c, le)
			}
			bad = append(bad, kbLineError{Line: rec.Line, Reason: reason})
			continue
		}
		doc.AccountID, doc.SiteID = c.Account.ID, imp.SiteID
		docs = append(docs, doc)
	}
	if len(bad) > 0 {
		res.Lines, res.More = capLineErrors(bad)
		res.Error = s.errorText(c, invalid("kb.import_error_lines"))
		return res, nil
	}
	if len(docs) == 0 {
		res.Error = s.errorText(c, invalid("kb.import_error_empty"))
		return res, nil
	}
	counts, err := s.st.ImportDocuments(r.Context(), c.Account.ID, docs)
	if err != nil {
		return res, err
	}
	sum.Pages += counts.Pages
	sum.QA += counts.QA
	sum.Products += counts.Products
	sum.Articles += counts.Articles
	sum.Unchanged += counts.Unchanged
	res.Records = counts.Pages + counts.QA + counts.Products + counts.Articles + counts.Unchanged
	return res, nil
}

// kbLineErrors finds every bad line of a file that kb.ParseJSONL refused at first, by
// parsing each line on its own with the same function (so the rules are the same) and
// numbering it as in the file. A problem of the file as a whole (too many records) shows
// on no single line; it is kept as kb reported it.
func kbLineErrors(body []byte, first *kb.LineError, reason func(*kb.LineError) string) ([]kbLineError, int) {
	var out []kbLineError
	for i, line := range bytes.Split(body, []byte("\n")) {
		if i == 0 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		_, err := kb.ParseJSONL(bytes.NewReader(line))
		if le, ok := errors.AsType[*kb.LineError](err); ok {
			out = append(out, kbLineError{Line: i + 1, Reason: reason(le)})
		}
	}
	if !slices.ContainsFunc(out, func(e kbLineError) bool { return e.Line == first.Line }) {
		out = append(out, kbLineError{Line: first.Line, Reason: reason(first)})
		slices.SortFunc(out, func(a, b kbLineError) int { return a.Line - b.Line })
	}
	return capLineErrors(out)
}

// lineReason is le's reason in the user's language: the catalog's message of its key, or
// kb's English sentence when it has none the catalog knows.
func (s *Server) lineReason(c *reqCtx, le *kb.LineError) string {
	if le.Key != "" && s.cat.Has(le.Key) {
		return s.cat.T(c.Lang, le.Key, le.Args...)
	}
	return le.Reason
}

func capLineErrors(all []kbLineError) ([]kbLineError, int) {
	if len(all) > kbMaxLineErrors {
		return all[:kbMaxLineErrors], len(all) - kbMaxLineErrors
	}
	return all, 0
}
