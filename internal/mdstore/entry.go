// Package mdstore holds flowmem's memory: plain markdown files under
// .flow/memory/ (pitfalls, conventions, decisions), their entry model, the
// parser and renderer, and the locked, atomic writes that keep the files
// intact when many hooks and people write at once.
package mdstore

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/text"
)

// Kind names one memory file.
type Kind string

// The three kinds of memory, one file each.
const (
	Pitfall    Kind = "pitfall"
	Convention Kind = "convention"
	Decision   Kind = "decision"
)

// Kinds lists every kind in file order.
var Kinds = []Kind{Pitfall, Convention, Decision}

// File is the file name that holds entries of this kind.
func (k Kind) File() string { return string(k) + "s.md" }

// Title is the level-1 heading of the kind's file.
func (k Kind) Title() string { return strings.ToUpper(string(k[:1])) + string(k[1:]) + "s" }

// ParseKind accepts singular or plural names ("pitfall", "pitfalls").
func ParseKind(s string) (Kind, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, ".md")
	for _, k := range Kinds {
		if s == string(k) || len(s) == len(k)+1 && s[len(k)] == 's' && s[:len(k)] == string(k) {
			return k, true
		}
	}
	return "", false
}

// Status of an entry: archived entries stay in the file but are left out of
// reads; pending ones (captured while capture.approval is on) wait for a
// person to approve them and are left out of reads until then.
type Status string

// Entry statuses.
const (
	Active   Status = "active"
	Archived Status = "archived"
	Pending  Status = "pending"
	// Forgotten is never an entry's status on disk: it is what a
	// forget's mark says, a sighting line that names a status,
	//
	//	<!-- flowmem: seen id=p-… status=forgotten -->
	//
	// which memory forget leaves where the entry was. Readers leave out
	// every copy of that id, so a union merge that brings the entry's
	// lines back (a teammate's append or rewrite touched them) does not
	// bring the lesson back. A build from before it reads the mark as one
	// more sighting, of nothing once the entry is gone.
	Forgotten Status = "forgotten"
)

// Entry is one lesson. Every text field is a single line: Normalize enforces
// it, so text from a review or a user can never forge structure.
type Entry struct {
	Kind     Kind   `json:"type"`
	Date     string `json:"date"`               // YYYY-MM-DD first seen
	Task     string `json:"task"`               // task id that first produced it, or "manual"
	Source   string `json:"source,omitempty"`   // impl-review, plan-review, completion-review, manual…
	Category string `json:"category,omitempty"` // framework, convention, api, build, edge-case, security, general
	Issue    string `json:"issue,omitempty"`    // pitfalls: what went wrong
	Fix      string `json:"fix,omitempty"`      // pitfalls: what to do instead
	Context  string `json:"context,omitempty"`  // pitfalls: where / evidence
	Body     string `json:"body,omitempty"`     // free text (conventions, decisions, manual and legacy entries)

	ID string `json:"id"`
	// FP fingerprints the lesson's content words (Fingerprint): a repeat
	// reworded lightly has the same.
	FP       string   `json:"fp,omitempty"`
	Seen     int      `json:"seen"`
	LastSeen string   `json:"last_seen"`
	Tasks    []string `json:"tasks,omitempty"`
	Status   Status   `json:"status"`
	// MergedInto is the id of the entry an archived one was merged into.
	MergedInto string `json:"merged_into,omitempty"`
	// IntoOwn is, on an entry merged into another (into-own= on its
	// metadata line, beside merged-into=), what that survivor held of its
	// own before it took in any entry: its first and last dates and its
	// tasks (Own). memory restore brings the survivor back to it, with
	// what the entries still merged into it hold.
	IntoOwn string `json:"-"`
	// Gave is, on an entry merged into another (gave= on its metadata
	// line), the count it added to the survivor: memory restore takes back
	// that, not its count now, which holds the sightings a teammate's clone
	// recorded for it before the merge reached them (the survivor never
	// counted those).
	Gave int `json:"-"`
	// Took is, on a survivor (took= on its metadata line), what each entry
	// merged into it gave it, as id:count pairs separated by commas
	// (Took). Two teammates who merge different entries into one survivor
	// each write a metadata line of it holding its own count and their
	// merge's; the union merge keeps both, and the fold counts its own
	// once and every entry either took in (fold).
	Took string `json:"-"`
	// Copies names, by a random token each (n= on the metadata line,
	// comma-separated), the captures whose sightings Seen counts: two
	// clones that capture one new lesson on one day write the same entry
	// but for this token, so the records git's union merge keeps of the
	// two are told apart from the one copy both inherited (fold).
	Copies string `json:"-"`

	// Legacy marks an entry without a metadata line (written by flow-next);
	// its ID is derived on read and its body may span several lines.
	Legacy bool `json:"legacy,omitempty"`
	// Line is the 1-based line of the entry's heading in its file.
	Line int `json:"line"`
}

// Text is the entry's main lesson text, for display and matching.
func (e *Entry) Text() string {
	if e.Issue != "" {
		return e.Issue
	}
	return e.Body
}

// MaxField is the most bytes one field of an entry keeps (longer text is
// cut at a word boundary), so one entry cannot bloat a file.
const MaxField = 2000

// OneLine collapses all whitespace (newlines included) to single spaces,
// drops control characters and invalid UTF-8, and bounds the length, cutting
// at a word boundary.
func OneLine(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r), r == utf8.RuneError, r == '\u2028', r == '\u2029', r == '\ufeff':
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return Clip(b.String(), MaxField)
}

// Clip shortens s to at most n bytes (and an ellipsis) at a word
// boundary, or mid-word when the last space is in the first half.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

// token keeps heading words and task ids to a safe alphabet so they can be
// split on spaces and commas when read back.
func token(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r < utf8.RuneSelf && (r == '.' || r == '-' || r == '_' || r == '/' || r == ':' || r == '#'),
			unicode.IsLetter(r), unicode.IsDigit(r):
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 80 {
		// Cut before the rune that byte 80 falls in: the byte at the cut
		// must start a rune, or a lead byte is left without its tail.
		cut := 80
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = strings.TrimRight(out[:cut], "-")
	}
	return out
}

// cleanCopies is a Copies list as Render writes it: tokens, each once,
// separated by commas.
func cleanCopies(s string) string {
	if s == "" {
		return ""
	}
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = token(c); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return strings.Join(out, ",")
}

// Normalize puts an entry into the canonical form the renderer writes:
// single-line fields, safe tokens, defaults for missing metadata, and an id
// derived from the content when none is set.
func (e *Entry) Normalize() {
	e.Issue, e.Fix, e.Context, e.Body = OneLine(e.Issue), OneLine(e.Fix), OneLine(e.Context), OneLine(e.Body)
	e.Task = cmp.Or(token(e.Task), "manual")
	e.Source = token(e.Source)
	if e.Task == "manual" && e.Source == "" {
		e.Source = "manual"
	}
	e.Category = strings.ToLower(token(e.Category))
	if k, isKind := ParseKind(e.Category); isKind && k == e.Kind {
		// The file's own kind name in brackets is how flow-next marked
		// an entry without a category. Another kind's name is a category:
		// "convention" is one of the rubric's.
		e.Category = ""
	}
	if !validDate(e.Date) {
		e.Date = ""
	}
	if !validDate(e.LastSeen) || e.LastSeen < e.Date {
		e.LastSeen = e.Date
	}
	e.Seen = max(e.Seen, 1)
	var tasks []string
	for _, t := range e.Tasks {
		if t = token(t); t != "" && !slices.Contains(tasks, t) {
			tasks = append(tasks, t)
		}
	}
	e.Tasks = tasks
	if e.Status != Archived && e.Status != Pending {
		e.Status = Active
	}
	e.MergedInto = token(e.MergedInto)
	if own, ok := ParseOwn(e.IntoOwn); ok && e.MergedInto != "" {
		e.IntoOwn = own.String()
	} else {
		e.IntoOwn = ""
	}
	if e.MergedInto == "" || e.Gave < 0 {
		e.Gave = 0
	}
	e.Copies = cleanCopies(e.Copies)
	if e.Took != "" {
		e.Took = ParseTook(e.Took).String()
	}
	// An id or fingerprint read from a file may hold anything; what is left
	// of it after cleaning must still be one.
	if e.ID = token(e.ID); e.ID == "" {
		e.ID = contentID(e.Kind, e.Text())
	}
	if e.FP = token(e.FP); e.FP == "" {
		e.FP = Fingerprint(e.Text())
	}
	e.Legacy = false
}

// Own is what a survivor of a merge held of its own: its first and last
// dates and its tasks. On a metadata line (into-own=) it is written
// FIRST/LAST/TASK,TASK…, either date empty when unknown: a date holds no
// slash and a task no comma, so it reads back whatever a task holds.
type Own struct {
	First, Last string
	Tasks       []string
}

// ParseOwn reads an Own as String writes it; ok is false when s is not one.
func ParseOwn(s string) (o Own, ok bool) {
	first, rest, ok1 := strings.Cut(s, "/")
	last, tasks, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 || first != "" && !validDate(first) || last != "" && !validDate(last) {
		return Own{}, false
	}
	o.First, o.Last = first, last
	for t := range strings.SplitSeq(tasks, ",") {
		if t = token(t); t != "" && !slices.Contains(o.Tasks, t) {
			o.Tasks = append(o.Tasks, t)
		}
	}
	return o, true
}

// String is o as a metadata line holds it.
func (o Own) String() string {
	return o.First + "/" + o.Last + "/" + strings.Join(o.Tasks, ",")
}

// Add widens o by what e held: the earlier first date, the later last
// one, every task once.
func (o *Own) Add(first, last string, tasks []string) {
	if first != "" && (o.First == "" || first < o.First) {
		o.First = first
	}
	o.Last = max(o.Last, last)
	for _, t := range tasks {
		if !slices.Contains(o.Tasks, t) {
			o.Tasks = append(o.Tasks, t)
		}
	}
}

// joinOwn is two records of one survivor's own (a union merge kept the
// merged entry's metadata line of two teammates who both merged it) as one:
// everything either held.
func joinOwn(a, b string) string {
	oa, okA := ParseOwn(a)
	ob, okB := ParseOwn(b)
	switch {
	case !okB:
		return a
	case !okA:
		return b
	}
	oa.Add(ob.First, ob.Last, ob.Tasks)
	return oa.String()
}

// contentID derives the stable id of a lesson from its kind and its text,
// ignoring case, punctuation and spacing so that re-wrapped text keeps its id.
func contentID(k Kind, text string) string {
	h := sha256.New()
	h.Write([]byte(k))
	h.Write([]byte{0})
	for _, w := range splitWords(text) {
		h.Write([]byte(w))
		h.Write([]byte{' '})
	}
	return idOf(k, h.Sum(nil))
}

// idOf is an id of kind k (its first letter, m without one) from a hash.
func idOf(k Kind, sum []byte) string {
	prefix := "m"
	if k != "" {
		prefix = string(k[:1])
	}
	return prefix + "-" + hex.EncodeToString(sum[:6])
}

// Fingerprint identifies a lesson by its content words, whatever their
// order, form and the words around them: stemmed, abbreviations folded,
// stop words and punctuation dropped, sorted and unique. Numbers and
// one-letter names count too ("retry 3 times" and "retry 5 times", C and R
// are other lessons). "Close the body before returning" and "the body is
// not closed before return" differ; "Go tests cache results" and "results
// of go test are cached" do not. A text without content words has none
// ("").
func Fingerprint(s string) string {
	words := text.ContentWords(s)
	for _, w := range splitWords(s) {
		if len(w) == 1 && !text.IsStop(w) || strings.ContainsAny(w, "0123456789") {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return ""
	}
	slices.Sort(words)
	words = slices.Compact(words)
	h := sha256.New()
	for _, w := range words {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// SameText reports whether two lesson texts say the same thing as far as
// their ids can tell: contentID ignores punctuation, so "compare with ===
// not ==" and "compare with == not ===" share an id; the symbols they use
// as operators or in names (!=, ++, C#) must agree too.
func SameText(a, b string) bool {
	return slices.Equal(splitWords(a), splitWords(b)) && slices.Equal(symbols(a), symbols(b))
}

// symbols lists the runs of characters between a text's words that mean
// something: operators and the symbols in names. Markdown marks, quotes,
// brackets and sentence punctuation are left out, so re-punctuating a lesson
// changes nothing.
func symbols(s string) []string {
	var out []string
	for _, run := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r)
	}) {
		run = strings.Map(func(r rune) rune {
			// Dashes, ellipses and curly quotes are prose, whatever
			// the writer typed.
			if strings.ContainsRune("`'\"()[]{}*_,;", r) || r >= utf8.RuneSelf && unicode.IsPunct(r) {
				return -1
			}
			return r
		}, run)
		if strings.Trim(run, ".:?!-/") == "" {
			continue
		}
		out = append(out, strings.TrimRight(run, ".:?!"))
	}
	return out
}

// distinctID is the id of a lesson whose contentID another lesson already
// has (SameText told them apart): it hashes the text with its symbols.
// salt, from 1, tells apart lessons that still collide.
func distinctID(k Kind, text string, salt int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s", k, salt, strings.Join(splitWords(text), " "))
	for _, sym := range symbols(text) {
		h.Write([]byte{0})
		h.Write([]byte(sym))
	}
	return idOf(k, h.Sum(nil))
}

// splitWords splits text into lower-case letter/digit runs.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func validDate[T ~string | ~[]byte](s T) bool {
	// Unrolled: every metadata line's date is checked, and a loop that
	// skips the dashes cost more than the rest of reading the line.
	digit := func(c byte) bool { return c-'0' <= 9 }
	return len(s) == 10 && s[4] == '-' && s[7] == '-' &&
		digit(s[0]) && digit(s[1]) && digit(s[2]) && digit(s[3]) &&
		digit(s[5]) && digit(s[6]) && digit(s[8]) && digit(s[9])
}

// isToken reports whether s is what token makes of it, and not empty.
func isToken[T ~string | ~[]byte](s T) bool {
	if len(s) == 0 || len(s) > 80 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return token(string(s)) == string(s)
		}
		if !tokenByte[c] {
			return false
		}
	}
	return s[0] != '-' && s[len(s)-1] != '-'
}

// tokenByte is the ASCII bytes token keeps: letters, digits and ".-_/:#"
// (a table: every id tag of every entry is checked a byte at a time).
var tokenByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(".-_/:#", byte(c)) >= 0
	}
	return t
}()

// Took is what a survivor took in (Entry.Took), in the order merged.
type Took []Gift

// Gift is what one entry merged into a survivor gave it.
type Gift struct {
	ID string
	N  int
}

// ParseTook reads a took= list; a pair it cannot read is left out, and an
// id named twice counts once (its largest).
func ParseTook(s string) Took {
	var out Took
	for p := range strings.SplitSeq(s, ",") {
		i := strings.LastIndexByte(p, ':')
		if i <= 0 {
			continue
		}
		n, err := strconv.Atoi(p[i+1:])
		if err != nil || n <= 0 {
			continue
		}
		out = out.With(token(p[:i]), n, larger)
	}
	return out
}

// With is t with id's gift set to n, or to join(old, n) when t holds id.
// An empty id or a gift below one leaves id out.
func (t Took) With(id string, n int, join func(a, b int) int) Took {
	if id == "" {
		return t
	}
	i := slices.IndexFunc(t, func(g Gift) bool { return g.ID == id })
	if i >= 0 {
		n = join(t[i].N, n)
	}
	if n <= 0 {
		if i >= 0 {
			return slices.Delete(slices.Clone(t), i, i+1)
		}
		return t
	}
	if i >= 0 {
		t = slices.Clone(t)
		t[i].N = n
		return t
	}
	return append(slices.Clone(t), Gift{id, n})
}

// Sum is what t's entries gave together.
func (t Took) Sum() int {
	n := 0
	for _, g := range t {
		n += g.N
	}
	return n
}

// String is t as took= writes it.
func (t Took) String() string {
	var b strings.Builder
	for i, g := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(g.ID + ":" + strconv.Itoa(g.N))
	}
	return b.String()
}

// larger is the larger of a and b (max, as a function value).
func larger(a, b int) int { return max(a, b) }
