package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/adrg/frontmatter"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"gopkg.in/yaml.v2"
)

// blockParser finds entry headings. It knows only the blocks that can hide a
// "## " line (fenced and indented code, HTML blocks) and no inline syntax:
// entries are split on real ATX headings, never on text inside a code fence,
// and skipping inline parsing keeps large memories fast to read.
var blockParser = parser.NewParser(
	parser.WithBlockParsers(
		util.Prioritized(parser.NewATXHeadingParser(), 100),
		util.Prioritized(parser.NewCodeBlockParser(), 500),
		util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
		util.Prioritized(parser.NewHTMLBlockParser(), 900),
		util.Prioritized(parser.NewParagraphParser(), 1000),
	),
	parser.WithInlineParsers(),
	parser.WithParagraphTransformers(),
)

// yamlFormat is the only front matter flowmem accepts: "---" fenced YAML.
// The library's defaults would also take TOML, JSON and a bare "{" line.
var yamlFormat = frontmatter.NewFormat("---", "---", yaml.Unmarshal)

// FrontMatter is the YAML header of a memory file.
type FrontMatter struct {
	Format int    `yaml:"flowmem" json:"flowmem"`
	Kind   string `yaml:"kind" json:"kind"`
}

// Doc is one parsed memory file. Entries are as written, not folded; spans
// keep each entry's bytes so a rewrite can replace one entry and leave every
// other byte of the file as it was.
type Doc struct {
	Kind           Kind
	Raw            []byte
	HasFrontMatter bool
	FrontMatter    FrontMatter
	Entries        []Entry
	// Sightings are recurrences recorded as appended lines, attributed by
	// id rather than by position (see Store.Upsert).
	Sightings []Entry
	spans     []span
}

// span is an entry's bytes: [start, end) runs from its heading to the end of
// its last non-blank line.
type span struct{ start, end int }

// ParseError points at the line of a memory file that cannot be read.
type ParseError struct {
	Path string
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err) }

func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads a memory file of kind k. Files written by flow-next (no front
// matter, no metadata lines, free-text bodies) are read too.
func Parse(k Kind, raw []byte) (*Doc, error) {
	// One conversion for the whole file; entries' fields are substrings of
	// it rather than copies.
	return parseSrc(k, raw, string(raw))
}

// parseSrc is Parse with the file also given as a string holding the same
// bytes: entries' fields are substrings of src.
func parseSrc(k Kind, raw []byte, src string) (*Doc, error) {
	d := &Doc{Kind: k, Raw: raw}
	body, offset := raw, 0
	if fm, n, ok := splitFrontMatter(raw); ok {
		if _, err := frontmatter.Parse(bytes.NewReader(fm), &d.FrontMatter, yamlFormat); err != nil {
			return nil, &ParseError{Line: 1, Err: fmt.Errorf("front matter: %w", err)}
		}
		d.HasFrontMatter = true
		offset, body = n, raw[n:]
	} else if n != 0 {
		return nil, &ParseError{Line: 1, Err: errors.New("front matter: no closing --- line")}
	}
	heads, ok, _ := scanHeadingsState(body)
	if !ok {
		heads = markdownHeadings(body)
	}
	if len(heads) == 0 {
		return d, nil
	}
	d.Entries, d.spans, d.Sightings = parseEntries(k, raw, src, offset, heads, 1+strings.Count(src[:offset], "\n"))
	return d, nil
}

// parseEntries reads the entries that start at offset+heads[i] in src (raw
// holds the same bytes); each runs to the next heading or the end of src.
// line is the line number at offset.
func parseEntries(k Kind, raw []byte, src string, offset int, heads []int, line int) ([]Entry, []span, []Entry) {
	n := len(heads)
	entries := make([]Entry, n)
	spans := make([]span, n)
	sightings := make([][]Entry, n)
	parseRange := func(from, to int) {
		for i := from; i < to; i++ {
			start := offset + heads[i]
			end := len(raw)
			if i+1 < n {
				end = offset + heads[i+1]
			}
			entries[i], sightings[i] = parseEntry(k, src[start:end])
			spans[i] = span{start, start + len(trimTrailingBlank(raw[start:end]))}
		}
	}
	parseRange(0, n)
	var all []Entry
	pos := offset
	for i, h := range heads {
		line += strings.Count(src[pos:offset+h], "\n")
		pos = offset + h
		entries[i].Line = line
		all = append(all, sightings[i]...)
	}
	return entries, spans, all
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

// scanHeadingsState returns the byte offsets, within body, of the lines
// that start entries: level-2 ATX headings whose first word is a date. It
// is the fast path for files without code fences or HTML other than
// comments, which is every file flowmem writes: there, a line is an ATX
// heading exactly when it starts with up to three spaces and "##", so a
// line scan finds what goldmark would. ok is false as soon as it meets
// anything that needs the full parser (markdownHeadings); inComment says
// whether body ends inside an HTML comment.
func scanHeadingsState(body []byte) (heads []int, ok, inComment bool) {
	var out []int
	for pos := 0; pos < len(body); {
		end := bytes.IndexByte(body[pos:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += pos
		}
		line := body[pos:end]
		start := pos
		pos = end + 1
		if inComment {
			inComment = !bytes.Contains(line, []byte("-->"))
			continue
		}
		indent := 0
		for indent < len(line) && indent < 4 && line[indent] == ' ' {
			indent++
		}
		if indent == 4 || indent < len(line) && line[indent] == '\t' {
			// Indented code cannot hold a heading, but a tab would need
			// goldmark's column rules.
			if indent < 4 {
				return nil, false, false
			}
			continue
		}
		rest := line[indent:]
		switch {
		case len(rest) == 0:
		case rest[0] == '`' || rest[0] == '~':
			if bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~")) {
				return nil, false, false
			}
		case rest[0] == '<':
			if !bytes.HasPrefix(rest, []byte("<!--")) {
				return nil, false, false
			}
			inComment = !bytes.Contains(rest, []byte("-->"))
		case rest[0] == '#':
			if isEntryHeading(string(bytes.TrimRight(line, "\r"))) {
				out = append(out, start)
			}
		}
	}
	return out, true, inComment
}

// markdownHeadings finds entry headings with goldmark, for files that hold
// code fences or HTML blocks, where a "## " line may be code, not a heading.
func markdownHeadings(body []byte) []int {
	root := blockParser.Parse(text.NewReader(body))
	var out []int
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		// An empty heading has no text segment, and no date: not an entry.
		if !ok || h.Level != 2 || h.Lines().Len() == 0 {
			continue
		}
		start := lineStart(body, h.Lines().At(0).Start)
		if _, ok := parseHeading(firstLine(body[start:])); ok {
			out = append(out, start)
		}
	}
	return out
}

func lineStart(b []byte, i int) int {
	if i > len(b) {
		i = len(b)
	}
	return bytes.LastIndexByte(b[:i], '\n') + 1
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return strings.TrimRight(string(b), "\r")
}

func trimTrailingBlank(seg []byte) []byte {
	end := len(seg)
	for end > 0 {
		lineEnd := end
		if seg[lineEnd-1] == '\n' {
			lineEnd--
		}
		start := bytes.LastIndexByte(seg[:lineEnd], '\n') + 1
		if len(bytes.TrimSpace(seg[start:lineEnd])) > 0 {
			return seg[:end]
		}
		end = start
	}
	return seg[:0]
}

type heading struct {
	date, task, source, category string
}

// isEntryHeading is parseHeading's yes or no, without splitting the rest of
// the line.
func isEntryHeading(line string) bool {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "## ")
	if !ok {
		return false
	}
	rest = strings.TrimRight(rest, " #")
	var buf [1]string
	for i := 0; i < len(rest); {
		if size := spaceAt(rest, i); size > 0 {
			i += size
			continue
		}
		j := i + 1
		for j < len(rest) && j-i <= 10 && spaceAt(rest, j) == 0 {
			j++
		}
		buf[0] = rest[i:j]
		return validDate(buf[0])
	}
	return false
}

// parseHeading reads "## YYYY-MM-DD task [source] [category]" in the forms
// flowmem and flow-next write.
func parseHeading(line string) (heading, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "## ")
	if !ok && strings.TrimSpace(line) == "##" {
		return heading{}, false
	}
	if !ok {
		return heading{}, false
	}
	// Headings are split on every read of every entry: fixed buffers keep
	// the common case free of allocations.
	var fieldBuf, plainBuf, bracketBuf [8]string
	fields := fieldsInto(fieldBuf[:0], strings.TrimRight(rest, " #"))
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
		if c := bracketed[len(bracketed)-1]; !isKindName(c) {
			h.category = c
		}
	}
	return h, true
}

// fieldsInto appends the whitespace-separated fields of s to dst, as
// strings.Fields splits them.
func fieldsInto(dst []string, s string) []string {
	for i := 0; i < len(s); {
		if size := spaceAt(s, i); size > 0 {
			i += size
			continue
		}
		j := i + 1
		for j < len(s) {
			if c := s[j]; c < utf8.RuneSelf {
				if c == ' ' || '\t' <= c && c <= '\r' {
					break
				}
				j++
				continue
			}
			if spaceAt(s, j) > 0 {
				break
			}
			j++
		}
		dst = append(dst, s[i:j])
		i = j
	}
	return dst
}

// spaceAt is the byte length of the white space rune at s[i], or 0.
func spaceAt(s string, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		if c == ' ' || '\t' <= c && c <= '\r' {
			return 1
		}
		return 0
	}
	if r, size := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
		return size
	}
	return 0
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

func isKindName(s string) bool {
	_, ok := ParseKind(s)
	return ok
}

const metaPrefix = "<!-- flowmem:"

// parseEntry reads one entry's lines: heading, metadata line(s), fields and
// free text, and returns any sighting lines found among them.
func parseEntry(k Kind, seg string) (Entry, []Entry) {
	first, rest, _ := strings.Cut(seg, "\n")
	h, _ := parseHeading(strings.TrimRight(first, "\r"))
	e := Entry{Kind: k, Date: h.date, Task: h.task, Source: h.source, Category: h.category}
	if e.Task == "" {
		e.Task = "manual"
	}
	if e.Task == "manual" && e.Source == "" {
		e.Source = "manual"
	}
	var metas, sightings []Entry
	var body []string
	for rest != "" {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		l = strings.TrimRight(l, "\r")
		switch {
		case strings.HasPrefix(l, metaPrefix):
			m, sighting, ok := parseMeta(l)
			switch {
			case !ok:
				body = append(body, l)
			case sighting:
				sightings = append(sightings, m)
			case len(metas) > 0 && m.ID != metas[0].ID:
				// Another entry's record that a merge moved here: keep it
				// by id, not by position.
				sightings = append(sightings, m)
			default:
				metas = append(metas, m)
			}
		case strings.HasPrefix(l, "**Issue**:"):
			e.Issue = validText(l[len("**Issue**:"):])
		case strings.HasPrefix(l, "**Fix**:"):
			e.Fix = validText(l[len("**Fix**:"):])
		case strings.HasPrefix(l, "**Context**:"):
			e.Context = validText(l[len("**Context**:"):])
		default:
			body = append(body, l)
		}
	}
	for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
		body = body[1:]
	}
	for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
		body = body[:len(body)-1]
	}
	if len(metas) == 0 {
		// Written by flow-next or by hand: derive what the metadata line
		// would have said.
		e.Legacy = true
		e.Body = strings.ToValidUTF8(strings.Join(body, "\n"), "\uFFFD")
		e.Seen, e.LastSeen, e.Status = 1, e.Date, Active
		if e.Task != "manual" && e.Task != "unknown" {
			e.Tasks = []string{e.Task}
		}
		e.ID = ContentID(k, e.Text())
		return e, sightings
	}
	if len(body) == 1 {
		e.Body = validText(unescapeBody(body[0]))
	} else if len(body) > 1 {
		e.Body = OneLine(strings.Join(body, " "))
	}
	m := metas[0]
	for _, other := range metas[1:] {
		m = fold(m, other)
	}
	e.ID, e.Seen, e.LastSeen, e.Tasks, e.Status, e.MergedInto = m.ID, m.Seen, m.LastSeen, m.Tasks, m.Status, m.MergedInto
	if e.ID == "" {
		e.ID = ContentID(k, e.Text())
	}
	return e, sightings
}

// parseMeta reads an entry's metadata line,
//
//	<!-- flowmem: id=… seen=N last=YYYY-MM-DD tasks=a,b status=active -->
//
// or a sighting line, which records one recurrence of entry id:
//
//	<!-- flowmem: seen id=… last=YYYY-MM-DD tasks=fn-2.1 -->
func parseMeta(l string) (m Entry, sighting, ok bool) {
	inner, ok := strings.CutSuffix(strings.TrimSpace(l[len(metaPrefix):]), "-->")
	if !ok {
		return Entry{}, false, false
	}
	var fieldBuf [8]string
	fields := fieldsInto(fieldBuf[:0], inner)
	if len(fields) > 0 && fields[0] == "seen" {
		sighting, fields = true, fields[1:]
	}
	m = Entry{Seen: 1, Status: Active}
	for _, f := range fields {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		switch key {
		case "id":
			m.ID = val
		case "seen":
			if n, err := strconv.Atoi(val); err == nil && n > 0 {
				m.Seen = n
			}
		case "last":
			if validDate(val) {
				m.LastSeen = val
			}
		case "tasks":
			for val != "" {
				var t string
				t, val, _ = strings.Cut(val, ",")
				if t != "" && !contains(m.Tasks, t) {
					m.Tasks = append(m.Tasks, t)
				}
			}
		case "status":
			if val == string(Archived) || val == string(Pending) {
				m.Status = Status(val)
			}
		case "merged-into":
			m.MergedInto = val
		}
	}
	if m.ID == "" && sighting {
		return Entry{}, false, false
	}
	return m, sighting, true
}

// fold merges two records of one lesson, as a git union merge leaves them
// when two branches both bumped it: counts cannot be summed (both copies
// include the shared history), but every task that saw it counts once.
func fold(a, b Entry) Entry {
	out := a
	for _, t := range b.Tasks {
		if !contains(out.Tasks, t) {
			out.Tasks = append(out.Tasks, t)
		}
	}
	out.Seen = max(a.Seen, b.Seen, len(out.Tasks))
	if b.LastSeen > a.LastSeen {
		out.LastSeen, out.Status, out.MergedInto = b.LastSeen, b.Status, b.MergedInto
	} else if b.LastSeen == a.LastSeen && b.Status == Active {
		out.Status = Active
	}
	return out
}

// Folded is the document's entries as readers see them: copies of one
// lesson merged (Fold) and every sighting counted.
func (d *Doc) Folded() []Entry {
	out := Fold(d.Entries)
	if len(d.Sightings) == 0 {
		return out
	}
	if len(out) > 0 && &out[0] == &d.Entries[0] {
		out = append([]Entry(nil), out...)
	}
	index := make(map[string]int, len(out))
	for i := range out {
		index[out[i].ID] = i
	}
	for i := range d.Sightings {
		if j, ok := index[d.Sightings[i].ID]; ok {
			countSighting(&out[j], &d.Sightings[i])
		}
	}
	return out
}

// countSighting adds one recorded recurrence s to entry e.
func countSighting(e, s *Entry) {
	e.Seen++
	if s.LastSeen > e.LastSeen {
		e.LastSeen = s.LastSeen
	}
	for _, t := range s.Tasks {
		if !contains(e.Tasks, t) {
			e.Tasks = append(e.Tasks, t)
		}
	}
}

// RenderSighting records one recurrence of e on day by task.
func RenderSighting(id, day, task string) string {
	s := fmt.Sprintf("%s seen id=%s last=%s", metaPrefix, token(id), day)
	if t := token(task); t != "" && t != "manual" {
		s += " tasks=" + t
	}
	return s + " -->\n"
}

// Fold merges entries that share an id into the first of them, keeping file
// order.
func Fold(entries []Entry) []Entry {
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
		return entries
	}
	clear(index)
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if i, ok := index[e.ID]; ok {
			merged := fold(out[i], e)
			o := &out[i]
			o.Seen, o.LastSeen, o.Tasks, o.Status, o.MergedInto = merged.Seen, merged.LastSeen, merged.Tasks, merged.Status, merged.MergedInto
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
	return out
}

// Render writes an entry in the canonical format. e must be normalized.
func Render(e *Entry) string {
	var b strings.Builder
	b.WriteString("## ")
	b.WriteString(e.Date)
	b.WriteByte(' ')
	b.WriteString(e.Task)
	if e.Source != "" && !(e.Task == "manual" && e.Source == "manual") {
		b.WriteByte(' ')
		b.WriteString(e.Source)
	}
	b.WriteString(" [")
	if e.Category != "" {
		b.WriteString(e.Category)
	} else {
		b.WriteString(string(e.Kind))
	}
	b.WriteString("]\n")
	fmt.Fprintf(&b, "%s id=%s seen=%d last=%s", metaPrefix, e.ID, e.Seen, e.LastSeen)
	if len(e.Tasks) > 0 {
		b.WriteString(" tasks=")
		b.WriteString(strings.Join(e.Tasks, ","))
	}
	if e.MergedInto != "" {
		b.WriteString(" merged-into=")
		b.WriteString(e.MergedInto)
	}
	fmt.Fprintf(&b, " status=%s -->\n", e.Status)
	for _, f := range [...]struct{ label, val string }{{"Issue", e.Issue}, {"Fix", e.Fix}, {"Context", e.Context}} {
		if f.val != "" {
			fmt.Fprintf(&b, "**%s**: %s\n", f.label, f.val)
		}
	}
	if e.Body != "" {
		b.WriteString(escapeBody(e.Body))
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
func listMarker(s string) int {
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
		"     per field. Keep each field on one line when editing by hand. -->\n",
		k, k.Title(), about)
}
