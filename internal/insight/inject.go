package insight

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/flowmem/flowmem/internal/regfile"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// The injection record: which entries memory read --relevant, prime and
// the scout handed to the model, and when. The audit needs it to tell a
// lesson that recurred after the model was given it (not working) from one
// that never came back (holding). It is this machine's history, not the
// team's, so it is gitignored; and it sits on the recall path, so writing
// it is one small append and never a read.
const (
	InjectFile    = "injections.jsonl"
	injectOldFile = "injections.old.jsonl"
	// injectMax bounds the record: past it the file becomes the old
	// generation (replacing the one before), so at most twice this is kept.
	injectMax    = 1 << 20
	injectMaxIDs = 100
	// ignoreLine is what the memory folder's .gitignore gets.
	ignoreLine = "injections*.jsonl"
)

// Injection is one line of the record.
type Injection struct {
	Time time.Time `json:"time"`
	By   string    `json:"by"` // read, prime, session-start
	Task string    `json:"task,omitempty"`
	IDs  []string  `json:"ids"`
}

// NoteInjected appends one line saying that by handed ids to the model at
// now, for task when the request named a task id. Nothing is recorded for
// an empty list. The caller ignores its error: the record must never fail
// a recall.
func NoteInjected(dir, by, request string, ids []string, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	ids = ids[:min(len(ids), injectMaxIDs)]
	line, err := json.Marshal(Injection{Time: now.UTC().Truncate(time.Millisecond), By: by, Task: TaskIDOf(request), IDs: ids})
	if err != nil {
		return fmt.Errorf("injection record: %w", err)
	}
	line = append(line, '\n')
	path := filepath.Join(dir, InjectFile)
	size, err := reviewlog.AppendLine(path, line)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no memory folder: nothing to annotate
	}
	if err != nil {
		return fmt.Errorf("injection record: %w", err)
	}
	if size == int64(len(line)) {
		// Just created: it is this machine's history, never committed.
		_, _ = regfile.EnsureLine(filepath.Join(dir, ".gitignore"), ignoreLine, "")
	}
	if size > injectMax {
		// Two processes may both see the size: the second rename fails,
		// harmlessly.
		_ = os.Rename(path, filepath.Join(dir, injectOldFile))
	}
	return nil
}

// TaskIDOf is the task id a request starts with ("fn-3.2: add retries" →
// "fn-3.2"), or "": the audit's evidence names tasks, never request text.
func TaskIDOf(request string) string {
	f := strings.Fields(request)
	if len(f) == 0 {
		return ""
	}
	id := strings.TrimRight(f[0], ":,;")
	if len(id) > 40 || !taskIDRe().MatchString(id) {
		return ""
	}
	return id
}

// taskIDRe: letters or digits, '-', then digits with optional .digits
// parts. Compiled on first use, so flowmem's other commands never pay
// for it.
var taskIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9]+-[0-9]+(?:\.[0-9]+)*$`) })

// ReadInjections reads the record (the old generation first), skipping
// lines it cannot use; a missing record is empty.
func ReadInjections(dir string) ([]Injection, int, error) {
	var out []Injection
	skipped := 0
	for _, name := range []string{injectOldFile, InjectFile} {
		raw, err := regfile.Read(filepath.Join(dir, name), 4*injectMax)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("injection record: %w", err)
		}
		ins, n := parseInjections(raw)
		out = append(out, ins...)
		skipped += n
	}
	return out, skipped, nil
}

// parseInjections reads record lines, counting those it cannot use.
func parseInjections(raw []byte) ([]Injection, int) {
	var out []Injection
	skipped := 0
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var in Injection
		if json.Unmarshal(l, &in) != nil || in.Time.IsZero() || len(in.IDs) == 0 {
			skipped++
			continue
		}
		out = append(out, in)
	}
	return out, skipped
}
