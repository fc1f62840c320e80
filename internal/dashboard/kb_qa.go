package dashboard

import (
	"context"
	"net/http"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/kb"
	"svc/internal/store"
)

// kbLangDetect is the Q&A form's language choice that leaves the language to detection, as
// an import line without "lang" does.
const kbLangDetect = "detect"

// kbQAFormData is the curated Q&A editor.
type kbQAFormData struct {
	ID                     int64 // 0: a new entry
	Question, Answer, Lang string
	Error                  string
	MaxQuestion, MaxAnswer int
}

func (s *Server) kbQAList(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	docs, err := s.kbList(r.Context(), c, "/dashboard/kb/qa", readKBFilter(r.URL.Query()), true)
	if err != nil {
		return err
	}
	d := s.kbView(c, "qa", "qa")
	d.Docs = docs
	s.render(w, r, c, pageKB, 0, d)
	return nil
}

func (s *Server) kbQAForm(c *reqCtx, f kbQAFormData) kbData {
	f.MaxQuestion, f.MaxAnswer = kb.MaxQuestionLen, kb.MaxAnswerLen
	d := s.kbView(c, "qa_form", "qa")
	d.QAForm = &f
	return d
}

// kbQANew is the empty editor, or with ?question= (and ?lang=) the editor with a question
// filled in: the overview's "answer this" of a declined question that has no open review
// item. Nothing is stored until the form is sent, where readQA checks it as any entry.
func (s *Server) kbQANew(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	f := kbQAFormData{Lang: kbLangDetect, Question: strings.TrimSpace(q.Get("question"))}
	if l := q.Get("lang"); i18n.Supported(l) {
		f.Lang = l
	}
	s.render(w, r, c, pageKB, 0, s.kbQAForm(c, f))
	return nil
}

// curatedQA reads one of the account's own Q&A entries. Entries learned from a crawled page
// are the crawl's to change (the next crawl would undo an edit), so the editor treats them
// as missing; an owner can still remove them as documents.
func (s *Server) curatedQA(ctx context.Context, c *reqCtx, id int64) (store.Document, error) {
	doc, err := s.accountDocument(ctx, c, id)
	if err != nil {
		return doc, err
	}
	if doc.Type != store.DocQA || doc.SourceURL != "" {
		return doc, errs.New(errs.NotFound, "No such Q&A entry.")
	}
	return doc, nil
}

func (s *Server) kbQAEdit(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	doc, err := routeItem(r, c, s.curatedQA)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageKB, 0, s.kbQAForm(c, kbQAFormData{ID: doc.ID, Question: doc.Title, Answer: doc.Body, Lang: doc.Lang}))
	return nil
}

// readQA reads the editor's fields and builds the entry with kb.Build, as an import line
// would be built, so an entry made here is analysed exactly like an imported one. The
// limits are the import format's (kb.MaxQuestionLen, kb.MaxAnswerLen).
func readQA(r *http.Request) (kbQAFormData, store.Document, error) {
	f := kbQAFormData{Question: strings.TrimSpace(r.PostFormValue("question")),
		Answer: strings.TrimSpace(r.PostFormValue("answer")), Lang: r.PostFormValue("lang")}
	switch {
	case f.Question == "":
		return f, store.Document{}, invalid("kb.qa_error_question_required")
	case utf8.RuneCountInString(f.Question) > kb.MaxQuestionLen:
		return f, store.Document{}, invalid("kb.qa_error_question_long", kb.MaxQuestionLen)
	case f.Answer == "":
		return f, store.Document{}, invalid("kb.qa_error_answer_required")
	case utf8.RuneCountInString(f.Answer) > kb.MaxAnswerLen:
		return f, store.Document{}, invalid("kb.qa_error_answer_long", kb.MaxAnswerLen)
	case f.Lang != kbLangDetect && !i18n.Supported(f.Lang):
		return f, store.Document{}, invalid("kb.qa_error_lang")
	}
	rec := kb.Record{Type: kb.TypeQA, Question: f.Question, Answer: f.Answer}
	if f.Lang != kbLangDetect {
		rec.Lang = f.Lang
	}
	// The checks above word the usual mistakes; this one holds the form to whatever else
	// the import format requires.
	if err := kb.Validate(&rec); err != nil {
		return f, store.Document{}, invalid("kb.qa_error_invalid")
	}
	doc, err := kb.Build(rec)
	if err != nil {
		// The only way a valid record fails to build: an answer of markup with no text.
		return f, store.Document{}, invalid("kb.qa_error_answer_empty")
	}
	return f, doc, nil
}

// qaTaken reports whether another curated entry has the question in that language. Storing
// it would overwrite that entry (Q&A entries are keyed by question and language), which the
// user should do by editing it, knowingly.
func (s *Server) qaTaken(ctx context.Context, c *reqCtx, doc store.Document, self int64) (bool, error) {
	rows, _, err := s.st.ListDocuments(ctx, c.Account.ID, store.DocQuery{Type: store.DocQA, Lang: doc.Lang,
		Query: doc.Title, Limit: 50})
	if err != nil {
		return false, err
	}
	for _, row := range rows {
		if row.ID != self && row.SourceURL == "" && strings.EqualFold(strings.TrimSpace(row.Title), doc.Title) {
			return true, nil
		}
	}
	return false, nil
}

// qaRekeyed reports whether an edit changes the entry's key: its question or language.
func qaRekeyed(doc, old store.Document) bool { return doc.Title != old.Title || doc.Lang != old.Lang }

// readQAForm reads the editor's entry (readQA): a new one (old nil) or an edit of old. An
// entry that takes a new key (a new entry, or an edit of its question or language) must not
// take another curated entry's (qaTaken). When the form is refused it is shown again with
// its error and ok is false; err is a failure to check.
func (s *Server) readQAForm(w http.ResponseWriter, r *http.Request, c *reqCtx, old *store.Document) (doc store.Document, ok bool, err error) {
	f, doc, ferr := readQA(r)
	var self int64
	rekeyed := true
	if old != nil {
		f.ID, self = old.ID, old.ID
		rekeyed = qaRekeyed(doc, *old)
	}
	if ferr == nil && rekeyed {
		taken, err := s.qaTaken(r.Context(), c, doc, self)
		if err != nil {
			return doc, false, err
		}
		if taken {
			ferr = invalid("kb.qa_error_exists")
		}
	}
	if ferr != nil {
		s.formError(w, r, c, pageKB, ferr, s.kbQAForm(c, f))
		return doc, false, nil
	}
	return doc, true, nil
}

func (s *Server) kbQACreate(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	doc, ok, err := s.readQAForm(w, r, c, nil)
	if !ok {
		return err
	}
	doc.AccountID, doc.Origin = c.Account.ID, store.OriginEditor
	if _, err := s.st.ImportDocuments(r.Context(), c.Account.ID, []store.Document{doc}); err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/kb/qa", "flash.kb_qa_created")
	return nil
}

// kbQAUpdate saves an edited entry. Entries are keyed by question and language, so when
// either changes the old entry is replaced (one transaction: never both, never neither);
// otherwise the entry is updated in place. Either way the cached answers drawn from the
// old text are withdrawn by the store.
func (s *Server) kbQAUpdate(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	old, err := routeItem(r, c, s.curatedQA)
	if err != nil {
		return err
	}
	doc, ok, err := s.readQAForm(w, r, c, &old)
	if !ok {
		return err
	}
	doc.AccountID, doc.SiteID, doc.Origin = c.Account.ID, old.SiteID, store.OriginEditor
	if qaRekeyed(doc, old) {
		err = s.st.ReplaceDocument(r.Context(), c.Account.ID, old.ID, &doc)
	} else {
		_, err = s.st.ImportDocuments(r.Context(), c.Account.ID, []store.Document{doc})
	}
	if err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/kb/qa", "flash.kb_qa_saved")
	return nil
}

func (s *Server) kbQADelete(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	doc, err := routeItem(r, c, s.curatedQA)
	if err != nil {
		return err
	}
	if err := s.st.DeleteDocument(r.Context(), c.Account.ID, doc.ID); err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/kb/qa", "flash.kb_qa_deleted")
	return nil
}
