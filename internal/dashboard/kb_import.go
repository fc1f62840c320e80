package dashboard

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"

	"svc/internal/errs"
	"svc/internal/kb"
	"svc/internal/store"
)

// kbMaxUpload is the largest import file the dashboard takes; larger KBs are imported with
// `svc kb import`, which streams from disk.
const kbMaxUpload = 10 << 20

// kbUploadSlack is what a multipart body holds beside the file: part headers, the form token
// and the site field.
const kbUploadSlack = 64 << 10

// kbImportsPerMinute bounds uploads per account: each one analyses a whole file.
const kbImportsPerMinute = 10

// kbMaxLineErrors is how many bad lines the page lists; a file that is wrong throughout
// (another format altogether) needs the first few to be understood, not ten thousand.
const kbMaxLineErrors = 100

// kbImportData is the upload form and what the last upload did.
type kbImportData struct {
	Sites  []store.Site
	SiteID int64
	MaxMiB int
	// Error is a problem with the upload as a whole; Lines are the file's bad lines, More
	// how many more there were beyond those listed.
	Error  string
	Lines  []kbLineError
	More   int
	Result *store.ImportResult
}

// kbLineError is one bad line of an import file. Reason is the kb package's reason in the
// user's language when the catalog has its key (field names of the format stay as they
// are, in English, like the format itself), else kb's own English wording; the page frames
// it in the user's language.
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
	d.Import = &kbImportData{Sites: sites, MaxMiB: kbMaxUpload >> 20}
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

// kbImport imports a JSON Lines file as `svc kb import` does: every line is checked and
// built before anything is written, and the documents go to the store in one call, which
// is one transaction, so a bad line imports nothing. Unlike kb.Import, which stops at the
// first problem, it lists every bad line, so a file can be fixed in one go.
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
			return tooLarge()
		}
		return fail(http.StatusBadRequest, invalid("kb.import_error_no_file"))
	}
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
	file, fh, err := r.FormFile("file")
	if err != nil {
		return fail(http.StatusBadRequest, invalid("kb.import_error_no_file"))
	}
	defer file.Close()
	if fh.Size > kbMaxUpload {
		return tooLarge()
	}
	body, err := io.ReadAll(io.LimitReader(file, kbMaxUpload+1))
	if err != nil {
		return err
	}
	if len(body) > kbMaxUpload {
		return tooLarge()
	}

	recs, err := kb.ParseJSONL(bytes.NewReader(body))
	if le, ok := errors.AsType[*kb.LineError](err); ok {
		imp.Lines, imp.More = kbLineErrors(body, le, func(le *kb.LineError) string { return s.lineReason(c, le) })
		return fail(http.StatusBadRequest, invalid("kb.import_error_lines"))
	} else if err != nil {
		return err
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
		imp.Lines, imp.More = capLineErrors(bad)
		return fail(http.StatusBadRequest, invalid("kb.import_error_lines"))
	}
	if len(docs) == 0 {
		return fail(http.StatusBadRequest, invalid("kb.import_error_empty"))
	}
	res, err := s.st.ImportDocuments(r.Context(), c.Account.ID, docs)
	if err != nil {
		return err
	}
	imp.Result = &res
	s.render(w, r, c, pageKB, 0, d)
	return nil
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
