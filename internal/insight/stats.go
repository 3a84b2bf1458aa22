// Package insight answers, from flowmem's plain files, what the memory
// learned and whether it helps: stats over the entries and the reviews log,
// the record of which lessons were handed to the model (injections), the
// audit that sets the two side by side, and a self-contained HTML report.
// Everything here only reads; the one write is the injection record's
// single append.
package insight

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// topRecurrent bounds the "most recurrent" list.
const topRecurrent = 10

// Stats is `memory stats --json`.
type Stats struct {
	Total          int            `json:"total"`
	Files          []FileCount    `json:"files"`
	Categories     map[string]int `json:"categories"`
	Status         map[string]int `json:"status"`
	StaleAfterDays int            `json:"stale_after_days"`
	Recurrent      []Lesson       `json:"recurrent"`
	Captured       Captured       `json:"captured"`
	Reviews        Reviews        `json:"reviews"`
	FirstPassShip  []Week         `json:"first_pass_ship"`
}

// FileCount is one memory file's entry count.
type FileCount struct {
	File  string `json:"file"`
	Type  string `json:"type"`
	Count int    `json:"count"`
}

// Lesson is an entry as the insight views list it.
type Lesson struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Category string   `json:"category,omitempty"`
	Status   string   `json:"status"`
	Text     string   `json:"text"`
	Seen     int      `json:"seen"`
	Date     string   `json:"date"`
	LastSeen string   `json:"last_seen"`
	Tasks    []string `json:"tasks,omitempty"`
}

// Captured counts entries first seen in the last 7 and 30 days, and lists
// the newest of them.
type Captured struct {
	Last7  int      `json:"last_7_days"`
	Last30 int      `json:"last_30_days"`
	Recent []Lesson `json:"recent"`
}

// maxRecent bounds the list of recent captures.
const maxRecent = 5

// Reviews sums the reviews log.
type Reviews struct {
	Total     int            `json:"total"`
	ByVerdict map[string]int `json:"by_verdict"`
	ByKind    map[string]int `json:"by_kind"`
	// Skipped is how many log lines could not be read.
	Skipped int `json:"skipped_lines"`
}

// Week is the first-pass SHIP rate of one ISO week: of the tasks whose
// first review of a kind happened that week, how many that first review
// shipped.
type Week struct {
	Week     string  `json:"week"` // 2026-W48
	Reviewed int     `json:"reviewed"`
	Ship     int     `json:"ship"`
	Rate     float64 `json:"rate"`
}

// Status names an entry's state for people: archived and pending as
// stored, and an active entry not seen for staleAfter days is stale.
func Status(e *mdstore.Entry, now time.Time, staleAfterDays int) string {
	switch e.Status {
	case mdstore.Archived, mdstore.Pending:
		return string(e.Status)
	}
	if e.Stale(now, staleAfterDays) {
		return "stale"
	}
	return string(mdstore.Active)
}

// LessonOf is e as the views list it.
func LessonOf(e *mdstore.Entry, now time.Time, staleAfterDays int) Lesson {
	return Lesson{ID: e.ID, Type: string(e.Kind), Category: e.Category, Status: Status(e, now, staleAfterDays),
		Text: e.Text(), Seen: e.Seen, Date: e.Date, LastSeen: cmp.Or(e.LastSeen, e.Date), Tasks: e.Tasks}
}

// Compute sums the entries (folded, as mdstore.Store.Load returns them)
// and the reviews log as of now.
func Compute(entries []mdstore.Entry, reviews []reviewlog.Review, skipped int, now time.Time, staleAfterDays int) Stats {
	st := Stats{
		Total:          len(entries),
		Categories:     map[string]int{},
		Status:         map[string]int{"active": 0, "stale": 0, "archived": 0, "pending": 0},
		StaleAfterDays: staleAfterDays,
		Recurrent:      []Lesson{},
		FirstPassShip:  []Week{},
		Reviews:        Reviews{ByVerdict: map[string]int{}, ByKind: map[string]int{}, Skipped: skipped},
	}
	for _, k := range mdstore.Kinds {
		st.Files = append(st.Files, FileCount{File: k.File(), Type: string(k)})
	}
	day := now.UTC().Format("2006-01-02")
	week := now.UTC().AddDate(0, 0, -7).Format("2006-01-02")
	month := now.UTC().AddDate(0, 0, -30).Format("2006-01-02")
	var recurrent, recent []*mdstore.Entry
	for i := range entries {
		e := &entries[i]
		if j := slices.Index(mdstore.Kinds, e.Kind); j >= 0 {
			st.Files[j].Count++ // st.Files is in Kinds' order
		}
		st.Categories[cmp.Or(e.Category, "none")]++
		st.Status[Status(e, now, staleAfterDays)]++
		if e.Date <= day && e.Date > week {
			st.Captured.Last7++
		}
		if e.Date <= day && e.Date > month {
			st.Captured.Last30++
			if e.Status != mdstore.Archived {
				recent = append(recent, e)
			}
		}
		if e.Seen > 1 && e.Status != mdstore.Archived {
			recurrent = append(recurrent, e)
		}
	}
	slices.SortStableFunc(recurrent, func(a, b *mdstore.Entry) int {
		return cmp.Or(cmp.Compare(b.Seen, a.Seen), cmp.Compare(cmp.Or(b.LastSeen, b.Date), cmp.Or(a.LastSeen, a.Date)))
	})
	for _, e := range recurrent[:min(len(recurrent), topRecurrent)] {
		st.Recurrent = append(st.Recurrent, LessonOf(e, now, staleAfterDays))
	}
	slices.SortStableFunc(recent, func(a, b *mdstore.Entry) int { return strings.Compare(b.Date, a.Date) })
	st.Captured.Recent = []Lesson{}
	for _, e := range recent[:min(len(recent), maxRecent)] {
		st.Captured.Recent = append(st.Captured.Recent, LessonOf(e, now, staleAfterDays))
	}

	st.Reviews.Total = len(reviews)
	for _, r := range reviews {
		st.Reviews.ByVerdict[cmp.Or(r.Verdict, "none")]++
		st.Reviews.ByKind[cmp.Or(r.Kind, "review")]++
	}
	st.FirstPassShip = firstPass(reviews)
	return st
}

// firstPass finds each task's first review of each kind (reviews without a
// task id cannot tell a first pass from a re-review and are left out) and
// groups them by the ISO week they happened in.
func firstPass(reviews []reviewlog.Review) []Week {
	type key struct{ task, kind string }
	first := map[key]reviewlog.Review{}
	for _, r := range reviews {
		if r.Task == "" || r.Verdict == "" {
			continue
		}
		k := key{r.Task, r.Kind}
		if f, ok := first[k]; !ok || r.Time.Before(f.Time) {
			first[k] = r
		}
	}
	weeks := map[string]*Week{}
	for _, r := range first {
		name := weekOf(r.Time.UTC())
		wk := weeks[name]
		if wk == nil {
			wk = &Week{Week: name}
			weeks[name] = wk
		}
		wk.Reviewed++
		if r.Verdict == "SHIP" {
			wk.Ship++
		}
	}
	out := []Week{}
	for _, w := range weeks {
		w.Rate = float64(w.Ship) / float64(w.Reviewed)
		out = append(out, *w)
	}
	slices.SortFunc(out, func(a, b Week) int { return strings.Compare(a.Week, b.Week) })
	return out
}

// Width is the terminal width the plain-text views are laid out for.
const Width = 80

// WriteStats prints st for people, every line at most Width columns.
func WriteStats(w io.Writer, st Stats) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Memory: %d entries (%d active, %d stale, %d archived, %d pending)\n",
		st.Total, st.Status["active"], st.Status["stale"], st.Status["archived"], st.Status["pending"])
	fmt.Fprintf(&b, "  stale: active but not seen for %d days (memory.stale_after_days)\n", st.StaleAfterDays)

	b.WriteString("\nBy file\n")
	for _, f := range st.Files {
		fmt.Fprintf(&b, "  %-20s %6d\n", f.File, f.Count)
	}
	if len(st.Categories) > 0 {
		b.WriteString("\nBy category\n")
		for _, c := range sortedCounts(st.Categories) {
			fmt.Fprintf(&b, "  %-20s %6d\n", Fit(c.name, 20), c.n)
		}
	}

	b.WriteString("\nMost recurrent lessons\n")
	if len(st.Recurrent) == 0 {
		b.WriteString("  none yet (no lesson was seen in more than one review)\n")
	}
	for _, l := range st.Recurrent {
		lead := fmt.Sprintf("  %3dx %s  ", l.Seen, l.ID)
		b.WriteString(lead)
		b.WriteString(Fit(l.Text, Width-len(lead)))
		b.WriteByte('\n')
		where := strings.Repeat(" ", len(lead)) + "last " + l.LastSeen
		if len(l.Tasks) > 0 {
			where += ", in " + strings.Join(l.Tasks, ", ")
		}
		b.WriteString(Fit(where, Width) + "\n")
	}

	fmt.Fprintf(&b, "\nCaptured: %d in the last 7 days, %d in the last 30\n", st.Captured.Last7, st.Captured.Last30)
	for _, l := range st.Captured.Recent {
		lead := fmt.Sprintf("  %s %s  ", l.Date, l.ID)
		b.WriteString(lead + Fit(l.Text, Width-len(lead)) + "\n")
	}

	fmt.Fprintf(&b, "\nReviews seen: %d", st.Reviews.Total)
	if st.Reviews.Skipped > 0 {
		fmt.Fprintf(&b, " (%d unreadable log lines skipped)", st.Reviews.Skipped)
	}
	b.WriteByte('\n')
	if st.Reviews.Total > 0 {
		b.WriteString(Fit("  by verdict: "+joinCounts(st.Reviews.ByVerdict), Width) + "\n")
		b.WriteString(Fit("  by kind:    "+joinCounts(st.Reviews.ByKind), Width) + "\n")
	}
	if len(st.FirstPassShip) > 0 {
		b.WriteString("\nFirst-pass SHIP rate (a task's first review of a kind)\n")
		for _, wk := range st.FirstPassShip {
			fmt.Fprintf(&b, "  %-10s %4d/%-4d %4.0f%%  %s\n", wk.Week, wk.Ship, wk.Reviewed, 100*wk.Rate, bar(wk.Rate, 40))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type count struct {
	name string
	n    int
}

// sortedCounts orders a tally by count, then name.
func sortedCounts(m map[string]int) []count {
	out := make([]count, 0, len(m))
	for k, v := range m {
		out = append(out, count{k, v})
	}
	slices.SortFunc(out, func(a, b count) int { return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.name, b.name)) })
	return out
}

func joinCounts(m map[string]int) string {
	var parts []string
	for _, c := range sortedCounts(m) {
		parts = append(parts, fmt.Sprintf("%s %d", c.name, c.n))
	}
	return strings.Join(parts, ", ")
}

func bar(rate float64, width int) string {
	n := int(rate*float64(width) + 0.5)
	return strings.Repeat("#", n) + strings.Repeat(".", width-n)
}

// Fit cuts s to at most n runes, marking the cut with an ellipsis.
func Fit(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
