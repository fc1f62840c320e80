package ingest

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
)

// The figures of BENCHMARKS.md ("File ingestion"):
//
//	go test -run '^$' -bench 'BenchmarkRead' -benchtime 3x ./internal/ingest
//
// Each reads a generated file with Read (detection, parsing, the table rows with their
// headers, chunking, language detection, index terms: everything but storing) and reports
// the pages or rows a second and the peak of live heap above what it started with.

// benchPDF is a manual of pages pages: a heading and three paragraphs each.
func benchPDF(b *testing.B, pages int) []byte {
	p := fpdf.New("P", "mm", "A4", "")
	for i := range pages {
		p.AddPage()
		p.SetFont("Helvetica", "B", 16)
		p.MultiCell(0, 8, fmt.Sprintf("Chapter %d: charging and care", i+1), "", "", false)
		p.SetFont("Helvetica", "", 11)
		for j := range 3 {
			p.MultiCell(0, 5, fmt.Sprintf("Section %d.%d. A full charge of the battery takes four and a half hours with the "+
				"standard charger and about two hours with the fast charger. Store the battery at room temperature, "+
				"half charged, when the bike is not used for a month or longer, and check its level every few weeks. "+
				"Clean the contacts with a dry cloth; never use water or solvents on them.", i+1, j+1), "", "", false)
			p.Ln(3)
		}
	}
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// benchXLSX is a catalogue sheet of rows rows and seven columns, written as a shop's export.
func benchXLSX(b *testing.B, rows int) []byte {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	sw.SetRow("A1", []any{"SKU", "Name", "Category", "Price", "Size", "Colour", "Stock"})
	colours := []string{"black", "brown", "red", "blue", "green"}
	for i := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, []any{fmt.Sprintf("SKU-%06d", i), fmt.Sprintf("Trail boot model %d", i), "Shoes",
			fmt.Sprintf("%d,90 €", 50+i%150), 36 + i%12, colours[i%len(colours)], i % 40}); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// heapPeak samples the live heap while fn runs and returns its peak above the start.
func heapPeak(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	peak := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				peak = max(peak, read())
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	return max(peak, read()) - base
}

func benchRead(b *testing.B, name string, data []byte, unit string, units int) {
	b.Logf("%s: %.1f MiB", name, float64(len(data))/(1<<20))
	var peak uint64
	var chunks int
	b.ResetTimer()
	for range b.N {
		peak = max(peak, heapPeak(func() {
			res, err := Read(context.Background(), bytes.NewReader(data), Options{Name: name})
			if err != nil {
				b.Fatal(err)
			}
			chunks = res.Chunks()
		}))
	}
	b.ReportMetric(float64(units)*float64(b.N)/b.Elapsed().Seconds(), unit+"/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(chunks), "chunks")
}

func BenchmarkReadPDF200Pages(b *testing.B) {
	benchRead(b, "manual.pdf", benchPDF(b, 200), "pages", 200)
}

func BenchmarkReadXLSX50kRows(b *testing.B) {
	benchRead(b, "catalogue.xlsx", benchXLSX(b, 50_000), "rows", 50_000)
}

// The same catalogue as products: 50,000 product documents.
func BenchmarkProductsXLSX50kRows(b *testing.B) {
	data := benchXLSX(b, 50_000)
	var peak uint64
	b.ResetTimer()
	for range b.N {
		peak = max(peak, heapPeak(func() {
			docs, err := Products(context.Background(), bytes.NewReader(data), Options{Name: "catalogue.xlsx"})
			if err != nil || len(docs) != 50_000 {
				b.Fatal(err, len(docs))
			}
		}))
	}
	b.ReportMetric(50_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}
