package ingest

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// officeZip is an Office file's zip, checked before any member is expanded: the member
// count and the sum of the members' expanded sizes are bounded (archive/zip then refuses
// a member that expands past its declared size, so a lying header cannot get round it).
type officeZip struct {
	rd  *reader
	f   Format
	zr  *zip.Reader
	got int64 // bytes expanded so far
}

func openZip(rd *reader, f Format, data []byte) (*officeZip, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // nothing is extracted to disk
		return nil, rd.corrupt(f, err)
	}
	if len(zr.File) > rd.lim.MaxZipEntries {
		return nil, fail(CodeZipEntries, rd.name, nil, rd.lim.MaxZipEntries)
	}
	var total uint64
	for _, m := range zr.File {
		total += m.UncompressedSize64
		if total > uint64(rd.lim.MaxUnzipped) {
			return nil, fail(CodeZipBomb, rd.name, nil, rd.lim.MaxUnzipped>>20)
		}
	}
	return &officeZip{rd: rd, f: f, zr: zr}, nil
}

// member opens the member called name (nil, nil when there is none), reading at most
// what is left of MaxUnzipped.
func (z *officeZip) member(name string) (io.ReadCloser, error) {
	for _, m := range z.zr.File {
		if m.Name != name {
			continue
		}
		rc, err := m.Open()
		if err != nil {
			return nil, z.rd.corrupt(z.f, fmt.Errorf("%s: %w", name, err))
		}
		left := z.rd.lim.MaxUnzipped - z.got
		return &countedReader{z: z, r: io.LimitReader(rc, left+1), c: rc}, nil
	}
	return nil, nil
}

type countedReader struct {
	z *officeZip
	r io.Reader
	c io.Closer
}

func (c *countedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.z.got += int64(n)
	if c.z.got > c.z.rd.lim.MaxUnzipped {
		return n, fail(CodeZipBomb, c.z.rd.name, nil, c.z.rd.lim.MaxUnzipped>>20)
	}
	return n, err
}

func (c *countedReader) Close() error { return c.c.Close() }

// xmlStream reads an Office part token by token, bounding its nesting depth and checking
// the deadline as it goes. encoding/xml expands no entities but the five predefined ones,
// so a "billion laughs" document is only its own size.
type xmlStream struct {
	rd    *reader
	f     Format
	dec   *xml.Decoder
	depth int
	n     int
}

func newXMLStream(rd *reader, f Format, r io.Reader) *xmlStream {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	// Office parts are UTF-8 by the standards; a stray encoding label is read as UTF-8
	// rather than refused.
	dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return &xmlStream{rd: rd, f: f, dec: dec}
}

// next returns the next token (a copy of StartElement and CharData that stays valid),
// io.EOF at the end, or the file's error.
func (x *xmlStream) next() (xml.Token, error) {
	tok, err := x.dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		if Code(err) != "" { // the zip's own bound, met while decoding
			return nil, err
		}
		return nil, x.rd.corrupt(x.f, err)
	}
	switch tok.(type) {
	case xml.StartElement:
		x.depth++
		if x.depth > x.rd.lim.MaxXMLDepth {
			return nil, fail(CodeXMLDepth, x.rd.name, nil, x.rd.lim.MaxXMLDepth)
		}
	case xml.EndElement:
		x.depth--
	}
	x.n++
	if x.n%4096 == 0 {
		if err := x.rd.alive(); err != nil {
			return nil, err
		}
	}
	return tok, nil
}

// skip reads past the end of the element whose start was just read.
func (x *xmlStream) skip() error {
	for d := 1; d > 0; {
		tok, err := x.next()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			d++
		case xml.EndElement:
			d--
		}
	}
	return nil
}

// attr is the value of the attribute local (in any namespace) of e.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// xmlHandler is what a document's walker does with the tokens of its XML.
type xmlHandler interface {
	start(xml.StartElement) error
	end(local string) error
	chars(s string)
}

// walk hands every token of the stream to h, until its end or the first error.
func (x *xmlStream) walk(h xmlHandler) error {
	for {
		tok, err := x.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := h.start(t); err != nil {
				return err
			}
		case xml.EndElement:
			if err := h.end(t.Name.Local); err != nil {
				return err
			}
		case xml.CharData:
			h.chars(string(t))
		}
	}
}
