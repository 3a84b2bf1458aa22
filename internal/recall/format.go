package recall

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
)

const (
	header    = "## Relevant Memory\n"
	noneFound = "No relevant entries in project memory.\n"
	// primeIntro tells the model what the block is; Prime's output lands in
	// a prompt with no other explanation around it.
	primeIntro = "Lessons from earlier code reviews of this project; apply the ones that fit.\n"

	// Per-field caps keep one verbose lesson from eating the whole budget.
	maxTextBytes = 500
	maxFixBytes  = 300
)

// Line renders one entry as a single prompt line:
//
//   - [pitfall] <issue> → <fix> (fn-1.1, seen 3x)
//   - [convention] <body> (manual)
func Line(e mdstore.Entry) string {
	var b strings.Builder
	kind := string(e.Kind)
	if kind == "" {
		kind = "memory"
	}
	b.WriteString("- [")
	b.WriteString(kind)
	b.WriteString("] ")
	b.WriteString(clip(e.Text(), maxTextBytes))
	if e.Fix != "" {
		b.WriteString(" → ")
		b.WriteString(clip(e.Fix, maxFixBytes))
	}
	b.WriteString(" (")
	b.WriteString(clip(firstTask(&e), 80))
	if e.Seen > 1 {
		b.WriteString(", seen ")
		b.WriteString(strconv.Itoa(e.Seen))
		b.WriteString("x")
	}
	b.WriteString(")")
	return b.String()
}

func firstTask(e *mdstore.Entry) string {
	for _, t := range e.Tasks {
		if t = strings.TrimSpace(t); t != "" {
			return t
		}
	}
	if t := strings.TrimSpace(e.Task); t != "" {
		return t
	}
	return "manual"
}

// clip puts s on one line (legacy entries may span several) and bounds it
// to max bytes, cutting at a word where one is near and marking the cut.
func clip(s string, max int) string {
	if len(s) <= max && !strings.ContainsAny(s, "\n\r\t\v\f\u0085\u2028\u2029") {
		return strings.TrimSpace(s)
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	const ell = "…"
	cut := max - len(ell)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ") + ell
}

// Format writes hits as a "## Relevant Memory" block of at most opt.Limit
// lines and opt.MaxChars bytes. Lines are never cut: one that does not fit
// is left out and later, shorter ones may still fit; when not even one
// fits, Format writes nothing. With no hits it says so, since an empty
// answer reads as a failure to a scout.
func Format(w io.Writer, hits []Hit, opt Options) error {
	if len(hits) == 0 {
		_, err := io.WriteString(w, noneFound)
		return err
	}
	max := opt.MaxChars
	if max <= 0 {
		max = DefaultMaxChars
	}
	out := block(header, hits, limitOf(opt), max)
	if out == "" {
		need := len(header) + len(Line(hits[0].Entry)) + 1
		for _, h := range hits[1:] {
			need = min(need, len(header)+len(Line(h.Entry))+1)
		}
		return &BudgetError{Hits: len(hits), Max: max, Need: need}
	}
	_, err := io.WriteString(w, out)
	return err
}

// BudgetError says that relevant entries were found but none fits the
// character budget: printing nothing would read as "nothing relevant".
type BudgetError struct {
	Hits, Max, Need int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%d relevant entries found, but none fits in %d characters; the shortest needs %d (raise --max-chars)", e.Hits, e.Max, e.Need)
}

// block renders head and as many hit lines as fit in max bytes; "" when no
// line fits.
func block(head string, hits []Hit, limit, max int) string {
	var b strings.Builder
	b.WriteString(head)
	lines := 0
	for _, h := range hits {
		if lines == limit {
			break
		}
		l := Line(h.Entry)
		if b.Len()+len(l)+1 > max {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
		lines++
	}
	if lines == 0 {
		return ""
	}
	return b.String()
}
