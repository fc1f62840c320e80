// Package ingest turns one uploaded file into knowledge-base documents: PDF, DOCX, ODT,
// XLSX, ODS, CSV, Markdown, plain text and HTML, for the dashboard's upload, `svc kb
// import` and the KB API alike. It also reads a products spreadsheet (CSV or XLSX with a
// header row) into product documents.
//
// What a file holds is read with its structure: headings become sections, list items stay
// list lines, and a table row is written with its column headers ("Size: M, Chest: 96–101
// cm"), so a chunk that holds one row can still be quoted on its own; every sheet of a
// spreadsheet is a section. The documents are built by kb (chunks, language, index terms)
// exactly as an import's are, and nothing is written here: the caller stores them, so a
// file that fails stores nothing.
//
// Every file is a stranger's: the format is decided by its content and its name together,
// and every reader is bounded (Limits: bytes, pages, sheets, rows, cells, extracted text,
// zip members and their expanded size, XML depth, time). A problem is an *errs.Error
// naming the file and the problem, in the catalog's words (err.ingest.*), whose cause is
// one of the Err* values below, so a caller can tell an encrypted PDF from a scan.
package ingest
