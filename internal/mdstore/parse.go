package mdstore

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// Doc is one parsed memory file. Entries are as written, not folded.
type Doc struct {
	Kind    Kind
	Raw     []byte
	Entries []Entry
	// Sightings are recurrences recorded as appended lines, attributed by
	// id rather than by position (see Store.Record).
	Sightings []Entry
	// Incomplete is the first line of text at the end of the file that
	// readers ignore because it has no closing newline (an append that
	// failed half-way), or 0.
	Incomplete int
	// Torn lists the lines of torn appends' marks (tornMark): text before
	// each, back to its blank line, is an append cut off that readers
	// leave out.
	Torn []int
	// Damaged lists entries that a merge or an edit left holding another
	// entry's lines (see Damage).
	Damaged []Damage
	// spans keep each entry's bytes, so a rewrite can replace one entry
	// and leave every other byte of the file as it was.
	spans []span
}

// span is an entry's bytes: [start, end) runs from its heading to the end of
// its last non-blank line.
type span struct{ start, end int }

// errFrontMatter is a front matter that cannot be read, on line 1; the
// readers that know the file's path put it first ("path:1: front matter…").
var errFrontMatter = errors.New("1: front matter")

// Parse reads a memory file of kind k. Files written by flow-next (no front
// matter, no metadata lines, free-text bodies) are read too.
func Parse(k Kind, raw []byte) (*Doc, error) {
	d := &Doc{Kind: k, Raw: raw}
	// One conversion for the whole file: entries' fields are substrings
	// of it.
	src := string(raw)
	d.Entries = make([]Entry, 0, len(raw)/320+1) // a guess: few entries are shorter
	var err error
	if err = readFrontMatter(raw); err != nil {
		return nil, err
	}
	var x entryScan
	d.Incomplete = Segments(raw, func(seg []byte, line int) bool {
		// seg is part of raw: its capacity tells where it starts.
		start := cap(raw) - cap(seg)
		e, records, dmg, ok := parseEntry(&x, k, seg, src[start:start+len(seg)], line)
		for _, r := range records {
			if r.ID == tornID {
				d.Torn = append(d.Torn, r.Line)
			} else {
				d.Sightings = append(d.Sightings, r)
			}
		}
		if ok {
			d.spans = append(d.spans, span{start, start + len(seg)})
			d.Entries = append(d.Entries, e)
			if dmg.Line != 0 {
				d.Damaged = append(d.Damaged, dmg)
			}
		}
		return true
	})
	d.Sightings = append(d.Sightings, preambleRecords(raw)...)
	return d, nil
}

// preambleRecords is the sighting lines before the first entry of start
// (a file's first bytes, front matter included): they count by id there
// too, as recall's readers count them. A forget's mark stands there when
// the file's only entry was forgotten, and a union merge can put the
// entry's lines back after it.
func preambleRecords(start []byte) []Entry {
	from, end := 0, len(start)
	if _, n, ok := splitFrontMatter(start); ok {
		from = n
	}
	Segments(start, func(seg []byte, _ int) bool {
		end = cap(start) - cap(seg)
		return false
	})
	var out []Entry
	for pre := start[from:max(from, end)]; len(pre) > 0; {
		i := bytes.Index(pre, []byte(metaPrefix+" seen "))
		if i < 0 {
			break
		}
		l, rest, _ := bytes.Cut(pre[i:], []byte("\n"))
		pre = rest
		if at := cap(start) - cap(l); at > 0 && start[at-1] != '\n' {
			continue // a comment inside a line
		}
		if m, sighting, ok := parseMeta(string(trimEOL(l))); ok && sighting && m.ID != "" && m.ID != tornID {
			out = append(out, m)
		}
	}
	return out
}

// readFrontMatter checks the front matter at the start of raw, if any; an
// unreadable or unclosed one is an error.
func readFrontMatter(raw []byte) error {
	b, n, ok := splitFrontMatter(raw)
	if !ok && n != 0 {
		return fmt.Errorf("%w: no closing --- line", errFrontMatter)
	}
	return parseFrontMatter(b)
}

// parseFrontMatter checks a front matter block, both fences included (as
// splitFrontMatter cuts it), up to the first later line that is "---" once
// its white space is trimmed. Nothing reads its values ("flowmem: 1",
// "kind: pitfalls"), so no YAML library pays for its start-up in every
// process; what is refused is what cannot be the YAML mapping of a memory
// file: a top-level line that is not "key:" or "key: value", or a value
// that opens a quote, [ or { and does not close it on its line.
func parseFrontMatter(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	lines := strings.Split(string(b), "\n")
	for n, l := range lines[1:] {
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(l) == "---" {
			break
		}
		if l == "" || strings.IndexByte("# \t-", l[0]) >= 0 {
			continue // a comment, a continuation, a list item
		}
		key, v, ok := strings.Cut(l, ":")
		if i := strings.Index(v, " #"); i >= 0 && !strings.ContainsAny(v[:i], `"'`) {
			v = v[:i]
		}
		v = strings.TrimSpace(v)
		if !ok || key == "" || strings.ContainsAny(key, `[]{}"'`) || !closed(v) {
			return fmt.Errorf("%w: line %d is not a \"key: value\" line: %q", errFrontMatter, n+2, l)
		}
	}
	return nil
}

// closed: a value that opens a quote, [ or { ends with its closer.
func closed(v string) bool {
	if v == "" {
		return true
	}
	c := map[byte]byte{'[': ']', '{': '}', '"': '"', '\'': '\''}[v[0]]
	return c == 0 || len(v) >= 2 && v[len(v)-1] == c
}

// Folded is the document's entries as readers see them: copies of one
// lesson merged (foldIndex) and every sighting counted.
func (d *Doc) Folded() []Entry {
	out, index := foldIndex(d.Entries)
	if len(d.Sightings) > 0 {
		if len(out) > 0 && &out[0] == &d.Entries[0] {
			out = append([]Entry(nil), out...)
		}
		for i := range d.Sightings {
			if j, ok := index[d.Sightings[i].ID]; ok {
				CountSighting(&out[j], &d.Sightings[i])
			}
		}
	}
	if forgotten := func(e Entry) bool { return e.Status == Forgotten }; slices.ContainsFunc(out, forgotten) {
		out = slices.DeleteFunc(slices.Clone(out), forgotten)
	}
	return out
}

// splitFrontMatter returns the "---" front matter block at the start of raw
// (both fences included) and the offset of the body after it. ok is false
// when there is none; n is then non-zero if an opening fence has no close.
func splitFrontMatter(raw []byte) (fm []byte, n int, ok bool) {
	if !bytes.HasPrefix(raw, []byte("---\n")) && !bytes.HasPrefix(raw, []byte("---\r\n")) {
		return nil, 0, false
	}
	pos := bytes.IndexByte(raw, '\n') + 1
	for pos < len(raw) {
		end := bytes.IndexByte(raw[pos:], '\n')
		next := len(raw)
		if end >= 0 {
			next = pos + end + 1
		}
		if line := bytes.TrimRight(raw[pos:next], "\r\n"); string(line) == "---" {
			return raw[:next], next, true
		}
		pos = next
	}
	return nil, len(raw), false
}

// Segments calls fn with the bytes of each entry of a memory file, in file
// order, and the 1-based line of its heading; fn returns false to stop. The
// front matter and the preamble before the first entry are skipped. A
// segment runs from its heading to its last non-blank line and may hold
// sightings of other entries; seg is part of raw.
//
// Every append starts with a blank line and ends with a newline. So when
// the file does not end with one, its end is an append that failed half-way
// (a full disk, a killed process): the last entry is read only up to its
// last blank line, and not at all when it has none. Segments returns the
// line where that unread end starts, or 0.
func Segments(raw []byte, fn func(seg []byte, line int) bool) (incomplete int) {
	pos, line := 0, 1
	if _, n, ok := splitFrontMatter(raw); ok {
		pos, line = n, 1+bytes.Count(raw[:n], []byte("\n"))
	}
	var sc blockScanner
	start, startLine := -1, 0
	lastBlank, blankLine := -1, 0
	for pos < len(raw) {
		next := bytes.IndexByte(raw[pos:], '\n')
		if next < 0 {
			incomplete = line
			if start >= 0 {
				incomplete = startLine
				if lastBlank < 0 {
					return incomplete
				}
				incomplete = blankLine + 1
				pos = lastBlank
			}
			break
		}
		next += pos + 1
		if !sc.inBlock() && plainStart[raw[pos]] {
			// Most lines: text that starts no heading, block or blank.
			pos = next
			line++
			continue
		}
		if sc.line(raw[pos:next]) {
			if start >= 0 && !fn(trimTrailingBlank(raw[start:pos]), startLine) {
				return 0
			}
			start, startLine, lastBlank = pos, line, -1
		} else if start >= 0 && isBlank(trimEOL(raw[pos:next])) {
			lastBlank, blankLine = next, line
		}
		pos = next
		line++
	}
	if start >= 0 {
		fn(trimTrailingBlank(raw[start:pos]), startLine)
	}
	return incomplete
}

// blockScanner finds entry headings line by line: level-2 ATX headings
// whose first word is a date, outside fenced and indented code and HTML
// comments, as CommonMark reads them. That is all flowmem and flow-next
// files hold; other HTML blocks and containers are not tracked, so a
// "## " line a list, a quote or a <div> holds in a hand-edited file counts
// as a heading here.
type blockScanner struct {
	fence    byte // '`' or '~' inside a fenced code block
	fenceLen int
	comment  bool // inside an HTML comment
}

// inBlock: inside a fenced code block or an HTML comment.
func (sc *blockScanner) inBlock() bool { return sc.fence != 0 || sc.comment }

// plainStart is the bytes a line starts with that make it, outside any
// block, neither an entry's heading nor the start of a block nor blank:
// for such a line line says false and changes nothing.
var plainStart = func() (t [256]bool) {
	for c := range t {
		t[c] = strings.IndexByte(" \t\r\n`~<#", byte(c)) < 0
	}
	return t
}()

// line reads one line (with its newline) and reports whether it starts an
// entry.
func (sc *blockScanner) line(l []byte) bool {
	l = trimEOL(l)
	if (sc.fence != 0 || sc.comment) && taggedHeading(l) {
		// Only flowmem writes a heading that ends with an entry's id, at
		// the start of a line and never inside a block: a fence or comment
		// that a hand edit left open does not hide the entries appended
		// after it (Record and recall find them by their ids).
		*sc = blockScanner{}
		return true
	}
	if sc.fence != 0 {
		if cols, rest := indent(l); cols < 4 && closesFence(rest, sc.fence, sc.fenceLen) {
			sc.fence = 0
		}
		return false
	}
	if sc.comment {
		sc.comment = !closesComment(l)
		return false
	}
	cols, rest := indent(l)
	if cols >= 4 || len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case '`', '~':
		if n := opensFence(rest); n > 0 {
			sc.fence, sc.fenceLen = rest[0], n
		}
	case '<':
		sc.comment = bytes.HasPrefix(rest, []byte("<!--")) && !closesComment(rest)
	case '#':
		return len(rest) > 3 && rest[1] == '#' && rest[2] == ' ' && isEntryHeading(rest)
	}
	return false
}

// closesComment: the line holds "-->". Every metadata line and id comment
// ends with it, and looking at the end first spares a search through
// dates and ids full of '-'.
func closesComment(l []byte) bool {
	return bytes.HasSuffix(l, []byte("-->")) || bytes.Contains(l, []byte("-->"))
}

// taggedHeading reports an entry heading as flowmem writes it: at the
// start of the line, ending with its id tag ("p-" and twelve hex digits).
func taggedHeading(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("## ")) {
		return false
	}
	_, id := cutTag(l)
	if len(id) != 14 || id[1] != '-' || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for _, c := range id[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return isEntryHeading(l)
}

// trimEOL drops a line's "\n" or "\r\n".
func trimEOL(l []byte) []byte {
	if n := len(l); n > 0 && l[n-1] == '\n' {
		l = l[:n-1]
	}
	if n := len(l); n > 0 && l[n-1] == '\r' {
		l = l[:n-1]
	}
	return l
}

// indent is the width of a line's leading white space in columns (tabs
// stop every 4) and the rest of the line.
func indent(l []byte) (int, []byte) {
	cols := 0
	for i, c := range l {
		switch c {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return cols, l[i:]
		}
	}
	return cols, nil
}

func isBlank(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// opensFence returns the length of the fence a line opens, or 0.
func opensFence(rest []byte) int {
	n := 0
	for n < len(rest) && rest[n] == rest[0] {
		n++
	}
	if n < 3 || rest[0] == '`' && bytes.IndexByte(rest[n:], '`') >= 0 {
		return 0
	}
	return n
}

func closesFence(rest []byte, c byte, n int) bool {
	i := 0
	for i < len(rest) && rest[i] == c {
		i++
	}
	return i >= n && isBlank(rest[i:])
}

func trimTrailingBlank(seg []byte) []byte {
	i := len(seg)
	for i > 0 && (seg[i-1] == ' ' || '\t' <= seg[i-1] && seg[i-1] <= '\r') {
		i--
	}
	if i == 0 {
		return seg[:0]
	}
	if j := bytes.IndexByte(seg[i:], '\n'); j >= 0 {
		return seg[:i+j+1]
	}
	return seg
}

type heading struct {
	date, task, source, category string
}

// isEntryHeading is parseHeading's yes or no, without splitting the rest of
// the line: "## " and a date as the first word.
func isEntryHeading[T ~string | ~[]byte](line T) bool {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if len(line)-i < 3 || line[i] != '#' || line[i+1] != '#' || line[i+2] != ' ' {
		return false
	}
	i += 3
	end := len(line)
	for end > i && (line[end-1] == ' ' || line[end-1] == '#') {
		end--
	}
	for i < end && (line[i] == ' ' || '\t' <= line[i] && line[i] <= '\r') {
		i++
	}
	if i < end && line[i] >= utf8.RuneSelf {
		// A space outside ASCII may come first.
		h, ok := parseHeading(string(line))
		return ok && h.date != ""
	}
	// The first word is a date only if its first ten bytes are one (every
	// heading is asked this: no loop over the word).
	if end-i < 10 || !validDate(line[i:i+10]) {
		return false
	}
	if i+10 == end {
		return true
	}
	switch c := line[i+10]; {
	case c == ' ' || '\t' <= c && c <= '\r':
		return true
	case c >= utf8.RuneSelf:
		// The word may end at a space outside ASCII.
		h, ok := parseHeading(string(line))
		return ok && h.date != ""
	}
	return false
}

// parseHeading reads "## YYYY-MM-DD task [source] [category]" in the forms
// flowmem and flow-next write.
func parseHeading(line string) (heading, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "## ")
	if !ok {
		return heading{}, false
	}
	var plainBuf, bracketBuf [8]string
	fields := strings.Fields(strings.TrimRight(rest, " #"))
	if len(fields) == 0 || !validDate(fields[0]) {
		return heading{}, false
	}
	h := heading{date: fields[0]}
	plain, bracketed := plainBuf[:0], bracketBuf[:0]
	for _, f := range fields[1:] {
		if len(f) >= 2 && f[0] == '[' && f[len(f)-1] == ']' {
			bracketed = append(bracketed, f[1:len(f)-1])
		} else {
			plain = append(plain, f)
		}
	}
	if len(plain) > 0 {
		h.task = plain[0]
	}
	if len(plain) > 1 {
		h.source = strings.Join(plain[1:], "-")
	} else if len(bracketed) > 1 {
		h.source = bracketed[len(bracketed)-2]
	}
	if len(bracketed) > 0 {
		h.category = bracketed[len(bracketed)-1]
	}
	return h, true
}

// validText trims a field read from disk and replaces invalid UTF-8, which
// a hand edit or another tool may have left there.
func validText(s string) string {
	s = strings.TrimSpace(s)
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

const metaPrefix = "<!-- flowmem:"

// tornID names no entry: a sighting line of it,
//
//	<!-- flowmem: seen id=torn lines=N -->
//
// is what Record writes after text at the end of a file that an append
// left unfinished (a crash, a full disk) before it appends: the N lines
// before it are the record cut off. Readers leave them out, as they did
// while they ended the file. A build from before the mark counts it as a
// sighting of nothing.
const tornID = "torn"

// entryScan is the one reading of an entry: a pass over its segment's
// lines (scan) that sorts them into the heading, the entry's own metadata
// lines, the records of other entries it holds (sightings, metadata lines
// a merge moved), its fields and its free text, as parts of the segment.
// Nothing is cleaned or copied there: parseEntry makes an Entry of the
// parts, while listing (ViewSegment) and counting (Tally) read them as
// they are, which is most of what those cost.
type entryScan struct {
	seg, head, tag      []byte // the segment the parts are of; heading without its tag; the tag
	metas, records      []Meta
	marks               []int    // lines of torn appends' marks (tornID), left out
	issue, fix, context []byte   // after their labels; fix and context without the entry's tag
	body                [][]byte // free text, blank lines at its ends dropped
	dmgLine             int      // the first line that does not belong, or 0
	dmgWhat             string
	dmgReworded         bool     // the damage is one lesson in two wordings
	brief               bool     // metadata lines only, without their tasks (counting)
	taskBuf             [][]byte // room for the tasks of the first metadata line read
}

var (
	issueLabel   = []byte("**Issue**:")
	fixLabel     = []byte("**Fix**:")
	contextLabel = []byte("**Context**:")
)

// scan reads seg, an entry's segment as Segments gives it (line is its
// heading's line); false when seg does not start with an entry heading.
func (x *entryScan) scan(seg []byte, line int) bool {
	// The slices' arrays are kept for the next entry: a scan allocates
	// nothing once they have grown.
	x.seg, x.marks, x.dmgLine, x.dmgWhat, x.dmgReworded = seg, nil, 0, "", false
	x.metas, x.records, x.body, x.taskBuf = x.metas[:0], x.records[:0], x.body[:0], x.taskBuf[:0]
	x.issue, x.fix, x.context = nil, nil, nil
	first, rest, _ := bytes.Cut(seg, []byte("\n"))
	first = bytes.TrimSuffix(first, []byte("\r"))
	x.head, x.tag = cutTag(first)
	if !isEntryHeading(x.head) {
		return false
	}
	tag := x.tag
	bufUsed := false
	for n := line + 1; len(rest) > 0; n++ {
		if x.brief && rest[0] != '<' {
			// Counting reads metadata lines only: on to the next line
			// that may be one (line numbers are left behind).
			i := bytes.Index(rest, []byte("\n<"))
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(l) == 0 {
			x.body = append(x.body, l)
			continue
		}
		switch l[0] {
		case '<':
			if !bytes.HasPrefix(l, []byte(metaPrefix)) {
				if conflictMarker(l) {
					continue
				}
				break
			}
			first := !bufUsed
			var buf [][]byte
			if first {
				buf, bufUsed = x.taskBuf, true
			}
			m, ok := readMetaBytes(l, buf, !x.brief)
			if first && cap(m.Tasks) > cap(x.taskBuf) {
				x.taskBuf = m.Tasks[:0] // grown, for the next entry
			}
			switch {
			case !ok:
				x.body = append(x.body, l)
			case m.Sighting && string(m.ID) == tornID:
				return x.scanTorn(seg, line)
			case m.Sighting:
				x.records = append(x.records, m)
			case len(tag) > 0 && !bytes.Equal(m.ID, tag), len(x.metas) > 0 && !bytes.Equal(m.ID, x.metas[0].ID):
				// Another entry's record that a merge moved here: it
				// counts by id, not by position.
				x.records = append(x.records, m)
				x.hurt(n, fmt.Sprintf("holds the metadata line of entry %s: a merge interleaved two entries", m.ID))
			default:
				x.metas = append(x.metas, m)
			}
			continue
		case '=', '>', '|':
			if conflictMarker(l) {
				continue
			}
		case '*':
			switch {
			case len(l) < 3:
			case l[2] == 'I' && bytes.HasPrefix(l, issueLabel):
				v := l[len(issueLabel):]
				if len(bytes.TrimSpace(x.issue)) > 0 && !sameField(x.issue, v) {
					if len(x.metas) > 1 {
						// Two metadata lines of its own: one clone reworded
						// the lesson while another rewrote it, and the union
						// kept both sides of the two neighbouring lines.
						if x.dmgLine == 0 {
							x.dmgReworded = true
						}
						x.hurt(n, "holds two wordings of its lesson (a second **Issue** line): one clone reworded it while another changed it")
					} else {
						x.hurt(n, "holds a second lesson (another **Issue** line): a merge fused two entries")
					}
				}
				x.issue = v
				continue
			case l[2] == 'F' && bytes.HasPrefix(l, fixLabel):
				x.fix = x.field(l[len(fixLabel):], n)
				continue
			case l[2] == 'C' && bytes.HasPrefix(l, contextLabel):
				x.context = x.field(l[len(contextLabel):], n)
				continue
			}
		}
		x.body = append(x.body, l)
	}
	for len(x.body) > 0 && len(bytes.TrimSpace(x.body[0])) == 0 {
		x.body = x.body[1:]
	}
	for len(x.body) > 0 && len(bytes.TrimSpace(x.body[len(x.body)-1])) == 0 {
		x.body = x.body[:len(x.body)-1]
	}
	return true
}

// conflictMarker reports whether l is one of the lines git writes around
// a conflict it could not resolve (<<<<<<< ours, ||||||| base, =======,
// >>>>>>> theirs): a merge of memory files without merge=union. They are
// no text of the entry they fall in, and readers leave them out; no line
// the store writes is one (free text starting with punctuation is
// escaped).
func conflictMarker(l []byte) bool {
	if len(l) < 7 {
		return false
	}
	c := l[0]
	if c != '<' && c != '=' && c != '>' && c != '|' {
		return false
	}
	for _, b := range l[1:7] {
		if b != c {
			return false
		}
	}
	if c == '=' {
		return len(l) == 7
	}
	return len(l) == 7 || l[7] == ' '
}

// ConflictLine is the line of the <<<<<<< that opens raw's first
// unresolved git conflict, or 0 when it holds none. A conflict is a
// <<<<<<< line, a ======= line after it and a >>>>>>> line after that
// (conflictMarker): one marker alone (a hand-written setext underline of
// seven =, a resolution half done) is not one. Doctor and every rewrite
// ask this, so they agree.
func ConflictLine(raw []byte) int {
	if !bytes.Contains(raw, []byte("<<<<<<<")) || !bytes.Contains(raw, []byte("\n=======")) || !bytes.Contains(raw, []byte("\n>>>>>>>")) {
		return 0 // every conflict has all three
	}
	n, open, split := 0, 0, false
	for rest := raw; len(rest) > 0; {
		n++
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(l) == 0 || l[0] != '<' && l[0] != '=' && l[0] != '>' || !conflictMarker(bytes.TrimSuffix(l, []byte("\r"))) {
			continue
		}
		switch {
		case l[0] == '<':
			open, split = n, false
		case l[0] == '=' && open > 0:
			split = true
		case l[0] == '>' && split:
			return open
		}
	}
	return 0
}

// hurt notes the first line that holds another entry's lines.
func (x *entryScan) hurt(n int, what string) {
	if x.dmgLine == 0 {
		x.dmgLine, x.dmgWhat = n, what
	}
}

// field is a Fix or Context line's value without the entry's own tag; a
// tag of another entry there is a line of that entry.
func (x *entryScan) field(v []byte, n int) []byte {
	if len(x.tag) == 0 {
		return v
	}
	if cut := cutOwnTag(v, x.tag); len(cut) < len(v) {
		return cut
	}
	if bytes.HasSuffix(v, []byte(" -->")) {
		if _, other := cutTag(v); other != nil {
			x.hurt(n, fmt.Sprintf("holds a line of entry %s: a merge interleaved two entries", other))
		}
	}
	return v
}

// sameField reports whether two values of a field read as one text.
func sameField(a, b []byte) bool {
	return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b)) || cleanField(string(a)) == cleanField(string(b))
}

// cleanField is a field's text as read: trimmed, valid UTF-8, comment
// openers unescaped.
func cleanField(s string) string { return unescapeComments(validText(s)) }

// scanTorn is scan of seg, a segment that holds a torn append's mark
// (tornID): each mark and the lines it names before it (lines=N, the
// record cut off, as Record counted them) are left out, all in one pass.
// They stand right before the mark however a union merge placed a
// teammate's lines, as one side's addition stays whole. When they take
// the heading, the entry itself was cut off: false, and only the records
// after the mark count.
func (x *entryScan) scanTorn(seg []byte, line int) bool {
	// Lines as parts of seg (bytes.SplitAfter would cut their capacity,
	// by which parseEntry finds where a part is).
	var lines [][]byte
	for rest := seg; len(rest) > 0; {
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		lines, rest = append(lines, rest[:n]), rest[n:]
	}
	kept := make([][]byte, 0, len(lines))
	var marks []int
	for i, l := range lines {
		t := bytes.TrimRight(l, "\r\n")
		if !bytes.HasPrefix(t, []byte(metaPrefix)) {
			kept = append(kept, l)
			continue
		}
		if m, ok := readMetaBytes(t, nil, true); !ok || !m.Sighting || string(m.ID) != tornID {
			kept = append(kept, l)
			continue
		}
		n := 1
		if _, v, ok := bytes.Cut(t, []byte(" lines=")); ok {
			if d, ok := digits(bytes.TrimSuffix(v, []byte(" -->"))); ok {
				n = d
			}
		}
		kept = kept[:len(kept)-min(n, len(kept))]
		marks = append(marks, line+i)
	}
	if len(kept) > 0 && isEntryHeading(bytes.TrimRight(kept[0], "\r\n")) && bytes.Equal(kept[0], lines[0]) {
		ok := x.scan(bytes.Join(kept, nil), line)
		x.marks = marks
		return ok
	}
	*x = entryScan{seg: seg, marks: marks, brief: x.brief, taskBuf: x.taskBuf[:0], records: x.records[:0]}
	for _, l := range kept {
		if !bytes.HasPrefix(l, []byte(metaPrefix)) {
			continue
		}
		if m, ok := readMetaBytes(bytes.TrimRight(l, "\r\n"), nil, true); ok && len(m.ID) > 0 {
			x.records = append(x.records, m)
		}
	}
	return false
}

// ParseSegment reads one entry from its segment (as Segments gives it; line
// is its heading's line): heading, metadata line, fields and free text.
// ok is false when seg does not start with an entry heading. Sightings and
// other entries' records in seg are left out: Doc.Folded and Store.Load
// count them.
func ParseSegment(k Kind, seg []byte, line int) (Entry, bool) {
	e, _, _, ok := parseEntry(nil, k, seg, "", line)
	return e, ok
}

// Damage is an entry that holds lines of another: a merge that
// interleaved two entries, or a hand edit.
type Damage struct {
	Line int    // the line that does not belong
	ID   string // the entry's id
	What string
	// Reworded: the entry holds one lesson in two wordings (a second
	// **Issue** line under a second metadata line of its own), not lines
	// of another entry; the fix is to keep one wording.
	Reworded bool
}

// cutTag splits the id tag off the end of a line: "text <!-- id -->".
// The id is empty (nil for bytes) when the line has none.
func cutTag[T ~string | ~[]byte](l T) (text, id T) {
	const open, end = " <!-- ", " -->"
	n := len(l) - len(end)
	if n < 0 || string(l[n:]) != end {
		return l, id
	}
	i := n - 1
	for i >= 0 && l[i] != '<' {
		i--
	}
	if i < 1 || i-1+len(open) > n || string(l[i-1:i-1+len(open)]) != open || !isToken(l[i-1+len(open):n]) {
		return l, id
	}
	return l[:i-1], l[i-1+len(open) : n]
}

// cutOwnTag drops the " <!-- tag -->" that ends l, if it does.
func cutOwnTag[T ~string | ~[]byte](l, tag T) T {
	n := len(l) - len(" -->") - len(tag)
	if n >= len(" <!-- ") && string(l[n:n+len(tag)]) == string(tag) && string(l[n+len(tag):]) == " -->" && string(l[n-len(" <!-- "):n]) == " <!-- " {
		return l[:n-len(" <!-- ")]
	}
	return l
}

// parseEntry is ParseSegment of seg, also returning the records in it
// that count for entries by id (sightings, metadata lines a merge moved,
// torn appends' marks) and telling whether the entry holds lines of
// another entry: a metadata line or a tagged field of another id, or a
// second, different lesson text. src is seg as a string, or "" to make
// one; the entry's fields are substrings of it. Entries are written so
// that a git union merge cannot produce damage (every line two entries
// could share differs), so it comes from a merge of files written before
// that, or a hand edit. x, when not nil, is a scanner to reuse.
func parseEntry(x *entryScan, k Kind, seg []byte, src string, line int) (e Entry, records []Entry, dmg Damage, ok bool) {
	if x == nil {
		x = &entryScan{}
	}
	x.brief = false
	ok = x.scan(seg, line)
	if !ok && x.marks == nil {
		return Entry{}, nil, Damage{}, false
	}
	if src == "" || x.marks != nil {
		src = string(x.seg)
	}
	// The parts are of x.seg, which src spells.
	str := func(b []byte) string {
		if len(b) == 0 {
			return ""
		}
		i := cap(x.seg) - cap(b)
		return src[i : i+len(b)]
	}
	for i := range x.records {
		records = append(records, metaEntry(&x.records[i], str))
	}
	for _, l := range x.marks {
		records = append(records, Entry{ID: tornID, Line: l})
	}
	if !ok {
		return Entry{}, records, Damage{}, false
	}
	h, _ := parseHeading(str(x.head))
	e = Entry{Kind: k, Date: h.date, Task: cmp.Or(h.task, "manual"), Source: h.source, Category: h.category, Line: line}
	if hk, isKind := ParseKind(e.Category); isKind && hk == k {
		e.Category = "" // flow-next's [pitfall] in pitfalls.md: no category
	}
	if e.Task == "manual" && e.Source == "" {
		e.Source = "manual"
	}
	e.Issue, e.Fix, e.Context = cleanField(str(x.issue)), cleanField(str(x.fix)), cleanField(str(x.context))
	body := make([]string, len(x.body))
	for i, l := range x.body {
		body[i] = str(l)
	}
	tag := str(x.tag)
	if len(x.metas) == 0 {
		// Written by flow-next or by hand: derive what the metadata line
		// would have said.
		e.Legacy = true
		e.Body = strings.ToValidUTF8(strings.Join(body, "\n"), "\uFFFD")
		e.Seen, e.LastSeen, e.Status = 1, e.Date, Active
		if e.Task != "manual" && e.Task != "unknown" {
			e.Tasks = []string{e.Task}
		}
		e.ID = tag
		if e.ID == "" {
			e.ID = contentID(k, e.Text())
		}
		e.FP = Fingerprint(e.Text())
	} else {
		if len(body) == 1 {
			b := body[0]
			if tag != "" && e.Issue != "" {
				b = cutOwnTag(b, tag)
			}
			e.Body = cleanField(unescapeBody(b))
		} else if len(body) > 1 {
			e.Body = OneLine(strings.Join(body, " "))
		}
		m := metaEntry(&x.metas[0], str)
		for i := range x.metas[1:] {
			m = fold(m, metaEntry(&x.metas[1+i], str))
		}
		e.ID, e.FP, e.Seen, e.LastSeen, e.Tasks, e.Status, e.MergedInto, e.IntoOwn, e.Gave, e.Took, e.Copies = m.ID, m.FP, m.Seen, m.LastSeen, m.Tasks, m.Status, m.MergedInto, m.IntoOwn, m.Gave, m.Took, m.Copies
		if e.ID == "" {
			e.ID = contentID(k, e.Text())
		}
	}
	return e, records, Damage{Line: x.dmgLine, What: x.dmgWhat, ID: e.ID, Reworded: x.dmgReworded}, true
}

// metaEntry is what a metadata or sighting line says, as an Entry whose
// fields str makes of the line's parts.
func metaEntry(b *Meta, str func([]byte) string) Entry {
	m := Entry{ID: str(b.ID), FP: str(b.FP), Seen: b.Seen, LastSeen: str(b.Last), Status: b.Status, MergedInto: str(b.MergedInto), IntoOwn: str(b.IntoOwn), Gave: b.Gave, Took: str(b.Took)}
	if !b.Sighting {
		m.Copies = str(b.N)
	}
	for _, t := range b.Tasks {
		m.Tasks = append(m.Tasks, str(t))
	}
	return m
}

// parseMeta reads an entry's metadata line,
//
//	<!-- flowmem: id=… fp=… seen=N last=YYYY-MM-DD tasks=a,b status=active n=… -->
//
// or a sighting line, which records one recurrence of entry id:
//
//	<!-- flowmem: seen id=… last=YYYY-MM-DD tasks=fn-2.1 -->
func parseMeta(l string) (m Entry, sighting, ok bool) {
	// The fields are taken from l at their places in the copy read.
	line := []byte(l)
	b, ok := readMetaBytes(line, nil, true)
	if !ok {
		return Entry{}, false, false
	}
	return metaEntry(&b, func(v []byte) string {
		if len(v) == 0 {
			return ""
		}
		i := cap(line) - cap(v)
		return l[i : i+len(v)]
	}), b.Sighting, true
}

// fold merges two records of one lesson, as a git union merge leaves them:
// two branches both rewrote it, or both captured it. Every task that saw
// it counts once. The counts add up when the two records name disjoint
// captures (Copies): Alice and Bob each captured the lesson, and each
// count is theirs alone. Otherwise they cannot be summed, as both include
// a shared history (one capture both inherited and both rewrote), and the
// larger holds: a record that names no capture (written before captures
// were named, or by hand) is such a one, as is a copy of a copy (Carol
// merged Alice's and Bob's and Bob merged hers), which may count less
// than its sightings but never one twice.
func fold(a, b Entry) Entry {
	out := a
	out.FP = cmp.Or(a.FP, b.FP)
	for _, t := range b.Tasks {
		if !slices.Contains(out.Tasks, t) {
			out.Tasks = append(out.Tasks, t)
		}
	}
	if apart(a.Copies, b.Copies) {
		out.Seen = max(a.Seen+b.Seen, len(out.Tasks))
		out.Copies = a.Copies + "," + b.Copies
	} else {
		out.Seen = max(a.Seen, b.Seen, len(out.Tasks))
		out.Copies = joinCopies(a.Copies, b.Copies)
	}
	// A survivor two teammates merged different entries into: each
	// record holds its own count and what its merges took in, and the
	// sum is its own once and every entry either took. A record without
	// took= (no merge, or a build that does not write it) folds as above.
	if a.Took != b.Took {
		ta, tb := ParseTook(a.Took), ParseTook(b.Took)
		took := ta
		for _, g := range tb {
			took = took.With(g.ID, g.N, larger)
		}
		out.Took = took.String()
		if len(ta) > 0 && len(tb) > 0 {
			own := max(a.Seen-ta.Sum(), b.Seen-tb.Sum(), 0)
			if apart(a.Copies, b.Copies) {
				own = max(0, a.Seen-ta.Sum()) + max(0, b.Seen-tb.Sum())
			}
			out.Seen = max(own+took.Sum(), len(out.Tasks))
		}
	}
	out.LastSeen = max(a.LastSeen, b.LastSeen)
	out.Status, out.MergedInto = foldStatus(a.Status, a.MergedInto, b.Status, b.MergedInto)
	// What the survivor held of its own comes from the records that name
	// it, all of it when two teammates both merged the entry, and what the
	// entry gave it is the most either merge gave (the survivor's own
	// records fold by the larger count too).
	out.IntoOwn, out.Gave = "", 0
	for _, r := range [...]*Entry{&a, &b} {
		if out.MergedInto != "" && r.MergedInto == out.MergedInto {
			out.IntoOwn = joinOwn(out.IntoOwn, r.IntoOwn)
			out.Gave = max(out.Gave, r.Gave)
		}
	}
	return out
}

// apart reports whether two Copies lists both name captures and share none.
func apart(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	for c := range strings.SplitSeq(a, ",") {
		if slices.Contains(strings.Split(b, ","), c) {
			return false
		}
	}
	return true
}

// joinCopies is the captures two overlapping records name together: none
// when one names none, as its count may hold any of them (a rewrite by a
// build that does not write n= keeps the count and drops the names).
func joinCopies(a, b string) string {
	if a == "" || b == "" || a == b {
		return min(a, b)
	}
	out := a
	for c := range strings.SplitSeq(b, ",") {
		if !slices.Contains(strings.Split(out, ","), c) {
			out += "," + c
		}
	}
	return out
}

// foldStatus is the status of a lesson whose two records disagree: two
// branches rewrote it both ways (Alice archived it, Bob approved it) and
// git's union merge kept both metadata lines, or both captured it and one
// retired its copy. A deliberate retire wins over a change that keeps the
// lesson, whatever the dates and whichever line comes first, as one
// branch does it (an archived lesson seen again stays archived):
// forgotten over archived (merged or rejected too) over active over
// pending. Of two merges the one that names its survivor wins, and of two
// survivors the smaller id, so every clone reads the same whichever side
// pulled.
func foldStatus(a Status, aInto string, b Status, bInto string) (Status, string) {
	ra, rb := statusRank(a), statusRank(b)
	switch {
	case ra > rb:
		return a, aInto
	case rb > ra:
		return b, bInto
	case aInto == "" || bInto != "" && bInto < aInto:
		return b, bInto
	}
	return a, aInto
}

// statusRank orders statuses by how much they retire a lesson.
func statusRank(s Status) int {
	switch s {
	case Pending:
		return 0
	case Archived:
		return 2
	case Forgotten:
		return 3
	}
	return 1
}

// CountSighting adds one recorded recurrence s to entry e. A forget's
// mark (s forgotten, see Forgotten) is no recurrence: it forgets e.
func CountSighting(e, s *Entry) {
	if s.Status == Forgotten {
		e.Status = Forgotten
		return
	}
	e.Seen++
	e.LastSeen = max(e.LastSeen, s.LastSeen)
	for _, t := range s.Tasks {
		if !slices.Contains(e.Tasks, t) {
			e.Tasks = append(e.Tasks, t)
		}
	}
}

// renderSighting records one recurrence of e on day by task. The line
// ends with a random token (n=, which readers skip as they skip any field
// they do not know): two clones that see one lesson again on one day for
// one task wrote the same line, and git's union merge takes an addition
// both sides made once, so one recurrence was lost.
func renderSighting(id, day, task string) string {
	s := fmt.Sprintf("%s seen id=%s last=%s", metaPrefix, token(id), day)
	if t := token(task); t != "" && t != "manual" {
		s += " tasks=" + t
	}
	return fmt.Sprintf("%s n=%08x -->\n", s, rand.Uint32())
}

// foldIndex merges entries that share an id into the first of them,
// keeping file order, and returns where each id is in its result.
func foldIndex(entries []Entry) ([]Entry, map[string]int) {
	index := make(map[string]int, len(entries))
	dup := false
	for i := range entries {
		if _, ok := index[entries[i].ID]; ok {
			dup = true
			break
		}
		index[entries[i].ID] = i
	}
	if !dup {
		// The common case: nothing to merge, and no copy of a large slice.
		return entries, index
	}
	clear(index)
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if i, ok := index[e.ID]; ok {
			merged := fold(out[i], e)
			o := &out[i]
			o.Seen, o.LastSeen, o.Tasks, o.Status, o.MergedInto, o.IntoOwn, o.Gave, o.Took, o.Copies = merged.Seen, merged.LastSeen, merged.Tasks, merged.Status, merged.MergedInto, merged.IntoOwn, merged.Gave, merged.Took, merged.Copies
			if validDate(e.Date) && (!validDate(o.Date) || e.Date < o.Date) {
				// The lesson was first seen when its earliest copy was
				// (two clones captured it on different days), whichever
				// copy the union merge put first.
				o.Date, o.Task, o.Source = e.Date, e.Task, e.Source
			}
			// A union merge keeps a line the two sides share only once, so
			// one copy of a lesson may have lost fields the other kept.
			for _, f := range [...]struct {
				dst *string
				src string
			}{
				{&o.Issue, e.Issue}, {&o.Fix, e.Fix}, {&o.Context, e.Context}, {&o.Body, e.Body}, {&o.Category, e.Category},
			} {
				if *f.dst == "" {
					*f.dst = f.src
				}
			}
			continue
		}
		index[e.ID] = len(out)
		out = append(out, e)
	}
	return out, index
}

// Render writes an entry in the canonical format. e must be normalized.
//
// Every line that two different entries could share carries the entry's
// id: the heading and the Fix, Context and extra text lines end with it as
// an HTML comment (hidden when rendered; flow-next still reads the heading
// by its date). The metadata line holds the id, and the lesson text is what
// the id is made from. So when git's union merge lines up two branches'
// new entries, no line of one entry matches a line of another, the only
// lines it can take as shared are the blank lines between entries and
// identical sightings, and whole entries are concatenated, never
// interleaved.
func Render(e *Entry) string {
	var b strings.Builder
	tag := " <!-- " + e.ID + " -->"
	source := ""
	if e.Source != "" && !(e.Task == "manual" && e.Source == "manual") {
		source = " " + e.Source
	}
	fmt.Fprintf(&b, "## %s %s%s [%s]%s\n%s id=%s", e.Date, e.Task, source, cmp.Or(e.Category, string(e.Kind)), tag, metaPrefix, e.ID)
	if e.FP != "" {
		b.WriteString(" fp=" + e.FP)
	}
	fmt.Fprintf(&b, " seen=%d last=%s", e.Seen, e.LastSeen)
	if len(e.Tasks) > 0 {
		b.WriteString(" tasks=" + strings.Join(e.Tasks, ","))
	}
	if e.Took != "" {
		b.WriteString(" took=" + e.Took)
	}
	if e.MergedInto != "" {
		b.WriteString(" merged-into=" + e.MergedInto)
		if e.IntoOwn != "" {
			b.WriteString(" into-own=" + e.IntoOwn)
		}
		if e.Gave > 0 {
			fmt.Fprintf(&b, " gave=%d", e.Gave)
		}
	}
	fmt.Fprintf(&b, " status=%s", e.Status)
	if e.Copies != "" {
		b.WriteString(" n=" + e.Copies)
	}
	b.WriteString(" -->\n")
	if e.Issue != "" {
		fmt.Fprintf(&b, "**Issue**: %s\n", escapeComments(e.Issue))
	}
	for _, f := range [...]struct{ label, val string }{{"Fix", e.Fix}, {"Context", e.Context}} {
		if f.val != "" {
			fmt.Fprintf(&b, "**%s**: %s%s\n", f.label, escapeComments(f.val), tag)
		}
	}
	if e.Body != "" {
		b.WriteString(escapeBody(escapeComments(e.Body)))
		if e.Issue != "" {
			b.WriteString(tag)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// escapeBody keeps a free-text line from being read as markdown structure
// (a heading, list, fence, HTML comment or field label): a leading ASCII
// punctuation mark gets a backslash, which markdown renders invisibly, and an
// ordered-list marker gets its dot or paren escaped.
func escapeBody(s string) string {
	if s == "" {
		return s
	}
	if isASCIIPunct(s[0]) {
		return `\` + s
	}
	if n := listMarker(s); n > 0 {
		return s[:n] + `\` + s[n:]
	}
	return s
}

// escapeComments keeps an HTML comment in a field's text from hiding what
// follows it when the file is rendered (a pull request, a markdown view)
// while readers hand that text to the model: every "<!--" is written
// "<\!--", which renders as the text itself. A run of backslashes already
// between "<" and "!--" gets one more, so unescapeComments undoes exactly
// this and parse(render(e)) == e holds.
func escapeComments(s string) string {
	return commentOpeners(s, 1)
}

// unescapeComments reads what escapeComments wrote. Files written before
// it read the same, but for a field that held "<\!--" itself.
func unescapeComments(s string) string {
	return commentOpeners(s, -1)
}

// commentOpeners adds (by +1) or removes (-1) one backslash in every "<",
// backslashes, "!--" of s; removing needs at least one there.
func commentOpeners(s string, by int) string {
	if !strings.Contains(s, "!--") {
		return s
	}
	var b strings.Builder
	from := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] == '\\' {
			j++
		}
		if !strings.HasPrefix(s[j:], "!--") || (by < 0 && j == i+1) {
			continue
		}
		b.WriteString(s[from : i+1])
		if by > 0 {
			b.WriteByte('\\')
			from = i + 1
		} else {
			from = i + 2
		}
		i = j - 1
	}
	if from == 0 {
		return s
	}
	b.WriteString(s[from:])
	return b.String()
}

func unescapeBody(s string) string {
	if len(s) >= 2 && s[0] == '\\' && isASCIIPunct(s[1]) {
		return s[1:]
	}
	if n := listMarker(s); n > 0 && s[n] == '\\' {
		return s[:n] + s[n+1:]
	}
	return s
}

// listMarker returns the length of a leading run of 1–9 digits when it is
// followed by backslashes and then "." or ")", as an ordered list item is.
func listMarker[T ~string | ~[]byte](s T) int {
	d := 0
	for d < len(s) && d < 10 && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d == 0 || d > 9 {
		return 0
	}
	i := d
	for i < len(s) && s[i] == '\\' {
		i++
	}
	if i < len(s) && (s[i] == '.' || s[i] == ')') {
		return d
	}
	return 0
}

func isASCIIPunct(c byte) bool {
	return c < utf8.RuneSelf && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// Header is the start of a new memory file: front matter, title and a short
// note on what the file holds and how entries look.
func Header(k Kind) string {
	var about string
	switch k {
	case Pitfall:
		about = "Lessons from NEEDS_WORK code reviews: things models tend to miss.\nThe flowmem hook adds entries from review feedback; add your own with\n`flowmem memory add --type pitfall \"…\" --fix \"…\"`."
	case Convention:
		about = "Project patterns discovered during work that are not in CLAUDE.md.\nAdd one with `flowmem memory add --type convention \"…\"`."
	case Decision:
		about = "Architectural choices and why we made them.\nAdd one with `flowmem memory add --type decision \"…\"`."
	}
	return fmt.Sprintf("---\nflowmem: 1\nkind: %ss\n---\n# %s\n\n%s\n\n"+
		"<!-- Each entry is a \"## date task source [category]\" heading, one hidden\n"+
		"     metadata line (id, times seen, last seen, tasks, status) and one line\n"+
		"     per field. Keep each field on one line when editing by hand, and keep\n"+
		"     the id comments that end lines: they keep entries whole in git merges. -->\n",
		k, k.Title(), about)
}
