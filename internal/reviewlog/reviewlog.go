// Package reviewlog keeps .flow/memory/reviews.jsonl: one JSON line for
// every review the capture hook recognised, whatever its verdict. The
// memory files say what was learned; this log says when reviews happened
// and what each one found, which is what stats and the audit need to tell
// whether a lesson handed to the model stopped the mistake (a SHIP review
// that repeats nothing is the evidence).
//
// The file is append-only and merged with git's union driver like the
// memory files, so every line stands alone: a reader skips a line it
// cannot read (a half-written tail, a merge artefact) with a warning and
// goes on.
package reviewlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/atomicfile"
	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/regfile"
)

// File is the log's name in the memory folder.
const File = "reviews.jsonl"

// Bounds: one line never exceeds MaxLine bytes, so a review that touched
// hundreds of lessons cannot bloat the log, and a reader refuses a file
// larger than MaxFile instead of reading without end.
const (
	MaxLine  = 4096
	MaxFile  = 64 << 20
	maxField = 120
	maxIDs   = 40
	maxIDLen = 40
)

// Review is one line of the log.
type Review struct {
	Time    time.Time `json:"time"`
	Task    string    `json:"task,omitempty"`
	Kind    string    `json:"kind"`    // impl-review, plan-review, completion-review, review
	Verdict string    `json:"verdict"` // SHIP, NEEDS_WORK, MAJOR_RETHINK, or "" when none was found
	// Findings is how many findings the review had, Kept how many of them
	// were learnable lessons.
	Findings int `json:"findings"`
	Kept     int `json:"kept"`
	// New lessons were appended, Recurred ones were already in memory and
	// got a sighting; IDs are the entries touched either way.
	New      int      `json:"new"`
	Recurred int      `json:"recurred"`
	IDs      []string `json:"ids,omitempty"`
	// Event is the tool call that showed the review (hookevent's
	// Identity): a hook that runs twice for one call finds it here and
	// records nothing the second time.
	Event string `json:"event,omitempty"`
}

// Path is the log in the memory folder dir.
func Path(dir string) string { return filepath.Join(dir, File) }

// Line is r as the log stores it: one redacted, bounded JSON line ending
// in a newline.
func Line(r Review) []byte {
	r.Time = r.Time.UTC().Truncate(time.Millisecond)
	if y := r.Time.Year(); y < 1 || y > 9999 {
		r.Time = time.Unix(0, 0).UTC() // JSON cannot hold the year; keep the line readable
	}
	r.Task, r.Kind, r.Verdict = clean(r.Task), clean(r.Kind), clean(r.Verdict)
	r.IDs = slices.DeleteFunc(slices.Clone(r.IDs), func(id string) bool { return !validID(id) })
	r.IDs = r.IDs[:min(len(r.IDs), maxIDs)]
	r.Findings = max(r.Findings, 0)
	if !validID(r.Event) {
		r.Event = ""
	}
	b, _ := json.Marshal(r) // strings, ints and an in-range time always encode
	return append(b, '\n')
}

// clean makes a field safe to store: one line, secrets masked, bounded.
func clean(s string) string {
	s = mdstore.OneLine(redact.String(s))
	if len(s) > maxField {
		s = strings.ToValidUTF8(s[:maxField], "")
	}
	return s
}

// validID accepts entry ids as mdstore writes them (p-3f9a0c12ab34) and
// anything of that alphabet and size, unless redaction would touch it: an
// id is never a place a secret can ride along in.
func validID(id string) bool {
	return hookevent.PlainToken(id, maxIDLen) && redact.String(id) == id
}

// tail is how much of the log's end Logged reads: the runs of one tool
// call are seconds apart, and dozens of lines (at least four of MaxLine)
// fit in it. Searching it costs about 8 instructions a byte.
const tail = 16 << 10

// Logged reports whether the log in the memory folder dir has a line for
// the tool call event among its last lines. The caller holds the memory
// lock, so that checking and appending are one step.
func Logged(dir, event string) (bool, error) {
	if !validID(event) {
		return false, nil
	}
	f, err := regfile.Open(Path(dir), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reviews log: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("reviews log: %w", err)
	}
	off := max(fi.Size()-tail, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("reviews log: %w", err)
	}
	// An id needs no escaping, and a quote inside a JSON string is always
	// escaped, so these bytes occur only as the field itself.
	return bytes.Contains(buf, []byte(`"event":"`+event+`"`)), nil
}

// AppendLine appends line (one line, ending in a newline) to the regular
// file at path, creating it, with one write to a file opened for
// appending; if a crash left the file's last line unfinished, line starts
// on a fresh one instead of being swallowed into it. It returns the file's
// size after the write. Both flowmem logs append through it.
func AppendLine(path string, line []byte) (int64, error) {
	path, err := atomicfile.SameName(path, "a memory file")
	if err != nil {
		return 0, err
	}
	f, err := regfile.Open(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return 0, err
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if err == nil {
		_, err = f.Write(line)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("append to %s: %w", path, err)
	}
	return fi.Size() + int64(len(line)), nil
}

// Skipped is a line a reader could not use.
type Skipped struct {
	Line int    `json:"line"`
	Why  string `json:"why"`
}

// Parse reads log lines in order. A line that is not one valid review is
// reported in skipped and left out.
func Parse(b []byte) (reviews []Review, skipped []Skipped) {
	n := 0
	for line := range bytes.Lines(b) {
		n++
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if rv, why := parseLine(line); why != "" {
			skipped = append(skipped, Skipped{Line: n, Why: why})
		} else {
			reviews = append(reviews, rv)
		}
	}
	return reviews, skipped
}

func parseLine(line []byte) (Review, string) {
	if len(line) > MaxLine {
		return Review{}, fmt.Sprintf("longer than %d bytes", MaxLine)
	}
	var r Review
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Review{}, "not a review: " + mdstore.OneLine(err.Error())
	}
	if dec.More() {
		return Review{}, "more than one value on the line"
	}
	switch {
	case r.Time.IsZero():
		return Review{}, "no time"
	case r.Findings < 0 || r.Kept < 0 || r.New < 0 || r.Recurred < 0:
		return Review{}, "negative count"
	}
	r.IDs = slices.DeleteFunc(r.IDs, func(id string) bool { return !validID(id) })
	r.Task, r.Kind, r.Verdict = mdstore.OneLine(r.Task), mdstore.OneLine(r.Kind), mdstore.OneLine(r.Verdict)
	return r, ""
}

// Read parses the log in the memory folder dir; a missing log is empty.
// The file must be a regular file (a FIFO or device in its place is an
// error at once, not a hang) of at most MaxFile bytes.
func Read(dir string) ([]Review, []Skipped, error) {
	b, err := regfile.Read(Path(dir), MaxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if errors.Is(err, regfile.ErrTooLarge) {
		return nil, nil, fmt.Errorf("reviews log: %w; move it aside (it only feeds stats and audit)", err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reviews log: %w", err)
	}
	reviews, skipped := Parse(b)
	return reviews, skipped, nil
}

// Warning is the one line a command prints for skipped lines: how many,
// and where the first few are.
func Warning(path string, skipped []Skipped) string {
	if len(skipped) == 0 {
		return ""
	}
	var where []string
	for i, s := range skipped {
		if i == 3 {
			where = append(where, fmt.Sprintf("and %d more", len(skipped)-3))
			break
		}
		where = append(where, fmt.Sprintf("line %d (%s)", s.Line, s.Why))
	}
	return fmt.Sprintf("%s: skipped %d unreadable line(s): %s", path, len(skipped), strings.Join(where, "; "))
}
