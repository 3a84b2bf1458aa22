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

// Reader reads memory files a piece at a time into one buffer, kept from
// file to file: a cold process pays for every page of memory it touches,
// so a second buffer costs more than reading.
type Reader struct {
	// Buf is the buffer, for other passes over the files between scans.
	Buf []byte
}

// ScanChunk is how much of a file a Reader reads at a time, unless its
// buffer is given: the memory a scan takes does not grow with the file.
const ScanChunk = 256 << 10

// Scan calls fn with every entry of the file at path, as Segments gives
// them from its bytes: seg (valid only during the call), its offset in the
// file and the line of its heading; fn returns false to stop. front, when
// not nil, is given the start of the file, its front matter whole, before
// any entry, and its error ends the scan. A missing file has no entries;
// anything but a regular file is an error, never a wait.
func (r *Reader) Scan(path string, front func(start []byte) error, fn func(seg []byte, off int64, line int) bool) error {
	f, err := regfile.Open(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read memory: %w", err)
	}
	defer f.Close()
	if err := r.scan(f, front, fn); errors.Is(err, errFrontMatter) {
		return fmt.Errorf("%s:%w", path, err)
	} else if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// scan is Scan of r's bytes. Each piece up to its last newline is split by
// Segments; its last entry may go on in the next piece, so it is carried
// over and read again with it. An entry's heading is where the block
// scanner is outside every block, so a piece that starts at one is read as
// the whole file would be.
func (r *Reader) scan(rd io.Reader, front func([]byte) error, fn func(seg []byte, off int64, line int) bool) error {
	if cap(r.Buf) == 0 {
		r.Buf = make([]byte, 0, ScanChunk)
	}
	buf := r.Buf[:0]
	defer func() { r.Buf = buf[:0] }()
	var base int64 // the file offset of buf[0]
	line := 0      // the lines before buf[0]
	for eof, first := false, true; !eof; {
		if len(buf) == cap(buf) {
			// One entry larger than the buffer: grow it.
			buf = append(buf, make([]byte, cap(buf))...)[:len(buf)]
		}
		n, err := io.ReadFull(rd, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			eof = true
		} else if err != nil {
			return err
		}
		end := len(buf)
		if !eof {
			end = bytes.LastIndexByte(buf, '\n') + 1
		}
		if first {
			// The front matter is read whole before any entry.
			if _, n, ok := splitFrontMatter(buf[:end]); !ok && n != 0 && !eof {
				continue
			}
			first = false
			if front != nil {
				if err := front(buf[:end]); err != nil {
					return err
				}
			}
		}
		// Every entry but the last is whole: it is handed out when the
		// next one starts.
		var last []byte
		lastAt, lastLine, stop := -1, 0, false
		region := buf[:end]
		Segments(region, func(seg []byte, l int) bool {
			if lastAt >= 0 && !fn(last, base+int64(lastAt), line+lastLine) {
				stop = true
				return false
			}
			last, lastAt, lastLine = seg, cap(region)-cap(seg), l
			return true
		})
		switch {
		case stop:
			return nil
		case eof:
			if lastAt >= 0 {
				fn(last, base+int64(lastAt), line+lastLine)
			}
		case lastAt > 0:
			line += lastLine - 1
			base += int64(lastAt)
			buf = buf[:copy(buf, buf[lastAt:])]
		}
	}
	return nil
}

// Lines calls fn with what rd reads, a piece at a time, each piece whole
// lines (the last may lack its newline at the end of the file).
func (r *Reader) Lines(rd io.Reader, fn func(piece []byte)) error {
	if cap(r.Buf) == 0 {
		r.Buf = make([]byte, 0, ScanChunk)
	}
	buf := r.Buf[:cap(r.Buf)]
	defer func() { r.Buf = buf[:0] }()
	for keep := 0; ; {
		n, err := io.ReadFull(rd, buf[keep:])
		end := keep + n
		eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		if err != nil && !eof {
			return err
		}
		cut := end
		if !eof {
			cut = bytes.LastIndexByte(buf[:end], '\n') + 1
		}
		if cut > 0 {
			fn(buf[:cut])
		}
		if eof {
			return nil
		}
		if keep = copy(buf, buf[cut:end]); keep == len(buf) {
			// One line longer than the buffer: grow it.
			buf = append(buf, make([]byte, len(buf))...)
		}
	}
}
