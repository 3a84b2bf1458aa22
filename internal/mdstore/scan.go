package mdstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// scanFile is Segments over a file read in pieces: it holds one entry at a
// time, so reading a memory of any size takes the same little memory. A
// missing file has no entries. seg is valid only during the call.
func scanFile(path string, fn func(seg []byte, line int) bool) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read memory: %w", err)
	}
	defer f.Close()
	if err := scanReader(f, fn); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Path = path
			return pe
		}
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// scanReader reads segments from r as Segments does from bytes; an
// unclosed front matter is an error, as for Parse.
func scanReader(r io.Reader, fn func(seg []byte, line int) bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		sc        blockScanner
		inSeg     bool
		seg       []byte // the entry being read: its lines so far
		segLine   int
		lastBlank = -1 // end of the last blank line in seg
		line      []byte
		n         int
		inFront   bool
	)
	for {
		l, err := readLine(br, line[:0])
		line = l
		if len(l) == 0 && err != nil {
			if err != io.EOF {
				return err
			}
			break
		}
		n++
		partial := l[len(l)-1] != '\n'
		switch {
		case n == 1 && (string(l) == "---\n" || string(l) == "---\r\n"):
			inFront = true
			continue
		case inFront:
			if string(bytes.TrimRight(l, "\r\n")) == "---" {
				inFront = false
			}
			continue
		}
		if partial {
			// The file ends without a newline: an append that failed
			// half-way (see Segments).
			break
		}
		if sc.line(l) {
			if inSeg && !fn(trimTrailingBlank(seg), segLine) {
				return nil
			}
			inSeg, seg, segLine, lastBlank = true, seg[:0], n, -1
		}
		if !inSeg {
			continue
		}
		seg = append(seg, l...)
		if isBlank(trimEOL(l)) {
			lastBlank = len(seg)
		}
	}
	if inFront {
		return &ParseError{Line: 1, Err: errors.New("front matter: no closing --- line")}
	}
	if !inSeg {
		return nil
	}
	if len(line) > 0 && line[len(line)-1] != '\n' {
		// Only what came before the entry's last blank line is whole.
		if lastBlank < 0 {
			return nil
		}
		seg = seg[:lastBlank]
	}
	fn(trimTrailingBlank(seg), segLine)
	return nil
}

// readLine appends the next line of br to buf, newline included; the last
// line of a file may lack one.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		buf = append(buf, part...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}
