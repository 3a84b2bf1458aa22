package insight

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// DefaultUnusedDays is how long a lesson may go without being handed to
// the model before the audit lists it as never recalled.
const DefaultUnusedDays = 30

// Audit is `memory audit --json`: whether the lessons handed to the model
// stopped the mistakes they describe.
type Audit struct {
	Days int `json:"days"`
	// NotWorking lessons were handed to the model and recurred in a later
	// review all the same.
	NotWorking []Finding `json:"not_working"`
	// Holding lessons were handed over and not seen in a review since.
	Holding []Finding `json:"holding"`
	// Unused lessons, older than Days, were not handed over in the last
	// Days days.
	Unused     []Finding `json:"unused"`
	Injections int       `json:"injections"`
	Reviews    int       `json:"reviews"`
}

// Finding is one lesson with the evidence for its line.
type Finding struct {
	Lesson
	Handed []Handed `json:"handed,omitempty"`
	// Recurred are the reviews that repeated the lesson after it was first
	// handed over.
	Recurred []Seen `json:"recurred,omitempty"`
	// Since are the reviews, after it was first handed over, of the tasks
	// it was handed over for.
	Since        []Seen `json:"since,omitempty"`
	ReviewsSince int    `json:"reviews_since"`
	Advice       string `json:"advice,omitempty"`
}

// Handed is one time a lesson was handed to the model.
type Handed struct {
	Time time.Time `json:"time"`
	By   string    `json:"by"`
	Task string    `json:"task,omitempty"`
}

// Seen is a review as audit evidence.
type Seen struct {
	Time    time.Time `json:"time"`
	Task    string    `json:"task,omitempty"`
	Kind    string    `json:"kind,omitempty"`
	Verdict string    `json:"verdict,omitempty"`
	// FromMetadata marks a recurrence known only from the entry's own
	// last-seen date (the reviews log has no line for it).
	FromMetadata bool `json:"from_metadata,omitempty"`
}

// maxEvidence bounds the evidence kept per lesson.
const maxEvidence = 5

// Run sets the injection record against the reviews log and the entries'
// metadata as of now.
func Run(entries []mdstore.Entry, reviews []reviewlog.Review, injections []Injection, now time.Time, staleAfterDays, days int) Audit {
	a := Audit{Days: days, NotWorking: []Finding{}, Holding: []Finding{}, Unused: []Finding{},
		Injections: len(injections), Reviews: len(reviews)}
	handed := map[string][]Handed{}
	for _, in := range injections {
		for _, id := range in.IDs {
			handed[id] = append(handed[id], Handed{Time: in.Time, By: in.By, Task: in.Task})
		}
	}
	touched := map[string][]int{}
	for i, r := range reviews {
		for _, id := range r.IDs {
			touched[id] = append(touched[id], i)
		}
	}
	// By the calendar, not a Duration: a window over 292 years would
	// overflow one and put the cutoff in the future.
	cutoff := now.AddDate(0, 0, -min(days, 1<<20))
	for i := range entries {
		e := &entries[i]
		if e.Status == mdstore.Archived || e.Status == mdstore.Pending {
			continue
		}
		f := Finding{Lesson: LessonOf(e, now, staleAfterDays)}
		hs := handed[e.ID]
		if len(hs) == 0 {
			if old(e.Date, cutoff) {
				a.Unused = append(a.Unused, f)
			}
			continue
		}
		slices.SortStableFunc(hs, func(x, y Handed) int { return x.Time.Compare(y.Time) })
		first := hs[0].Time
		tasks := map[string]bool{}
		for _, h := range hs {
			if h.Task != "" {
				tasks[h.Task] = true
			}
		}
		for n, ri := range touched[e.ID] {
			r := reviews[ri]
			// The review that captured the lesson is no recurrence of it,
			// however close to a hand-over it was logged.
			if n == 0 && day(r.Time) == e.Date {
				continue
			}
			if r.Time.After(first) {
				f.Recurred = append(f.Recurred, seenOf(r))
			}
		}
		if len(f.Recurred) == 0 && e.Seen > 1 && e.LastSeen > e.Date && e.LastSeen > day(first) {
			// The log lost the review (or predates this version); the
			// entry's own last sighting (not its capture) is a later day
			// than the hand-over.
			t, _ := time.Parse("2006-01-02", e.LastSeen)
			f.Recurred = append(f.Recurred, Seen{Time: t, FromMetadata: true})
		}
		for _, r := range reviews {
			if !r.Time.After(first) {
				continue
			}
			f.ReviewsSince++
			if tasks[r.Task] && len(f.Since) < maxEvidence {
				f.Since = append(f.Since, seenOf(r))
			}
		}
		f.Handed = hs
		if len(hs) > maxEvidence {
			f.Handed = append(hs[:maxEvidence-1:maxEvidence-1], hs[len(hs)-1])
		}
		if len(f.Recurred) > 0 {
			f.Advice = "reword it or promote it to a convention"
			if e.Kind == mdstore.Convention {
				f.Advice = "reword it: it is a convention already"
			}
			a.NotWorking = append(a.NotWorking, f)
			continue
		}
		a.Holding = append(a.Holding, f)
		if hs[len(hs)-1].Time.Before(cutoff) && old(e.Date, cutoff) {
			a.Unused = append(a.Unused, f)
		}
	}
	slices.SortStableFunc(a.NotWorking, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(len(y.Recurred), len(x.Recurred)), strings.Compare(x.ID, y.ID))
	})
	slices.SortStableFunc(a.Holding, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(y.ReviewsSince, x.ReviewsSince), x.Handed[0].Time.Compare(y.Handed[0].Time))
	})
	slices.SortStableFunc(a.Unused, func(x, y Finding) int { return strings.Compare(x.Date, y.Date) })
	return a
}

func seenOf(r reviewlog.Review) Seen {
	return Seen{Time: r.Time, Task: r.Task, Kind: r.Kind, Verdict: r.Verdict}
}

// old reports whether a YYYY-MM-DD date is before cutoff: a lesson
// captured yesterday has had no chance to be recalled yet.
func old(date string, cutoff time.Time) bool {
	t, err := time.Parse("2006-01-02", date)
	return err == nil && t.Before(cutoff)
}

// maxListed bounds each section of the plain-text audit; --json lists all.
const maxListed = 20

// WriteAudit prints a for people, every line at most Width columns.
func WriteAudit(w io.Writer, a Audit) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Audit of %d hand-overs to the model against %d logged reviews\n", a.Injections, a.Reviews)
	if a.Injections == 0 {
		b.WriteString("  nothing handed over yet: memory read --relevant, prime and the scout record\n  what they return\n")
	}

	fmt.Fprintf(&b, "\nNot working (%d): handed to the model, then repeated in a later review\n", len(a.NotWorking))
	section(&b, a.NotWorking, func(f *Finding) []string {
		return []string{"handed over " + handedText(f.Handed), "recurred " + seenList(f.Recurred), "→ " + f.Advice}
	})

	fmt.Fprintf(&b, "\nHolding (%d): handed over and not seen in a review since\n", len(a.Holding))
	section(&b, a.Holding, func(f *Finding) []string {
		since := fmt.Sprintf("%d review(s) since, none repeated it", f.ReviewsSince)
		if len(f.Since) > 0 {
			since += ": " + seenList(f.Since)
		}
		return []string{"handed over " + handedText(f.Handed), since}
	})

	fmt.Fprintf(&b, "\nNot recalled in %d days (%d)\n", a.Days, len(a.Unused))
	section(&b, a.Unused, func(f *Finding) []string {
		if len(f.Handed) == 0 {
			return []string{"captured " + f.Date + ", never handed over"}
		}
		return []string{"captured " + f.Date + ", last handed over " + day(f.Handed[len(f.Handed)-1].Time)}
	})
	_, err := io.WriteString(w, b.String())
	return err
}

func section(b *strings.Builder, fs []Finding, evidence func(f *Finding) []string) {
	if len(fs) == 0 {
		b.WriteString("  none\n")
		return
	}
	for i := range fs {
		if i == maxListed {
			fmt.Fprintf(b, "  … and %d more (--json lists all)\n", len(fs)-maxListed)
			break
		}
		f := &fs[i]
		lead := fmt.Sprintf("  %s  ", f.ID)
		b.WriteString(lead + Fit(f.Text, Width-len(lead)) + "\n")
		for _, l := range evidence(f) {
			b.WriteString(Fit("      "+l, Width) + "\n")
		}
	}
}

func handedText(hs []Handed) string {
	var parts []string
	for _, h := range hs {
		s := day(h.Time) + " (" + h.By
		if h.Task != "" {
			s += ", " + h.Task
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, ", ")
}

func seenList(rs []Seen) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, seenText(r))
	}
	return strings.Join(parts, "; ")
}

func seenText(r Seen) string {
	if r.FromMetadata {
		return "last seen " + day(r.Time) + " (entry metadata)"
	}
	s := "in " + cmp.Or(r.Task, "a review") + " on " + day(r.Time)
	if r.Verdict != "" {
		s += " (" + r.Verdict + ")"
	}
	return s
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }
