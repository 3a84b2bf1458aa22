package review

import (
	"strings"

	"github.com/yuin/goldmark"
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

// mdParser is built once: constructing goldmark's parser and its block and
// inline parser tables costs more than parsing a typical review, and the
// hook runs on the agent's hot path. A goldmark parser keeps no per-document
// state, so sharing it between goroutines is safe.
//
// Tables are read from paragraphs (tableRows) rather than with goldmark's
// table extension: that package compiles its linkify expressions when the
// program starts, a cost the hook would pay on every tool call.
var mdParser parser.Parser = goldmark.New().Parser()

// Extract splits a review text into findings. It understands the shapes real
// reviewers write: bold-label blocks (`**Severity**: Major` /
// `**Location:**` / `**Problem**` / `**Suggestion**`, label inside or
// outside the bold, in paragraphs or list items, one label per item or all in
// one), plain `- Severity: Critical` labels under `### Finding N`, bullets and
// numbered items under severity headings or lead-ins ("**Critical
// issues:**"), items that open with a severity marker (`**[P1]**`,
// `**Blocking — title.**`), `## FINDING 1 — BLOCKER — title` sections,
// `**Issue**/**Fix**` pairs, finding tables, and a `<findings>[…]</findings>`
// JSON block, which wins when present because it is the reviewer's own
// machine-readable form.
func Extract(text string) []Finding {
	if len(text) > MaxReviewLen {
		// The hook runs on the agent's hot path; a review longer than this
		// is a log dump, and its first megabyte holds the findings.
		text = text[:MaxReviewLen]
	}
	if fs := extractJSON(text); len(fs) > 0 {
		return fs
	}
	src := []byte(text)
	doc := mdParser.Parse(textReader(src))
	x := &extractor{src: src}
	x.blocks(doc)
	x.flush()
	x.flushTitled()
	if len(x.out) == 0 && ParseVerdict(text).Actionable() {
		// A change-requesting review with none of the known shapes: its
		// top-level list items are the best guess at its findings.
		x.fallback = true
		x.sec = section{}
		x.blocks(doc)
		x.flush()
	}
	return dedupe(x.out)
}

func textReader(src []byte) text.Reader { return text.NewReader(src) }

// section is what the nearest heading says about the blocks under it.
type section struct {
	level    int
	severity string // from "### Major" or "## Blocking findings"
	findings bool   // the heading announces findings
	skip     bool   // summary, positives, evidence, notes: never findings
}

// leadIn is a paragraph like "**Critical issues:**" that announces the list
// after it, or a kind title like "**⚠️ Potential issue**" that heads the
// one comment paragraph after it.
type leadIn struct {
	severity string
	title    bool
}

// draft accumulates labelled fields until a label repeats or the block
// structure ends the finding.
type draft struct {
	sev, loc, problem, fix, evidence string
	problemLabel                     string
	last                             *string
}

func (d *draft) empty() bool {
	return d.problem == "" && d.fix == "" && d.loc == "" && d.evidence == ""
}

// titled is a finding opened by a heading ("## FINDING 2 — BLOCKER — …");
// the blocks under it are its body.
type titled struct {
	level      int
	sev, title string
	body       []string
	labelled   bool // labels inside the section filled a draft instead
}

type extractor struct {
	src      []byte
	out      []Finding
	cur      *draft
	sec      section
	lead     *leadIn
	tit      *titled
	fallback bool
}

func (x *extractor) blocks(parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		x.block(n)
	}
}

func (x *extractor) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		x.flush()
		x.heading(n)
	case *ast.Paragraph, *ast.TextBlock:
		if rows, rest, ok := tableRows(n, x.src); ok {
			x.flush()
			x.table(rows)
			x.lead = nil
			if len(rest) > 0 {
				x.paragraph(rest, false)
			}
			return
		}
		x.paragraph(inlineLines(n, x.src), false)
	case *ast.List:
		x.list(n)
		x.lead = nil
	case *ast.ThematicBreak:
		x.flush()
		x.lead = nil
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		// Quoted code, logs and raw HTML are evidence at most, and the
		// verdict tag lives here; none of it starts a finding.
	default:
		x.blocks(n)
	}
}

func (x *extractor) heading(h *ast.Heading) {
	lines := inlineLines(h, x.src)
	t := strings.TrimSpace(strings.Join(lines, " "))
	if x.tit != nil && h.Level > x.tit.level && !x.fallback {
		// "### Evidence" under "## FINDING 2 — …" is part of the finding.
		// Written as a label so "### Fix" introduces the fix.
		x.tit.body = append(x.tit.body, strings.TrimRight(t, ":")+":")
		return
	}
	x.flushTitled()
	x.lead = nil
	if x.sec.level > 0 && h.Level > x.sec.level && !x.sec.skip {
		// A sub-heading inherits its parent's severity ("## Major" →
		// "### auth.go").
		sub := classifyHeading(t, h.Level)
		if sub.severity == "" {
			sub.severity = x.sec.severity
		}
		sub.findings = sub.findings || x.sec.findings
		x.sec = sub
	} else {
		x.sec = classifyHeading(t, h.Level)
	}
	if x.fallback {
		return
	}
	if sev, title, ok := titledHeading(t); ok {
		x.tit = &titled{level: h.Level, sev: sev, title: title}
		x.sec.findings = true
	}
}

func (x *extractor) paragraph(lines []string, inItem bool) {
	if x.fallback {
		return
	}
	opened := false // a label in this paragraph owns continuation lines
	var plain []string
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if isVerdictLine(line) {
			opened = false
			continue
		}
		if i := glued(line); i > 0 {
			// "…the contract gaps.- **Severity**: Major": cursor glues the
			// first label onto its narrative. The narrative is dropped.
			line = line[i:]
		}
		if field, value, ok := labelLine(line); ok {
			x.label(field, value)
			opened = x.cur != nil && x.cur.last != nil
			continue
		}
		if opened && x.cur != nil && x.cur.last != nil {
			*x.cur.last = joinText(*x.cur.last, line)
			continue
		}
		plain = append(plain, line)
	}
	if len(plain) == 0 {
		return
	}
	body := strings.Join(plain, " ")
	if x.tit != nil {
		x.tit.body = append(x.tit.body, body)
		return
	}
	if !inItem {
		if sev, ok := leadInParagraph(body); ok {
			x.lead = &leadIn{severity: sev, title: kindTitle(body)}
			return
		}
		lead := x.lead
		x.lead = nil
		if lead != nil && !lead.title {
			// "Issues found:" still announces the list after a sentence
			// such as "None of these block the merge, but:".
			x.lead = lead
		}
		if x.sec.skip {
			return
		}
		if sev, rest, ok := numberedTitle(body); ok {
			x.flush()
			x.prose(rest, sev)
			return
		}
		if lead != nil && lead.title && x.cur == nil {
			// "**⚠️ Potential issue**" then the comment's paragraph.
			x.prose(body, lead.severity)
			return
		}
		if sev, _ := severityMarker(body); sev != "" {
			// A paragraph that opens with "**[P1]** …" or "**Blocking —
			// …**" is a finding even outside a list.
			x.flush()
			x.prose(body, sev)
		}
	}
}

func (x *extractor) list(l *ast.List) {
	lead := x.lead
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		item, ok := it.(*ast.ListItem)
		if !ok {
			continue
		}
		x.item(item, lead)
	}
}

func (x *extractor) item(li *ast.ListItem, lead *leadIn) {
	if x.fallback {
		if x.sec.skip || li.Parent().Parent().Kind() != ast.KindDocument {
			return
		}
		if t := itemText(li, x.src); len(t) >= 40 && !isVerdictLine(t) {
			x.prose(t, x.sec.severity)
		}
		return
	}
	if x.tit != nil {
		// Lists inside a titled finding section are its evidence.
		x.tit.body = append(x.tit.body, itemText(li, x.src))
		return
	}
	if itemHasLabels(li, x.src) {
		for c := li.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Paragraph, *ast.TextBlock:
				x.paragraph(inlineLines(c, x.src), true)
			default:
				x.block(c)
			}
		}
		return
	}
	if x.sec.skip {
		return
	}
	// The opening paragraph decides; the whole item text (nested lists
	// included) is only built for a finding, which keeps deeply nested
	// lists linear.
	t := firstParagraph(li, x.src)
	if isVerdictLine(t) {
		return
	}
	sev, _ := severityMarker(t)
	_, _, titled := numberedTitle(t)
	switch {
	case sev != "":
	case lead != nil:
		sev = lead.severity
	case x.sec.findings:
		sev = x.sec.severity
	case titled:
	default:
		// Not announced as findings: maybe a nested list is.
		for c := li.FirstChild(); c != nil; c = c.NextSibling() {
			if l, ok := c.(*ast.List); ok {
				x.list(l)
			}
		}
		return
	}
	x.flush()
	full := itemText(li, x.src)
	if s, rest, ok := numberedTitle(full); ok {
		full = rest
		if s != "" {
			sev = s
		}
	}
	if full != "" {
		x.prose(full, sev)
	}
}

// firstParagraph is the text of an item's first paragraph, or "".
func firstParagraph(li ast.Node, src []byte) string {
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			return strings.Join(trimAll(inlineLines(c, src)), " ")
		}
	}
	return ""
}

// prose turns an unlabelled paragraph or item into a finding: an explicit
// "Fix:" splits it, otherwise the prescriptive sentences ("Use …", "… must
// …") are the fix and the rest is the problem.
func (x *extractor) prose(t, sev string) {
	_, rest := severityMarker(t)
	if rest == "" {
		rest = t
	}
	problem, fix := splitFix(rest)
	f := Finding{
		Severity: sev,
		Location: cleanLocation(guessLocation(t)),
		Problem:  clean(problem),
		Fix:      clean(fix),
	}
	if f.Problem != "" {
		x.out = append(x.out, f)
	}
}

func (x *extractor) label(field, value string) {
	if field == fieldIgnored {
		if x.cur != nil {
			x.cur.last = nil
		}
		return
	}
	if x.tit != nil {
		x.tit.labelled = true
	}
	if x.cur == nil {
		x.cur = &draft{}
	}
	d := x.cur
	var slot *string
	switch field {
	case fieldSeverity:
		slot = &d.sev
	case fieldLocation:
		slot = &d.loc
	case fieldFix:
		slot = &d.fix
	case fieldEvidence:
		slot = &d.evidence
	default:
		slot = &d.problem
	}
	if field == fieldSeverity && d.problem != "" && (d.fix != "" || d.loc != "") {
		// A severity after a complete finding opens the next one, even
		// when the previous finding never stated its own severity.
		x.flush()
		x.label(field, value)
		return
	}
	if *slot != "" {
		// "Title" then "Description" both describe the problem; any other
		// repeated field means the next finding has started.
		if strings.HasPrefix(field, "problem") && field != d.problemLabel {
			*slot = joinText(*slot, "— "+value)
			d.last = slot
			return
		}
		x.flush()
		x.label(field, value)
		return
	}
	if strings.HasPrefix(field, "problem") {
		d.problemLabel = field
	}
	*slot = value
	d.last = slot
}

func (x *extractor) flush() {
	d := x.cur
	x.cur = nil
	if d == nil || d.empty() {
		return
	}
	f := Finding{
		Severity: normalizeSeverity(d.sev),
		Location: cleanLocation(d.loc),
		Problem:  clean(d.problem),
		Fix:      clean(d.fix),
		Evidence: clean(d.evidence),
	}
	if f.Severity == "" && x.tit != nil {
		f.Severity = x.tit.sev
	}
	if f.Severity == "" {
		f.Severity = x.sec.severity
	}
	if f.Problem == "" && x.tit != nil {
		f.Problem = clean(x.tit.title)
	}
	if f.Problem == "" {
		return
	}
	x.out = append(x.out, f)
}

// flushTitled closes a "## FINDING n — SEV — title" section: the title is
// the problem, prescriptive sentences of the body are the fix and the first
// body paragraph is the evidence.
func (x *extractor) flushTitled() {
	t := x.tit
	x.tit = nil
	if t == nil {
		return
	}
	x.flush()
	if t.labelled {
		return
	}
	body := strings.Join(t.body, " ")
	_, fix := splitFix(body)
	f := Finding{
		Severity: t.sev,
		Location: cleanLocation(guessLocation(body)),
		Problem:  clean(t.title),
		Fix:      clean(fix),
	}
	for _, b := range t.body {
		if !strings.HasSuffix(b, ":") {
			f.Evidence = clean(b)
			break
		}
	}
	if f.Problem != "" {
		x.out = append(x.out, f)
	}
}

// tableRows reads a GFM table (header row, delimiter row, body rows) from a
// paragraph's source lines, each cell rendered like other inline text. Lines
// after the table's last row that hold no "|" come back as rest.
func tableRows(n ast.Node, src []byte) (rows [][]string, rest []string, ok bool) {
	lines := n.Lines()
	if lines.Len() < 2 {
		return nil, nil, false
	}
	raw := make([]string, lines.Len())
	for i := range raw {
		seg := lines.At(i)
		raw[i] = strings.TrimSpace(string(seg.Value(src)))
	}
	if !strings.Contains(raw[0], "|") || !isDelimiterRow(raw[1]) {
		return nil, nil, false
	}
	header := splitRow(raw[0])
	if len(header) != len(splitRow(raw[1])) {
		return nil, nil, false
	}
	rows = append(rows, header)
	i := 2
	for ; i < len(raw) && strings.Contains(raw[i], "|"); i++ {
		rows = append(rows, splitRow(raw[i]))
	}
	for ; i < len(raw); i++ {
		rest = append(rest, raw[i])
	}
	for _, r := range rows {
		for j, c := range r {
			r[j] = renderCell(c)
		}
	}
	return rows, rest, true
}

// isDelimiterRow matches a table's "| --- | :-: |" line.
func isDelimiterRow(l string) bool {
	cells := splitRow(l)
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSpace(c)
		c = strings.TrimPrefix(c, ":")
		c = strings.TrimSuffix(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// splitRow splits a table line into cells on "|" that are not escaped.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	if strings.HasSuffix(l, "|") && !strings.HasSuffix(l, `\|`) {
		l = l[:len(l)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			b.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(l[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// renderCell turns a cell's markdown into text the way paragraphs are read.
func renderCell(c string) string {
	if c == "" {
		return ""
	}
	src := []byte(c)
	doc := mdParser.Parse(text.NewReader(src))
	if p := doc.FirstChild(); p != nil {
		return strings.TrimSpace(strings.Join(inlineLines(p, src), " "))
	}
	return c
}

func (x *extractor) table(rows [][]string) {
	var cols []string
	for ri, cells := range rows {
		if ri == 0 {
			for _, c := range cells {
				cols = append(cols, tableColumn(c))
			}
			continue
		}
		if !containsString(cols, fieldProblem) || x.sec.skip {
			return
		}
		var f Finding
		for i, c := range cells {
			if i >= len(cols) {
				break
			}
			switch cols[i] {
			case fieldSeverity:
				f.Severity = normalizeSeverity(c)
			case fieldLocation:
				f.Location = cleanLocation(c)
			case fieldProblem:
				f.Problem = joinText(f.Problem, c)
			case fieldFix:
				f.Fix = c
			case fieldEvidence:
				f.Evidence = c
			}
		}
		f.Problem, f.Fix, f.Evidence = clean(f.Problem), clean(f.Fix), clean(f.Evidence)
		if f.Severity == "" {
			f.Severity = x.sec.severity
		}
		if f.Fix == "" {
			p, fix := splitFix(f.Problem)
			if fix != "" {
				f.Problem, f.Fix = clean(p), clean(fix)
			}
		}
		if f.Location == "" {
			f.Location = cleanLocation(guessLocation(f.Problem))
		}
		if f.Problem != "" {
			x.out = append(x.out, f)
		}
	}
}

func tableColumn(h string) string {
	h = strings.ToLower(strings.TrimSpace(strings.Trim(h, "*` ")))
	switch h {
	case "sev", "severity", "priority", "level", "prio":
		return fieldSeverity
	case "location", "file", "file:line", "where", "path", "line", "lines", "section":
		return fieldLocation
	case "finding", "issue", "problem", "description", "title", "bug", "concern", "what", "comment", "observation":
		return fieldProblem
	case "fix", "suggestion", "recommendation", "remediation", "resolution", "action", "suggested fix", "solution",
		"how to fix", "proposed fix", "recommended fix", "fix / suggestion", "fix/suggestion", "how":
		return fieldFix
	case "evidence", "why", "rationale", "details", "impact":
		return fieldEvidence
	}
	return fieldIgnored
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
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

func dedupe(fs []Finding) []Finding {
	seen := make(map[string]bool, len(fs))
	out := fs[:0]
	for _, f := range fs {
		k := strings.ToLower(f.Problem) + "\x00" + strings.ToLower(f.Location)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
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

// itemHasLabels reports whether any paragraph directly in the item has a
// labelled line, in which case the item feeds the label machine rather than
// being a finding of its own.
func itemHasLabels(li ast.Node, src []byte) bool {
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			for _, l := range inlineLines(c, src) {
				if _, _, ok := labelLine(strings.TrimSpace(l)); ok {
					return true
				}
			}
		}
	}
	return false
}

func isVerdictLine(line string) bool {
	p := plainLine(line)
	if v, _ := lineVerdict(p); v != None {
		return true
	}
	return isVerdictTitle(p) || verdictTag().MatchString(line)
}

// glued returns where a bold Severity label starts inside a line of other
// text, or -1.
func glued(line string) int {
	i := strings.Index(line, "**Severity")
	if i <= 0 {
		return -1
	}
	if _, _, ok := labelLine(line[i:]); !ok {
		return -1
	}
	return i
}
