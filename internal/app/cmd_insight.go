package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowmem/flowmem/internal/atomicfile"
	"github.com/flowmem/flowmem/internal/insight"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/regfile"
	"github.com/flowmem/flowmem/internal/reviewlog"
	"github.com/urfave/cli/v2"
)

// insightCommands are the memory subcommands that show what the memory
// learned and whether it helps (SPEC §6b): stats, audit, report.
func insightCommands(e *env) []*cli.Command {
	return []*cli.Command{
		{
			Name:  "stats",
			Usage: "entries by file, category and status, recurring lessons, reviews and their verdicts",
			Description: `Reads the memory files and the reviews log (.flow/memory/reviews.jsonl, written
by the hook for every review it recognised). An active entry not seen for
memory.stale_after_days (default 120) counts as stale. The first-pass SHIP
rate counts, per ISO week, the tasks whose first review of a kind shipped.

Examples:
   flowmem memory stats
   flowmem memory stats --json`,
			Flags: []cli.Flag{jsonFlag()},
			Action: args(0, "no arguments", func(c *cli.Context) error {
				in, err := e.insightInputs()
				if err != nil {
					return err
				}
				st := insight.Compute(in.entries, in.reviews, len(in.skipped), e.Now(), in.staleDays)
				if c.Bool("json") {
					return e.writeJSON(st)
				}
				return insight.WriteStats(e.Out, st)
			}),
		},
		{
			Name:  "audit",
			Usage: "which lessons handed to the model recurred anyway, which hold, which are never recalled",
			Description: `Sets the record of what memory read --relevant, prime and the scout handed to
the model (.flow/memory/injections.jsonl, this machine only) against the
reviews log (a recall printed on a terminal, read by a person, is not noted).
A lesson that recurred in a review after it was handed over is not working:
reword it, or promote it to a convention. One handed over and not seen in a
review since is holding. Lessons older than --days that were not handed over
in the last --days days are listed too. Each line names the entry and the
evidence: dates, tasks, verdicts.

Examples:
   flowmem memory audit
   flowmem memory audit --days 60 --json`,
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "days", Value: insight.DefaultUnusedDays, Usage: "list lessons not recalled for `N` days"},
				jsonFlag(),
			},
			Action: args(0, "no arguments", func(c *cli.Context) error {
				if c.Int("days") < 1 {
					return usagef("--days must be at least 1")
				}
				in, err := e.insightInputs()
				if err != nil {
					return err
				}
				a, err := in.audit(e, c.Int("days"))
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return e.writeJSON(a)
				}
				return insight.WriteAudit(e.Out, a)
			}),
		},
		{
			Name:  "report",
			Usage: "write a self-contained HTML page of what the memory learned and whether it helps",
			Description: `One file, no network: inline styles and SVG, no script, no font, nothing
fetched (its Content Security Policy forbids it). It shows captures over time,
entries by category and status, the most recurrent lessons, the audit's
not-working list and every entry, its text escaped. Open it in any browser.

Examples:
   flowmem memory report --html memory.html
   flowmem memory report --html - > memory.html`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "html", Usage: "write the page to `FILE` (- for stdout)"},
			},
			Action: args(0, "no arguments (the file goes after --html)", func(c *cli.Context) error {
				file := c.String("html")
				if file == "" {
					return usagef("--html FILE is required")
				}
				in, err := e.insightInputs()
				if err != nil {
					return err
				}
				if file != "-" && within(file, filepath.Join(in.project, ".flow")) {
					// A slip of the path would replace the memory itself.
					return usagef("--html %s is inside .flow/, where the memory and its config live: write the page elsewhere", file)
				}
				a, err := in.audit(e, insight.DefaultUnusedDays)
				if err != nil {
					return err
				}
				now := e.Now()
				r := insight.Report{Title: "flowmem memory — " + filepath.Base(in.project), Now: now,
					Stats: insight.Compute(in.entries, in.reviews, len(in.skipped), now, in.staleDays),
					Audit: a, Entries: in.entries, StaleAfterDays: in.staleDays}
				var b bytes.Buffer
				if err := insight.WriteHTML(&b, r); err != nil {
					return err
				}
				if file == "-" {
					_, err := e.raw.Out.Write(b.Bytes())
					return err
				}
				if err := reportTarget(file); err != nil {
					return err
				}
				if err := atomicfile.Write(file, b.Bytes(), 0o644); err != nil {
					return fmt.Errorf("write report: %w", err)
				}
				e.say("wrote %s (%d entries, %d reviews)", file, len(in.entries), len(in.reviews))
				return nil
			}),
		},
	}
}

// reportTarget: the page replaces only a page flowmem wrote (its title
// says so): --html README.md, or a folder's name, is a slip of the path,
// not a wish to lose the file. A missing folder is made.
func reportTarget(file string) error {
	fi, err := os.Stat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("memory report: %w", err)
	case fi.IsDir():
		return fmt.Errorf("memory report: %s is a folder: name the page, e.g. %s", file, filepath.Join(file, "memory.html"))
	}
	f, err := regfile.Open(file, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("memory report: %w", err)
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte("<!DOCTYPE html>")) || !bytes.Contains(head, []byte("<title>flowmem memory")) {
		return fmt.Errorf("memory report: %s exists and is not a page flowmem wrote: name another file (or remove it first)", file)
	}
	return nil
}

// audit runs the audit over the inputs and the injection record.
func (in *inputs) audit(e *env, days int) (insight.Audit, error) {
	injections, skipped, err := insight.ReadInjections(in.store.Dir)
	if err != nil {
		return insight.Audit{}, err
	}
	if skipped > 0 {
		e.say("flowmem: warning: %s: skipped %d unreadable line(s)", insight.InjectFile, skipped)
	}
	return insight.Run(in.entries, in.reviews, injections, e.Now(), in.staleDays, days), nil
}

// inputs is what every insight view reads: the folded entries, the reviews
// log and the staleness setting.
type inputs struct {
	project   string
	store     *mdstore.Store
	entries   []mdstore.Entry
	reviews   []reviewlog.Review
	skipped   []reviewlog.Skipped
	staleDays int
}

// insightInputs loads the memory and the reviews log; unreadable log lines
// are a warning on stderr, never an error.
func (e *env) insightInputs() (*inputs, error) {
	p, cfg, s, err := e.memoryStore()
	if err != nil {
		return nil, err
	}
	// At least 1: config.Load refuses anything less.
	in := &inputs{project: string(p), store: s, staleDays: cfg.Int("memory.stale_after_days")}
	if in.entries, err = s.Load(); err != nil {
		return nil, err
	}
	if in.reviews, in.skipped, err = reviewlog.Read(s.Dir); err != nil {
		return nil, err
	}
	if w := reviewlog.Warning(e.rel(p, reviewlog.Path(s.Dir)), in.skipped); w != "" {
		e.say("flowmem: warning: %s", w)
	}
	return in, nil
}

// noteInjected records which entries a recall handed to the model (for
// memory audit). It is one append and never fails the recall.
func (e *env) noteInjected(s *mdstore.Store, by string, requests []string, ids []string) {
	if toDevice(e.raw.Out) {
		// Every hand-over to a model reads flowmem's output from a pipe
		// or a file: the scout through Claude Code's Bash tool, the
		// SessionStart hook through Claude Code, a Ralph loop through
		// $(...). Output on a terminal (a character device, as /dev/null
		// is) reaches a person or no one, and would count in memory
		// audit as a lesson the model was given.
		return
	}
	request := ""
	if len(requests) > 0 {
		request = requests[0]
	}
	// A request that names no task id leaves the task Ralph or flow-next
	// set for this session.
	if insight.TaskIDOf(request) == "" {
		request = e.Getenv("FLOW_TASK_ID")
	}
	_ = insight.NoteInjected(s.Dir, by, request, ids, e.Now())
}

// within reports whether path (relative to the working folder) is dir or
// lies under it, links resolved as far as they exist.
func within(path, dir string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(r, filepath.Base(abs))
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	rel, err := filepath.Rel(dir, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// toDevice reports whether stream is a character device: a terminal, or a
// device such as /dev/null.
func toDevice(stream any) bool {
	f, ok := stream.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
