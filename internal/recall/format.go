package recall

import (
	"cmp"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/sanitize"
)

const (
	header = "## Relevant Memory\n"
	// primeIntro tells the model what the block is; Prime's output lands in
	// a prompt with no other explanation around it.
	primeIntro = "Lessons from earlier code reviews of this project; apply the ones that fit.\n"

	// Per-field caps keep one verbose lesson from eating a prompt's budget.
	maxTextBytes    = 500
	maxFixBytes     = 300
	maxContextBytes = 160
)

// render appends an entry as a terminal or a prompt shows it, in two
// lines:
//
//   - [pitfall] <issue> → <fix>
//     context: <context> · fn-1.1, fn-2.4 · seen 3x, last 2026-02-01 · stale
//
// memory read, read --relevant and prime all print entries this way. With
// clip, long fields are cut at a word and marked (prompts have budgets);
// every field is on one line either way. "stale" is there only for an
// entry not seen for a.days days: it still counts, but the reader (a
// person, or a model given the block) should know it has not come up for
// a long time. Without clip (memory read's full listing, read by people)
// the second line ends with the entry's id, since show, archive, forget and
// merge take one.
func render(dst []byte, e *mdstore.Entry, clip bool, a ageing) []byte {
	limit := func(n int) int {
		if clip {
			return n
		}
		return 1 << 30
	}
	kind := string(e.Kind)
	if kind == "" {
		kind = "memory"
	}
	v := mdstore.View{
		Text: []byte(oneLine(e.Text(), limit(maxTextBytes))), Fix: []byte(oneLine(e.Fix, limit(maxFixBytes))),
		Context: []byte(oneLine(e.Context, limit(maxContextBytes))), Tasks: [][]byte{[]byte(oneLine(tasks(e), 120))},
		Seen: e.Seen, LastSeen: []byte(lastSeen(e)),
	}
	if !clip {
		v.ID = []byte(e.ID)
	}
	return appendLines(dst, kind, &v, a)
}

// ageing says which entries render marks stale: those not seen for days
// days at now. The zero value marks none.
type ageing struct {
	now  time.Time
	days int
}

// ageingOf is opt's ageing.
func ageingOf(opt *Options) ageing { return ageing{opt.Now, opt.StaleAfterDays} }

// appendView is render(dst, e, false, a) for the entry v views, in file
// kind k; ok is false when a field would need folding or cutting (the
// caller renders the parsed entry then). plain says that the line is
// printable ASCII but for render's own separators, which sanitize.Text
// keeps as they are: a terminal's writer need not check it again.
func appendView(dst []byte, k mdstore.Kind, v *mdstore.View, a ageing) (out []byte, ok, plain bool) {
	n := 0
	plain = v.ASCII && sanitize.ASCII(v.ID) && sanitize.ASCII(v.LastSeen)
	for _, t := range v.Tasks {
		n += len(t) + len(", ")
		plain = plain && sanitize.ASCII(t)
	}
	// Printable ASCII holds no break.
	if k == "" || len(v.LastSeen) == 0 || n-len(", ") > 120 || !v.ASCII && (hasBreak(v.Text) || hasBreak(v.Fix) || hasBreak(v.Context)) {
		return dst, false, false
	}
	return appendLines(dst, string(k), v, a), true, plain
}

// appendLines writes the two lines of an entry whose fields are each on one
// line already (render's from an Entry, appendView's from the file's bytes).
func appendLines(dst []byte, kind string, v *mdstore.View, a ageing) []byte {
	dst = append(dst, "- ["...)
	dst = append(dst, kind...)
	dst = append(dst, "] "...)
	// The model reads these lines: a lesson's own tags must not close
	// the wrapper they arrive in (sanitize.Tags).
	dst = sanitize.AppendTags(dst, v.Text)
	if len(v.Fix) > 0 {
		dst = append(dst, " → "...)
		dst = sanitize.AppendTags(dst, v.Fix)
	}
	dst = append(dst, "\n  "...)
	if len(v.Context) > 0 {
		dst = append(dst, "context: "...)
		dst = sanitize.AppendTags(dst, v.Context)
		dst = append(dst, " · "...)
	}
	for i, t := range v.Tasks {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, t...)
	}
	if v.Seen > 1 {
		dst = append(dst, " · seen "...)
		dst = strconv.AppendInt(dst, int64(v.Seen), 10)
		dst = append(dst, "x, last "...)
	} else if len(v.LastSeen) > 0 {
		dst = append(dst, " · "...)
	}
	dst = append(dst, v.LastSeen...)
	if a.days > 0 && v.Stale(a.now, a.days) {
		dst = append(dst, " · stale"...)
	}
	if len(v.ID) > 0 {
		dst = append(dst, " · "...)
		dst = append(dst, v.ID...)
	}
	return append(dst, '\n')
}

// tasks names where a lesson came from: its tasks, or manual.
func tasks(e *mdstore.Entry) string {
	var ts []string
	for _, t := range e.Tasks {
		if t = strings.TrimSpace(t); t != "" {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		if t := strings.TrimSpace(e.Task); t != "" {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return "manual"
	}
	return strings.Join(ts, ", ")
}

// oneLine puts s on one line (legacy entries may span several) and bounds
// it to max bytes, cutting at a word where one is near and marking the cut.
func oneLine(s string, max int) string {
	if len(s) <= max && !hasBreak(s) {
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

// breaks are the characters that make oneLine fold a text's white space.
const breaks = "\n\r\t\v\f\u0085\u2028\u2029"

// hasBreak is strings.ContainsAny(s, breaks) a byte at a time: with
// characters outside ASCII in its set, ContainsAny looks each of s's
// characters up in the set, and memory read asks this of every field of
// every entry.
func hasBreak[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		// Eight bytes at a time while none is below ' ' or outside ASCII
		// (a break is one or the other); from the first that is, a byte.
		for i+8 <= len(s) {
			if m := notPlain8(s[i : i+8]); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if ' ' <= c && c < 0xC2 {
			continue // most bytes: one comparison
		}
		switch c {
		case '\n', '\r', '\t', '\v', '\f':
			return true
		case 0xC2: // U+0085
			if i+1 < len(s) && s[i+1] == 0x85 {
				return true
			}
		case 0xE2: // U+2028, U+2029
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				return true
			}
		}
	}
	return false
}

// ErrNothing says that no lesson qualified: callers print nothing and say
// so on stderr.
var ErrNothing = fmt.Errorf("no lesson in memory bears on this request")

// Format writes hits as a "## Relevant Memory" block of at most opt.Limit
// entries and opt.MaxChars bytes. Entries are never cut: one that does not
// fit is left out and later, shorter ones may still fit. With no hits it
// writes nothing and returns ErrNothing; when none fits, a NoFitError.
func Format(w io.Writer, hits []Hit, opt Options) error {
	if len(hits) == 0 {
		return ErrNothing
	}
	budget := cmp.Or(max(opt.MaxChars, 0), DefaultMaxChars)
	out := block(header, hits, limitOf(opt), budget, ageingOf(&opt), nil)
	if out == "" {
		return noFit(header, hits, budget, ageingOf(&opt))
	}
	_, err := io.WriteString(w, out)
	return err
}

// NoFitError says that relevant lessons were found but none fits the
// budget: printing nothing would read as "nothing relevant".
type NoFitError struct {
	Found, Budget, Need int
}

func (e *NoFitError) Error() string {
	found := "entries"
	if e.Found == 1 {
		found = "entry"
	}
	return fmt.Sprintf("%d relevant %s found, but none fits in %d characters; the shortest needs %d (raise --max-chars)", e.Found, found, e.Budget, e.Need)
}

// noFit is the NoFitError of hits that no block under head fits in budget.
func noFit(head string, hits []Hit, budget int, a ageing) error {
	need := 1 << 30
	for _, h := range hits {
		need = min(need, len(head)+len(render(nil, &h.Entry, true, a)))
	}
	return &NoFitError{Found: len(hits), Budget: budget, Need: need}
}

// block renders head and as many entries as fit in max bytes; "" when none
// fits. The ids of the entries it holds are appended to *ids unless nil.
func block(head string, hits []Hit, limit, max int, a ageing, ids *[]string) string {
	b := []byte(head)
	n := 0
	for _, h := range hits {
		if n == limit {
			break
		}
		more := render(b, &h.Entry, true, a)
		if len(more) > max {
			continue
		}
		b = more
		n++
		if ids != nil {
			*ids = append(*ids, h.Entry.ID)
		}
	}
	if n == 0 {
		if ids != nil {
			*ids = nil
		}
		return ""
	}
	return string(b)
}

// notPlain8 marks (with its high bit) the first of s's first eight bytes
// that is below ' ' or outside ASCII; 0 when none is. Later bytes may be
// marked wrongly, never earlier ones.
func notPlain8[T ~string | ~[]byte](s T) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	_ = s[7]
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	return (w | (w-0x20*ones)&^w) & highs
}
