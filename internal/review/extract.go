package review

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Finding is one issue a reviewer raised. Every field is a single line of at
// most MaxFieldLen bytes.
type Finding struct {
	Severity string // "critical", "major", "minor", "nit" or "" (unknown)
	Location string // file:line or plan section
	Problem  string
	Fix      string // the reviewer's suggestion, "" when none was given
	Evidence string // supporting detail, optional
}

// MaxReviewLen bounds how much of a review Extract reads.
const MaxReviewLen = 1 << 20

// mdParser is goldmark's default parser (goldmark.DefaultParser), built
// once, when a review is first read: building its tables costs more than
// parsing a typical review, and a goldmark parser keeps no per-document
// state. It is built from package parser, not goldmark.New: that would
// link goldmark's HTML renderer, and every command would initialise it.
//
// Tables are read from paragraphs (tableRows) rather than with goldmark's
// table extension: that package compiles its linkify expressions when the
// program starts, a cost the hook would pay on every tool call.
var mdParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
})

// Extract splits a review text into findings by its structure (SPEC §4):
//   - a `<findings>` JSON block, or a review that is itself JSON with a
//     "findings" array (Codex's review output), wins when present;
//   - a heading section that is a finding — a numbered or marked title
//     (`### FINDING [BLOCKER] …`, `### C1. …`, `#### 2. …`, `### 🔴 …`) or
//     any heading under a findings heading ("## Security Issues") — with
//     everything under it, sub-headings included, as its body;
//   - a list item in a findings context (under a findings or severity
//     heading or lead-in, or opening with a severity marker), with its
//     nested paragraphs and lists;
//   - a block of field lines (`**Severity**:`, `**Problem**:`, `- Fix:` …);
//   - a table row of a table with a problem column (a table drawn with
//     box characters, as a terminal shows one, is read the same way).
//
// Sections that summarise, praise or list passed checks are skipped.
// Sections of recommendations or next steps are not findings: each of their
// items is linked, as a fix, to the finding it names (by file or title
// words).
func Extract(text string) []Finding {
	fs, _ := extract(text, false)
	return fs
}

// extract is Extract that also returns, when asked, each finding's whole text
// before the fields were cut to MaxFieldLen (location, problem, fix and
// evidence, NUL-separated): the quality harness looks a label up in all
// the text a finding was built from.
func extract(text string, wantWhole bool) ([]Finding, []string) {
	return extractIn(text, wantWhole, false)
}

// extractIn is extract of text that is itself a markdown fence's content
// when fenced: its own fences are then quoted text. One level only, as
// each level re-parses the whole: fences nested a few hundred deep took
// seconds.
func extractIn(text string, wantWhole, fenced bool) ([]Finding, []string) {
	if len(text) > MaxReviewLen {
		// A review longer than this is a log dump; its first megabyte
		// holds the findings.
		text = text[:MaxReviewLen]
	}
	text = foldWidth(text)
	fs := extractJSON(text)
	if len(fs) == 0 {
		fs = threadComments(text)
	}
	if len(fs) > 0 {
		var whole []string
		for _, f := range fs {
			if wantWhole {
				whole = append(whole, f.text())
			}
		}
		return fs, whole
	}
	src := []byte(boxTables(shallow(unlink(text))))
	doc := mdParser().Parse(textReader(src))
	x := &extractor{src: src}
	root := sectionTree(doc, src)
	x.section(root, scope{})
	x.flushDraft()
	if !x.found() && len(x.fixSecs) > 0 {
		// Only a list of required changes: those are the findings.
		for _, s := range x.fixSecs {
			x.section(s, scope{findings: true, force: true})
		}
		x.fixSecs = nil
	}
	if v := ParseVerdict(text); !x.found() && v != Ship {
		// A change-requesting review in none of the known shapes: its
		// substantial top-level list items are the best guess.
		x.fallback(root)
	}
	if !x.found() && !fenced {
		if inner := markdownFences(doc, src); inner != "" {
			// The review is itself a markdown document fenced in a
			// reviewer's note (one line saying a report follows): read
			// it. Only when nothing outside is read as findings, its
			// list of required changes included: a review quoting a
			// markdown file (an agent's rules) holds its findings
			// outside the fence.
			return extractIn(inner, wantWhole, true)
		}
	}
	x.linkFixes()
	out := make([]Finding, 0, len(x.out))
	var whole []string
	for _, c := range x.out {
		if w, ok := c.whole(); ok {
			out = append(out, w.cut())
			if wantWhole {
				whole = append(whole, w.text())
			}
		}
	}
	return out, whole
}

// markdownFences is the text of the fenced code blocks of doc whose info
// string names markdown ("```markdown", "```md"), joined.
func markdownFences(doc ast.Node, src []byte) string {
	var b strings.Builder
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		fc, ok := n.(*ast.FencedCodeBlock)
		if !ok || fc.Info == nil {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(string(fc.Language(src)))) {
		case "markdown", "md":
		default:
			continue
		}
		for i := 0; i < fc.Lines().Len(); i++ {
			seg := fc.Lines().At(i)
			b.Write(seg.Value(src))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// text is a finding's fields on one line, NUL-separated.
func (f Finding) text() string {
	return strings.Join([]string{f.Location, f.Problem, f.Fix, f.Evidence}, " \x00 ")
}

// cut bounds every field to MaxFieldLen.
func (f Finding) cut() Finding {
	f.Location = truncate(f.Location, MaxFieldLen)
	f.Problem = truncate(f.Problem, MaxFieldLen)
	f.Fix = truncate(f.Fix, MaxFieldLen)
	f.Evidence = truncate(f.Evidence, MaxFieldLen)
	return f
}

// textReader is goldmark's reader, named where extract's text shadows the
// package.
func textReader(src []byte) text.Reader { return text.NewReader(src) }

// maxNesting bounds how deeply the lines of a review nest block quotes and
// lists. goldmark's cost grows with the square of the depth (50,000 "- "
// on one line: 18 s of CPU, past the hook's deadline); no review nests
// deeper than a few levels.
const maxNesting = 16

// shallow cuts each line's nesting to maxNesting: a run of leading quote
// and list markers ("> > - - …") keeps its first maxNesting markers, and
// leading blanks their first 4×maxNesting columns. Any other line is left
// as it is, and a text with no deep line comes back unchanged.
func shallow(text string) string {
	var b strings.Builder
	done := 0
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off + 1
		}
		if cut, keep := deepPrefix(text[off:end]); cut > 0 {
			if b.Len() == 0 {
				b.Grow(len(text))
			}
			b.WriteString(text[done : off+keep])
			done = off + cut
		}
		off = end
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

// deepPrefix reports, for a line nested deeper than maxNesting, where its
// nesting prefix ends (cut) and how much of it to keep; cut is 0 for any
// other line.
func deepPrefix(line string) (cut, keep int) {
	depth, i := 0, 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
			if i > 4*maxNesting && keep == 0 {
				keep = i
			}
			continue
		case c == '>':
			i++
			if i < len(line) && line[i] == ' ' {
				i++
			}
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && line[i+1] == ' ':
			i += 2
		default:
			n := orderedMarker(line[i:])
			if n == 0 {
				if keep > 0 {
					return i, keep
				}
				return 0, 0
			}
			i += n
		}
		if depth++; depth == maxNesting && keep == 0 {
			keep = i
		}
	}
	if keep > 0 {
		return i, keep
	}
	return 0, 0
}

// section is a heading and what lies under it up to the next heading of
// the same or a higher level.
type section struct {
	level    int
	title    string
	blocks   []ast.Node
	children []*section
}

func sectionTree(doc ast.Node, src []byte) *section {
	root := &section{}
	stack := []*section{root}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			for len(stack) > 1 && stack[len(stack)-1].level >= h.Level {
				stack = stack[:len(stack)-1]
			}
			// "### [x] B3 — …": a heading per finding that carries a
			// tracking checkbox before its id, ticked as the work is
			// done. The box says nothing about the finding; without it
			// the id is seen and its siblings are findings too. (In a
			// list, "- [x] …" is a passed check and stays one.)
			title := checkboxRest(strings.TrimSpace(strings.Join(inlineLines(h, src), " ")))
			s := &section{level: h.Level, title: title}
			top := stack[len(stack)-1]
			top.children = append(top.children, s)
			stack = append(stack, s)
			continue
		}
		top := stack[len(stack)-1]
		top.blocks = append(top.blocks, n)
	}
	return root
}

// scope is what the enclosing headings and lead-ins say about the blocks
// under them.
type scope struct {
	severity string
	findings bool // announced as findings: its list items and sub-headings are findings
	force    bool // a recommendations section read as findings (no other findings exist)
	outline  bool // sibling headings are numbered as an outline, not as findings
}

// candidate is a finding being assembled: a title plus fields, in the
// order the reviewer wrote them.
type candidate struct {
	ref      string // the reviewer's number or id ("1", "C1", "2.1"), for linking fixes
	title    string
	sevHint  string
	fields   map[string]string
	plain    []string
	linked   []string // fixes from a recommendations section
	lastSlot string
	plainLen int
	// header: the candidate so far is a block of one-line fields
	// ("File: x", "Line: 12"), whose body is the prose paragraphs after
	// it, up to the next field block, heading or rule.
	header bool
}

// maxCollect bounds the text gathered for one field: every field is cut
// to MaxFieldLen in the end, and a bound keeps a huge finding linear.
const maxCollect = 4 * MaxFieldLen

func joinCapped(a, b string) string {
	if len(a) >= maxCollect {
		return a
	}
	return joinText(a, b)
}

func newCandidate(title, sev string) *candidate {
	return &candidate{title: title, sevHint: sev, fields: map[string]string{}}
}

// add puts a labelled value into its field. Field-less text goes to the
// last labelled field (a paragraph after "**Suggested fix**:" continues the
// fix) or, before any label, to the finding's prose.
func (c *candidate) add(field, value string) {
	if field == "" {
		if value == "" {
			return
		}
		if c.lastSlot != "" {
			c.fields[c.lastSlot] = joinCapped(c.fields[c.lastSlot], value)
			return
		}
		if c.plainLen < maxCollect {
			c.plain = append(c.plain, value)
			c.plainLen += len(value)
		}
		return
	}
	c.fields[field] = joinCapped(c.fields[field], value)
	c.lastSlot = field
	if field == fieldSeverity || field == fieldLocation {
		// One-line fields: the paragraph after "**File:** x" is prose.
		c.lastSlot = ""
	}
}

// whole turns the candidate into a Finding, its fields not yet cut to
// MaxFieldLen: the title and problem text are the problem; the fix is the
// fix fields, else what a recommendations section said about it, else the
// prescriptive sentences of its prose.
func (c *candidate) whole() (Finding, bool) {
	sev := normalizeSeverity(c.fields[fieldSeverity])
	title := c.title
	if s, rest := severityMarker(title); s != "" {
		title = rest
		if sev == "" {
			sev = s
		}
	}
	if sev == "" {
		sev = c.sevHint
	}
	problem := joinSentence(title, c.fields[fieldProblem])
	prose := strings.Join(c.plain, " ")
	fix := c.fields[fieldFix]
	if fix == "" {
		fix = strings.Join(c.linked, " ")
	}
	if fix == "" {
		// No fix field: the prescriptive sentences of the prose are the
		// fix, the rest the problem. A finding that is only an
		// instruction ("rename x") is both.
		p, f := splitFix(prose)
		if prose == "" && c.fields[fieldProblem] != "" {
			// "**Problem**: … Fix: …" or a problem field that ends in
			// what to do.
			p, f = splitFix(c.fields[fieldProblem])
			problem = title
		}
		problem, fix = joinSentence(problem, p), f
	} else {
		problem = joinSentence(problem, prose)
	}
	evidence := c.fields[fieldEvidence]
	if problem == "" {
		problem = fix
	}
	loc := c.fields[fieldLocation]
	if loc == "" {
		loc = guessLocation(c.title + " " + c.fields[fieldProblem] + " " + prose + " " + c.fields[fieldEvidence] + " " + fix + " " + c.fields[fieldSeverity])
	}
	f := Finding{
		Severity: sev,
		Location: strings.TrimRight(flatLocation(loc), ".;,"),
		Problem:  flatten(problem),
		Fix:      flatten(fix),
		Evidence: flatten(evidence),
	}
	return f, f.Problem != "" && !(f.Fix == "" && noneClaim(f.Problem))
}

// noneClaim reports whether a text only says there is nothing to report
// ("Nothing to report.", "None.", "No problems seen"): what a reviewer
// writes under an empty severity group.
func noneClaim(t string) bool {
	w := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && r != '/' })
	if len(w) == 0 || len(w) > 4 {
		return false
	}
	switch w[0] {
	case "none", "nothing", "n/a":
		return true
	case "no":
		rest := strings.Join(w[1:], " ")
		for _, fw := range findingsWords {
			if hasTerm(rest, fw) {
				return true
			}
		}
	}
	return false
}

func joinSentence(a, b string) string {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	if r, _ := utf8.DecodeLastRuneInString(a); unicode.IsPunct(r) && r != ')' && r != '`' && r != '"' || r == '—' || r == '–' {
		return a + " " + b
	}
	return a + ". " + b
}

type extractor struct {
	src     []byte
	out     []*candidate
	draft   *candidate // field lines outside any titled finding
	fixSecs []*section
	lead    *scope // a lead-in paragraph ("Issues found:") announcing the next list
	// byID holds the first finding emitted under each id that has a
	// letter ("C2", "SEC-4"), for idTarget: a plan naming thousands of
	// ids must not scan every finding for each of its words.
	byID map[string]*candidate
}

// found reports whether a candidate so far makes a finding: a findings
// section that says only "None" holds none.
func (x *extractor) found() bool {
	for _, c := range x.out {
		if _, ok := c.whole(); ok {
			return true
		}
	}
	return false
}

func (x *extractor) emit(c *candidate) {
	if c == nil || c.title == "" && len(c.plain) == 0 && len(c.fields) == 0 {
		return
	}
	x.out = append(x.out, c)
	if c.ref != "" && strings.ContainsAny(c.ref, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && x.byID[c.ref] == nil {
		if x.byID == nil {
			x.byID = map[string]*candidate{}
		}
		x.byID[c.ref] = c
	}
}

func (x *extractor) flushDraft() {
	d := x.draft
	x.draft = nil
	// A block of metadata lines ("**Branch:** …", "**Files:** …") is not
	// a finding: a field block is one when it states a problem or a
	// severity.
	if d != nil && (d.title != "" || d.fields[fieldProblem] != "" || d.fields[fieldSeverity] != "" || d.fields[fieldLocation] != "" && len(d.plain) > 0) {
		x.emit(d)
	}
}

// section reads one heading section in its scope.
func (x *extractor) section(s *section, sc scope) {
	x.flushDraft()
	x.lead = nil
	k := classifyHeading(s.title)
	if numberedLeaf(s, k, sc) {
		k.findings, k.container = false, false
	}
	if s.level > 0 && !sc.force {
		switch {
		case k.done && s.level > 1:
			// What is right or already fixed, sub-sections included.
			return
		case k.skip && !sc.findings && s.level > 1:
			// A document title ("# Review summary") is no summary section.
			// A summary's own text is not findings, but a heading under
			// it may be ("# Review summary" over "## Finding 1 …").
			x.children(s, sc)
			return
		case k.fixes || k.fixList && len(s.children) == 0 && x.namesFindings(s),
			!k.findings && !k.container && len(s.children) == 0 && x.namesIDs(s):
			x.fixSecs = append(x.fixSecs, s)
			return
		case isVerdictLine(s.title):
			// "## Verdict: NOT READY": the review's call, not a
			// finding, even under a findings heading; what it lists
			// is read as any section's blocks.
			x.blocks(s.blocks, sc)
			x.flushDraft()
			x.children(s, sc)
			return
		}
	}
	inner := sc
	inner.force, inner.outline = false, false
	if k.severity != "" {
		inner.severity = k.severity
	}
	if k.findings || k.severity != "" || sc.force {
		inner.findings = true
	}
	// A recommendations section read as findings holds them: it is not
	// one finding.
	container := k.container || sc.force
	if !container && len(s.blocks) == 0 && idChildren(s) {
		// "### 2. Storage" with nothing of its own over "#### S-1 …",
		// "#### S-2 …": a group heading, each marked sub-heading a
		// finding of its own.
		container = true
	}
	if !container && areaChildren(s) {
		// "## 1. Architecture · 6/10" over "### Strengths" and "###
		// Issues": an area of the review with sections of its own, each
		// read by its kind.
		container = true
	}
	if !container && subNumbered(s) {
		// "## 2. Save edges" over "### 2a. …", "### 2b. …": a group,
		// each sub-heading numbered under it a finding of its own.
		container, inner.findings = true, true
	}
	if s.level > 0 && !container {
		sev, ref, title, marked := titleMarker(s.title)
		if sc.outline && sev == "" && isDigits(ref) && isDigit(strings.TrimLeft(s.title, "*_ ")[0]) {
			marked = false
		}
		if x.titledParagraphs(s.blocks) >= 2 {
			// Several paragraphs opening with a bold id ("**H1. …**",
			// "**H2. …**") under one heading: it holds findings, it is
			// not one.
			marked = false
			inner.findings = true
		} else if ref == "" && (marked || sc.findings && !k.skip) && x.listGroup(s) {
			// "### Security" over nothing but bold-titled items: a
			// group of findings, each item one, not a finding whose
			// body glues them together. A numbered or id'd heading
			// ("### C1. …") is one finding whatever its body.
			inner.findings = true
			if sev != "" {
				inner.severity = sev
			}
		} else if marked || (sc.findings && !k.skip) {
			if title == "" && !marked {
				title = s.title
			}
			if sev == "" {
				sev = inner.severity
			}
			x.headingFinding(s, ref, title, sev)
			return
		} else if place := pathLineRe().FindString(s.title); place != "" && len(s.blocks) > 0 && len(s.children) == 0 && !k.skip {
			// "### Thread 3: `api/auth.go:17` (open)": a comment on
			// one line of code, as review threads are exported; its
			// body is the finding.
			c := newCandidate("", inner.severity)
			c.fields[fieldLocation] = place
			x.body(c, s.blocks)
			x.emit(c)
			return
		}
	}
	x.blocks(s.blocks, inner)
	x.flushDraft()
	x.children(s, inner)
}

// listGroup reports whether a heading section holds nothing but a list of
// two or more items that each open with a bold title ("- **Unbounded
// cache**: …"), after at most a lead-in line ending in a colon: its items
// are its findings (SPEC §4's bold-label bullets under a topic heading). A
// finding's own body has prose, code or fields of its own.
func (x *extractor) listGroup(s *section) bool {
	if len(s.children) > 0 {
		return false
	}
	items, other := 0, 0
	for i, b := range s.blocks {
		switch b := b.(type) {
		case *ast.List:
			for it := b.FirstChild(); it != nil; it = it.NextSibling() {
				fp := firstBlock(it)
				if fp == nil || x.itemHasFields(it) {
					return false
				}
				first := strings.Join(trimAll(inlineLines(fp, x.src)), " ")
				if _, _, ok := boldTitle(first); !ok {
					// "- [Q2] (P1) `parse` drops …": an item that opens
					// with its own id or severity is a finding as a
					// bold-titled one is; a list mostly of such items
					// ("- See also Q1." beside them) is still one of
					// findings.
					if sev, ref, _, _ := titleMarker(first); sev == "" && ref == "" {
						other++
						continue
					}
				}
				items++
			}
		case *ast.Paragraph:
			ls := trimAll(inlineLines(b, x.src))
			if i > 0 || len(ls) != 1 || !strings.HasSuffix(strings.TrimRight(ls[0], "*_ "), ":") {
				return false
			}
		case *ast.ThematicBreak:
		default:
			return false
		}
	}
	return items >= 2 && other < items
}

// idChildren reports whether s has several sub-headings and every one
// carries an id or number of its own ("S-1", "2.3", "[B2]"). A severity
// word alone does not count: under a topic heading ("### 2. Code
// quality") severity-marked sub-headings are mostly that topic's advice.
func idChildren(s *section) bool {
	// Under a heading that is itself a severity ("### P1 — Must fix"), a
	// sub-heading's severity tag marks a finding as an id does ("#### [P1]
	// Title"); under a topic ("### 2. Code quality") it does not, and the
	// topic stays one finding.
	psev, pref, _, _ := titleMarker(s.title)
	bySeverity := psev != "" && pref == ""
	if len(s.children) < 2 && !bySeverity || len(s.children) == 0 {
		return false
	}
	for _, c := range s.children {
		if sev, ref, title, _ := titleMarker(c.title); ref == "" && !(bySeverity && sev != "" && title != "") {
			return false
		}
	}
	return true
}

// areaChildren reports whether a sub-heading of s announces findings or
// what is right ("### Issues", "### Strengths"): s is then an area of the
// review, not one finding.
func areaChildren(s *section) bool {
	for _, c := range s.children {
		if t := strings.Trim(clean(c.title), " #:*"); len(strings.Fields(t)) <= 3 && labelField(t) != "" {
			// "#### Problem", "#### Location", "#### 修复": a field of
			// the finding above, not a section of the review.
			continue
		}
		if k := classifyHeading(c.title); k.container || k.done {
			return true
		}
	}
	return false
}

// subNumbered reports whether every sub-heading of s (two or more) is
// numbered under s's own number: "2a.", "2b." or "2.1", "2.2" under "2.".
// (A reviewer's sub-letter, "2a.", is no finding id of its own.)
func subNumbered(s *section) bool {
	_, ref, _, _ := titleMarker(s.title)
	if ref == "" || len(s.children) < 2 {
		return false
	}
	for _, c := range s.children {
		t := strings.TrimLeft(c.title, "*_ ")
		if !strings.HasPrefix(t, ref) || len(t) < len(ref)+2 {
			return false
		}
		t = t[len(ref):]
		switch {
		case t[0] >= 'a' && t[0] <= 'z' && strings.ContainsRune(".) ", rune(t[1])):
		case t[0] == '.' && isDigit(t[1]):
		default:
			return false
		}
	}
	return true
}

// children reads the sub-sections of s. Numbers that also number a
// summary or a findings heading number the report's outline ("## 1.
// Summary", "## 2. Issues Found"), not findings; beside an unnumbered
// "## Summary" the numbered headings are the findings, and so is a
// numbered one marked fixed ("## 9. Stale cache ✅ Fixed").
func (x *extractor) children(s *section, sc scope) {
	sc.outline = false
	for _, c := range s.children {
		_, ref, _, _ := titleMarker(c.title)
		if k := classifyHeading(c.title); isDigits(ref) && (k.skip && !k.done || k.fixes || k.container && !numberedLeaf(c, k, sc)) {
			sc.outline = true
		}
	}
	for _, c := range s.children {
		x.section(c, sc)
	}
}

// numberedLeaf reports whether s, whose title names a kind of finding
// ("### 4. Goroutine leak on shutdown"), is a numbered heading with a title, prose
// and no sub-headings or list inside a findings section: one of the
// numbered findings there, not a section of its own. ("#### Finding 7" alone is only the
// number of the fields under it.)
func numberedLeaf(s *section, k headingKind, sc scope) bool {
	if !k.findings || k.severity != "" || !sc.findings || len(s.children) > 0 {
		return false
	}
	for _, b := range s.blocks {
		if _, ok := b.(*ast.List); ok {
			// Items under it may be its findings.
			return false
		}
	}
	_, ref, title, _ := titleMarker(s.title)
	return isDigits(ref) && title != ""
}

// titledParagraphs counts the paragraphs directly under a heading that
// open with a bold title carrying an id or number ("**H2. `Put` races
// with `Close`.** …").
func (x *extractor) titledParagraphs(blocks []ast.Node) int {
	n := 0
	for _, b := range blocks {
		if _, ok := b.(*ast.Paragraph); !ok {
			continue
		}
		if ls := trimAll(inlineLines(b, x.src)); len(ls) > 0 && boldID(ls[0]) {
			n++
		}
	}
	return n
}

// boldID reports whether a line opens with a bold title carrying an id or
// number ("**H2. …", "**3. …").
func boldID(line string) bool {
	if !strings.HasPrefix(line, "**") {
		return false
	}
	_, ref, _, _ := titleMarker(line)
	return ref != ""
}

// headingFinding reads a heading section as one finding. Sub-heading
// titles work as field labels ("### Fix", "### Why it breaks").
func (x *extractor) headingFinding(s *section, ref, title, sev string) {
	c := newCandidate(title, sev)
	c.ref = ref
	x.body(c, s.blocks)
	var sub func(ss []*section)
	sub = func(ss []*section) {
		for _, ch := range ss {
			c.lastSlot = headingField(ch.title)
			x.body(c, ch.blocks)
			sub(ch.children)
		}
	}
	sub(s.children)
	x.emit(c)
}

// body adds blocks to one finding: field lines fill fields, other text
// continues the last field or the prose. Code blocks are evidence the
// finding does not need.
func (x *extractor) body(c *candidate, blocks []ast.Node) {
	for _, b := range blocks {
		x.bodyBlock(c, b)
	}
}

func (x *extractor) bodyBlock(c *candidate, b ast.Node) {
	switch b := b.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		for _, l := range trimAll(inlineLines(b, x.src)) {
			x.bodyLine(c, l)
		}
	case *ast.List:
		for it := b.FirstChild(); it != nil; it = it.NextSibling() {
			for ch := it.FirstChild(); ch != nil; ch = ch.NextSibling() {
				x.bodyBlock(c, ch)
			}
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.Heading, *ast.HTMLBlock, *ast.ThematicBreak:
	default:
		for ch := b.FirstChild(); ch != nil; ch = ch.NextSibling() {
			x.bodyBlock(c, ch)
		}
	}
}

func (x *extractor) bodyLine(c *candidate, l string) {
	if isVerdictLine(l) {
		// The review's verdict after its last finding ends the review,
		// not that finding: kept, it was stored in the lesson.
		return
	}
	f, v, ok := labelLine(l)
	if !ok {
		c.add("", l)
		return
	}
	for _, fv := range inlineFields(f, v) {
		c.add(fv[0], fv[1])
	}
}

// blocks reads the blocks of a section that is not itself a finding.
func (x *extractor) blocks(bs []ast.Node, sc scope) {
	for _, b := range bs {
		x.block(b, sc)
	}
}

func (x *extractor) block(b ast.Node, sc scope) {
	switch b := b.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if rows, rest, ok := tableRows(b, x.src); ok {
			x.flushDraft()
			x.table(rows, sc)
			for _, l := range rest {
				x.paragraph([]string{l}, sc) // a line after the table
			}
			x.lead = nil
			return
		}
		x.paragraph(trimAll(inlineLines(b, x.src)), sc)
	case *ast.List:
		lead := x.lead
		x.lead = nil
		for it := b.FirstChild(); it != nil; it = it.NextSibling() {
			x.item(it, sc, lead)
		}
	case *ast.ThematicBreak:
		if x.draft != nil && x.draft.header {
			x.flushDraft()
		}
	case *ast.HTMLBlock, *ast.FencedCodeBlock, *ast.CodeBlock:
	default:
		for ch := b.FirstChild(); ch != nil; ch = ch.NextSibling() {
			x.block(ch, sc)
		}
	}
}

// paragraph: field lines feed the draft; a lead-in announces the next
// list; a paragraph that opens with a severity marker or a numbered bold
// title is a finding of its own.
func (x *extractor) paragraph(lines []string, sc scope) {
	if len(lines) == 0 {
		// A paragraph of nothing but an empty link or image has no text.
		return
	}
	if c := titleParagraph(lines[0], sc); c != nil {
		// "**Issue 2: Context ignored**" alone on its line: the rest
		// of its paragraph and the paragraphs, lists and fields up to
		// the next title are its body.
		x.flushDraft()
		x.lead = nil
		x.draft = c
		if len(lines) == 1 {
			return
		}
		lines = lines[1:]
	} else if x.draft != nil && boldID(lines[0]) {
		// "**H4. `collapse` loses its id when the title
		// wraps.** …": the next titled finding, not more of this one.
		x.flushDraft()
	}
	if separatorLine(lines[0]) {
		// "=====" on a line of its own: a rule drawn in plain text
		// ends the finding before it; the lines after it start anew.
		x.flushDraft()
		x.paragraph(lines[1:], sc)
		return
	}
	if d := x.draft; d != nil && d.header {
		if _, _, ok := labelLine(lines[0]); !ok {
			// The body of a field block ("File: x" / "Line: 12" over
			// the comment's paragraphs).
			for _, l := range lines {
				x.bodyLine(d, l)
			}
			return
		}
	}
	var plain []string
	fielded := false
	shaped := true
	for _, l := range lines {
		if isVerdictLine(l) {
			continue
		}
		if f, v, ok := labelLine(l); ok {
			for _, fv := range inlineFields(f, v) {
				x.draftField(fv[0], fv[1], sc)
			}
			fielded = true
			continue
		}
		shaped = shaped && fieldShape(l)
		if x.draft != nil && (x.draft.lastSlot != "" || fielded) {
			// Continuation of the open field: the next line of its
			// paragraph, or a paragraph after "**Recommendation:**";
			// after one-line fields ("**File:** x"), the unlabelled
			// lines of their paragraph are the finding's prose.
			x.draft.add("", l)
			continue
		}
		plain = append(plain, l)
	}
	if d := x.draft; fielded && shaped && len(lines) >= 2 && d != nil && d.title == "" && d.fields[fieldProblem] == "" && d.fields[fieldFix] == "" && (d.fields[fieldLocation] != "" || d.fields[fieldSeverity] != "") {
		d.header = true
		if d.lastSlot == "" && len(d.plain) > 0 && len(d.plain) == len(lines)-countLabels(lines) {
			// "Line: 12", "Type: potential_issue": metadata of the
			// comment, not its prose.
			d.fields[fieldIgnored] = strings.Join(d.plain, " ")
			d.plain, d.plainLen = nil, 0
		}
	}
	if len(plain) == 0 {
		return
	}
	body := strings.Join(plain, " ")
	if sev, ok := leadInParagraph(body); ok {
		x.lead = &scope{severity: sev, findings: true}
		if sev == "" {
			x.lead.severity = sc.severity
		}
		return
	}
	if sev, ref, title, marked := titleMarker(body); marked && title != "" {
		if sev == "" {
			sev = sc.severity
		}
		x.emitProse(title, sev, ref)
	}
}

// titleParagraph returns a finding opened by a paragraph that is only a
// bold title with an id or number ("**Issue 2: Context ignored**",
// "**3. Stale cache**"), or nil. Its body follows as prose.
func titleParagraph(body string, sc scope) *candidate {
	bold, tag, ok := boldTitle(body)
	if !ok || strings.Count(body, "**") != 2 || len(tag) > 80 || strings.Contains(tag, ". ") || strings.HasSuffix(tag, ".") {
		// A title alone, or with a place or tag after it ("(`a.go:3`)");
		// a sentence after it makes the paragraph a finding of its own.
		return nil
	}
	sev, ref, title, marked := titleMarker(bold)
	if !marked || ref == "" || title == "" || len(title) > 160 {
		return nil
	}
	lead := ""
	if strings.HasSuffix(tag, ":") && len(strings.Fields(tag)) >= 3 {
		// "**4. Magic numbers.** These belong in config.h:" over a
		// list: the words after the title are a sentence leading into
		// the list, which may say what to do, not a tag of the title.
		lead, tag = tag, ""
	}
	title = joinText(strings.TrimRight(title, ":"), tag)
	if sev == "" {
		sev = sc.severity
	}
	c := newCandidate(title, sev)
	c.ref = ref
	c.lastSlot = fieldProblem
	c.add("", lead)
	return c
}

// emitProse makes a finding of one paragraph of prose.
func (x *extractor) emitProse(body, sev, ref string) {
	x.flushDraft()
	c := newCandidate("", sev)
	c.ref = ref
	c.add("", body)
	x.emit(c)
}

// draftField adds a field line to the open field block. A field that is
// already filled means the next finding started; a problem continues
// unless a fix came after it.
func (x *extractor) draftField(field, value string, sc scope) {
	d := x.draft
	if d != nil {
		if _, filled := d.fields[field]; filled && (field != fieldProblem || d.fields[fieldFix] != "") {
			x.flushDraft()
			d = nil
		}
	}
	if d == nil {
		d = newCandidate("", sc.severity)
		x.draft = d
	}
	d.add(field, value)
}

// item reads one list item of a section that is not a finding itself.
func (x *extractor) item(it ast.Node, sc scope, lead *scope) {
	if c := x.itemFinding(it, sc, lead); c != nil {
		x.emit(c)
	}
}

// itemFinding is the finding a list item makes, or nil when it makes none.
func (x *extractor) itemFinding(it ast.Node, sc scope, lead *scope) *candidate {
	fp := firstBlock(it)
	first := ""
	var lines []string
	if fp != nil {
		lines = trimAll(inlineLines(fp, x.src))
		first = strings.Join(lines, " ")
	}
	if strings.HasPrefix(first, "✅") || strings.HasPrefix(first, "✔") {
		// "- ✅ Inputs validated": a passed check, whatever its section.
		return nil
	}
	var fieldLines []string
	if x.itemHasFields(it) {
		k := 0
		for k < len(lines) {
			if _, _, ok := labelLine(lines[k]); ok {
				break
			}
			k++
		}
		if k == 0 || !(sc.findings || lead != nil) {
			// The item opens a field block ("- **File:** x").
			for ch := it.FirstChild(); ch != nil; ch = ch.NextSibling() {
				x.block(ch, sc)
			}
			return nil
		}
		// "- `a.go`:12 — Cache never expires" over "Fix: …" in one
		// paragraph: the lines before the first field line are the
		// finding's title, the field lines its body.
		first, fieldLines = strings.Join(lines[:k], " "), lines[k:]
	}
	if x.draft != nil && x.draft.lastSlot != "" {
		// Items under "**Recommendation:**" belong to it.
		x.draft.add("", itemText(it, x.src))
		return nil
	}
	sev, ref, title, marked := titleMarker(first)
	announced := sc.findings || lead != nil
	if !marked && !announced {
		return nil
	}
	if sev == "" && lead != nil {
		sev = lead.severity
	}
	if sev == "" {
		sev = sc.severity
	}
	if bt, rest, ok := boldTitle(first); ok {
		// "**Cache ignores TTL (blocking):** body" (issue 14's bold-label
		// bullets): the bold part is the title, whatever verb it starts
		// with, so the body's own fix sentence stays the fix and the title
		// is never read as one.
		if _, _, t, _ := titleMarker(bt); t != "" {
			bt = t
		}
		c := newCandidate(bt, sev)
		c.ref = ref
		c.add("", rest)
		x.itemLines(c, fieldLines)
		x.itemBody(c, it, fp)
		return c
	}
	c := newCandidate("", sev)
	c.ref = ref
	c.add("", title)
	if title == "" {
		c.add("", first)
	}
	x.itemLines(c, fieldLines)
	x.itemBody(c, it, fp)
	return c
}

// itemLines adds the field lines of an item's first paragraph to c.
func (x *extractor) itemLines(c *candidate, lines []string) {
	for _, l := range lines {
		x.bodyLine(c, l)
	}
}

// itemBody adds an item's blocks after its first paragraph to c.
func (x *extractor) itemBody(c *candidate, it, fp ast.Node) {
	for ch := it.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if ch == fp {
			continue
		}
		x.bodyBlock(c, ch)
	}
}

// boldTitle splits "**Title:** rest" or "**Title.** rest".
func boldTitle(t string) (title, rest string, ok bool) {
	if !strings.HasPrefix(t, "**") {
		return "", "", false
	}
	end := strings.Index(t[2:], "**")
	if end <= 0 || end > 160 {
		return "", "", false
	}
	// The separator stays with the title so the problem reads as written.
	title = strings.TrimSpace(t[2 : 2+end])
	rest = strings.TrimSpace(t[2+end+2:])
	for _, sep := range []string{":", "—", "–", "-", "."} {
		if strings.HasPrefix(rest, sep) {
			if sep == ":" || sep == "." {
				title += sep // "**Title**: body" reads "Title: body"
			} else {
				title += " " + sep
			}
			rest = strings.TrimSpace(rest[len(sep):])
			break
		}
	}
	return title, rest, strings.Trim(title, ":.—–- ") != ""
}

// itemHasFields: an item whose first paragraph has field lines feeds the
// field block instead of being a finding of its own.
func (x *extractor) itemHasFields(it ast.Node) bool {
	fp := firstBlock(it)
	if fp == nil {
		return false
	}
	for _, l := range trimAll(inlineLines(fp, x.src)) {
		if _, _, ok := labelLine(l); ok {
			return true
		}
	}
	return false
}

func firstBlock(it ast.Node) ast.Node {
	for c := it.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			return c
		}
	}
	return nil
}

func (x *extractor) table(rows [][]string, sc scope) {
	var cols []string
	for _, c := range rows[0] {
		cols = append(cols, tableColumn(c))
	}
	if !slices.Contains(cols, fieldProblem) {
		return
	}
	for _, cells := range rows[1:] {
		c := newCandidate("", sc.severity)
		for i, v := range cells {
			if i < len(cols) && cols[i] != fieldIgnored && v != "" {
				c.add(cols[i], v)
			}
		}
		c.lastSlot = ""
		x.emit(c)
	}
}

// fallback reads the substantial top-level list items of sections that are
// not skipped, for a change-requesting review whose findings have no
// recognisable shape.
func (x *extractor) fallback(s *section) {
	k := classifyHeading(s.title)
	if s.level > 0 && k.skip {
		return
	}
	for _, b := range s.blocks {
		l, ok := b.(*ast.List)
		if !ok {
			continue
		}
		sev := k.severity
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			t := itemText(it, x.src)
			if rest, done, ok := taskMarker(t); ok {
				if done {
					continue
				}
				t = rest
			}
			if len(t) >= 40 && !isVerdictLine(t) {
				c := newCandidate("", sev)
				c.add("", t)
				x.emit(c)
			}
		}
	}
	for _, c := range s.children {
		x.fallback(c)
	}
}

// linkFixes attaches each item of a recommendations section to the finding
// it names (SPEC §4): by the finding's number or id, by a file both name,
// or by words of the finding's title.
func (x *extractor) linkFixes() {
	if len(x.out) == 0 {
		return
	}
	for _, s := range x.fixSecs {
		for _, item := range x.fixItems(s) {
			if c := x.target(item); c != nil {
				c.linked = append(c.linked, item)
			}
		}
	}
}

// namesFindings reports whether most items of a section name a finding
// read before it: a list of fixes for those findings ("## Top fixes" after
// the findings), not findings written as fixes ("## Fixes needed" with
// its own problems).
func (x *extractor) namesFindings(s *section) bool {
	items := x.fixItems(s)
	n := 0
	for _, it := range items {
		if x.target(it) != nil {
			n++
		}
	}
	return len(items) > 0 && 2*n > len(items)
}

// namesIDs reports whether most list items of a section, two or more,
// name findings read before it by their ids ("… (**C2**)"): a plan of
// fixes for them in whatever language its heading is written.
func (x *extractor) namesIDs(s *section) bool {
	n, items := 0, 0
	for _, b := range s.blocks {
		l, ok := b.(*ast.List)
		if !ok {
			continue
		}
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			items++
			if x.idTarget(itemText(it, x.src)) != nil {
				n++
			}
		}
	}
	return items >= 2 && 2*n > items
}

// idTarget is the first finding read so far whose id, holding a letter
// ("C2", "SEC-4"), stands as a word of the item.
func (x *extractor) idTarget(item string) *candidate {
	words := strings.FieldsFunc(item, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.')
	})
	for _, w := range words {
		if c := x.byID[strings.TrimRight(w, ".")]; c != nil {
			return c
		}
	}
	return nil
}

// fixItems are a recommendations section's list items and paragraphs,
// each as one line of text.
func (x *extractor) fixItems(s *section) []string {
	var out []string
	for _, b := range s.blocks {
		switch b := b.(type) {
		case *ast.List:
			for it := b.FirstChild(); it != nil; it = it.NextSibling() {
				out = append(out, itemText(it, x.src))
			}
		case *ast.Paragraph, *ast.TextBlock:
			// A table of fixes ("| # | Fix | File |") holds one per row.
			if rows, _, ok := tableRows(b, x.src); ok {
				for _, r := range rows[1:] {
					out = append(out, strings.Join(r, " "))
				}
				continue
			}
			out = append(out, strings.Join(trimAll(inlineLines(b, x.src)), " "))
		}
	}
	return out
}

// target finds the finding a recommendation names, or nil: "evict on
// revocation (C1)" names finding C1 whatever words it uses.
func (x *extractor) target(item string) *candidate {
	if c := x.idTarget(item); c != nil {
		return c
	}
	if loc := guessLocation(item); loc != "" {
		path := strings.SplitN(strings.Trim(loc, "`"), ":", 2)[0]
		for _, c := range x.out {
			if strings.Contains(c.title+" "+c.fields[fieldLocation]+" "+strings.Join(c.plain, " "), path) {
				return c
			}
		}
	}
	words := titleWords(item)
	var best *candidate
	bestN := 0
	for _, c := range x.out {
		n := 0
		head := c.title
		if head == "" && len(c.plain) > 0 {
			// A plain item or paragraph: its first sentence is its
			// title ("1. Stale sessions survive logout. The map …").
			head = sentences(c.plain[0])[0]
		}
		tw := titleWords(head + " " + c.fields[fieldProblem])
		for w := range words {
			if tw[w] {
				n++
			}
		}
		if n > bestN {
			best, bestN = c, n
		}
	}
	if bestN >= 2 {
		return best
	}
	return nil
}

// titleWords are the longer words of a text, lower-cased: enough to tell
// which finding a recommendation's title refers to.
func titleWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if len(w) >= 4 {
			out[w] = true
		}
	}
	return out
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// inlineLines renders a block's inline content to text lines: soft and hard
// breaks end a line, strong emphasis keeps its ** markers (labels are
// recognised by them), links keep their text, code spans keep backticks.
func inlineLines(n ast.Node, src []byte) []string {
	var b strings.Builder
	renderInline(&b, n, src)
	return strings.Split(b.String(), "\n")
}

func renderInline(b *strings.Builder, parent ast.Node, src []byte) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.CodeSpan:
			b.WriteByte('`')
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				switch c := c.(type) {
				case *ast.Text:
					b.Write(c.Segment.Value(src))
				case *ast.String:
					b.Write(c.Value)
				}
			}
			b.WriteByte('`')
		case *ast.Emphasis:
			if n.Level >= 2 {
				b.WriteString("**")
				renderInline(b, n, src)
				b.WriteString("**")
			} else {
				renderInline(b, n, src)
			}
		case *ast.AutoLink:
			b.Write(n.Label(src))
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				s := n.Segments.At(i)
				b.Write(s.Value(src))
			}
		default:
			renderInline(b, n, src)
		}
	}
}

// itemText is a list item's whole text on one line, nested lists included.
// taskMarker reads a task-list item's box: "[ ] Do X" is still to do,
// "[x] Did X" is done.
func taskMarker(s string) (rest string, done, ok bool) {
	if len(s) < 4 || s[0] != '[' || s[2] != ']' || s[3] != ' ' {
		return s, false, false
	}
	switch s[1] {
	case ' ':
		return strings.TrimSpace(s[4:]), false, true
	case 'x', 'X':
		return strings.TrimSpace(s[4:]), true, true
	}
	return s, false, false
}

func itemText(li ast.Node, src []byte) string {
	var parts []string
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
			parts = append(parts, strings.Join(trimAll(inlineLines(c, src)), " "))
		case *ast.List:
			for it := c.FirstChild(); it != nil; it = it.NextSibling() {
				parts = append(parts, itemText(it, src))
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		default:
			parts = append(parts, itemText(c, src))
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

func trimAll(lines []string) []string {
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// isVerdictLine reports whether line states the review's verdict, as a
// verdict line or a <verdict> tag.
func isVerdictLine(line string) bool {
	v, _, _ := lineVerdict(plainLine(line))
	return v != None || strings.Contains(line, "<") && verdictTag().MatchString(line)
}

// fieldShape reports whether a line has the shape of a field, whatever
// its words: a short label of letters and a colon, then its value
// ("Line: 12", "Type: potential_issue", "Datei: x").
func fieldShape(l string) bool {
	l = strings.TrimLeft(l, "*_ ")
	i := strings.IndexByte(l, ':')
	if i <= 0 || i > 32 || strings.HasPrefix(l[i:], "://") {
		return false
	}
	label := strings.TrimRight(l[:i], "*_ ")
	if label == "" || len(strings.Fields(label)) > 3 {
		return false
	}
	for _, r := range label {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '_' {
			return false
		}
	}
	return true
}

// separatorLine reports whether a line is a rule drawn in plain text: a
// run of one punctuation character ("=====", "-----", "*****").
func separatorLine(l string) bool {
	l = strings.TrimSpace(l)
	if len(l) < 5 {
		return false
	}
	for i := 1; i < len(l); i++ {
		if l[i] != l[0] {
			return false
		}
	}
	return l[0] == '=' || l[0] == '-' || l[0] == '*' || l[0] == '_' || l[0] == '~'
}

// countLabels counts the field lines among lines.
func countLabels(lines []string) int {
	n := 0
	for _, l := range lines {
		if _, _, ok := labelLine(l); ok {
			n++
		}
	}
	return n
}
