package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/flowmem/flowmem/internal/regfile"
)

// ScanFile is Segments over a file read in pieces: it holds one piece and
// the entry being read, so reading a memory of any size takes the same
// little memory. fn gets each entry's bytes (valid only during the call),
// their offset in the file and the line of its heading. A missing file has
// no entries; anything but a regular file is an error, never a wait.
func ScanFile(path string, fn func(seg []byte, off int64, line int) bool) error {
	f, err := regfile.Open(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read memory: %w", err)
	}
	defer f.Close()
	if err := scanReader(f, nil, fn); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Path = path
			return pe
		}
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// scanChunk is how much of a file scanReader reads at a time.
const scanChunk = 256 << 10

// scanReader reads segments from r as Segments does from bytes; an
// unclosed front matter is an error, as for Parse. Lines are found in a
// buffer of whole pieces of the file, and segments are parts of it: the
// bytes are not copied line by line. When front is not nil it gets the
// front matter (both fences, as splitFrontMatter cuts it) before any
// segment, and its error ends the scan.
func scanReader(r io.Reader, front func(fm []byte) error, fn func(seg []byte, off int64, line int) bool) error {
	var (
		base      int64 // the file offset of buf[0]
		sc        blockScanner
		buf       = make([]byte, 0, scanChunk)
		pos       int  // the first line not read yet, in buf
		seg       = -1 // the start of the entry being read, in buf
		segLine   int
		lastBlank = -1 // the end of the entry's last blank line, in buf
		line      = 1
		state     = 0 // 0: not known yet, 1: inside front matter, 2: past it
		eof       bool
	)
	for {
		// Keep the entry being read (or the unread line) and read on.
		keep := pos
		if seg >= 0 {
			keep = seg
		} else if state == 1 && front != nil {
			keep = 0 // the front matter, from the file's first byte
		}
		if keep > 0 {
			base += int64(keep)
			n := copy(buf, buf[keep:])
			buf = buf[:n]
			pos -= keep
			if seg >= 0 {
				seg -= keep
			}
			if lastBlank >= 0 {
				lastBlank -= keep
			}
		}
		if !eof {
			if len(buf) == cap(buf) {
				// One entry larger than the buffer: grow it.
				buf = append(buf, make([]byte, cap(buf))...)[:len(buf)]
			}
			n, err := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return err
			}
		}
		for pos < len(buf) {
			i := bytes.IndexByte(buf[pos:], '\n')
			if i < 0 {
				break
			}
			next := pos + i + 1
			l := buf[pos:next]
			switch {
			case state == 0 && (string(l) == "---\n" || string(l) == "---\r\n"):
				state = 1
			case state == 1:
				if closesFront(l) {
					state = 2
					if front != nil {
						if err := front(buf[:next]); err != nil {
							return err
						}
					}
				}
			case sc.line(l):
				state = 2
				if seg >= 0 && !fn(trimTrailingBlank(buf[seg:pos]), base+int64(seg), segLine) {
					return nil
				}
				seg, segLine, lastBlank = pos, line, -1
			default:
				state = max(state, 2)
				if seg >= 0 && isBlank(trimEOL(l)) {
					lastBlank = next
				}
			}
			pos = next
			line++
		}
		if eof {
			break
		}
	}
	if state == 1 && pos < len(buf) && closesFront(buf[pos:]) {
		state = 2 // closed on the file's last line, as Parse reads it
		if front != nil {
			if err := front(buf); err != nil {
				return err
			}
		}
	}
	if state == 1 {
		return &ParseError{Line: 1, Err: errors.New("front matter: no closing --- line")}
	}
	if seg < 0 {
		return nil
	}
	end := pos
	if pos < len(buf) {
		// The file ends without a newline: an append that failed half-way
		// (see Segments). Only what came before the entry's last blank
		// line is whole.
		if lastBlank < 0 {
			return nil
		}
		end = lastBlank
	}
	fn(trimTrailingBlank(buf[seg:end]), base+int64(seg), segLine)
	return nil
}

// closesFront: a line that closes front matter, as splitFrontMatter reads
// it (every "\r" and "\n" at its end dropped).
func closesFront(l []byte) bool { return string(bytes.TrimRight(l, "\r\n")) == "---" }
