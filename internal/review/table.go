package review

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

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
	doc := mdParser().Parse(text.NewReader(src))
	if p := doc.FirstChild(); p != nil {
		return strings.TrimSpace(strings.Join(inlineLines(p, src), " "))
	}
	return c
}

// tableColumn is the field a column's header names, as a field label
// would.
func tableColumn(h string) string {
	l := strings.Trim(h, "*` ")
	if f := labelField(l); f != "" {
		return f
	}
	if strings.HasPrefix(strings.ToLower(l), "risk") {
		// "| Problem | Risk | Remedy |": what the problem costs, its
		// evidence. (Outside a table "Risk:" opens too many summary
		// lines to be a field.)
		return fieldEvidence
	}
	return fieldIgnored
}

// boxTables rewrites tables drawn with box-drawing characters — what a
// terminal shows for a markdown table, and what gets pasted from it — as
// GFM tables, so they are read like any other table. A row wrapped over
// several lines (first cell empty on the later lines) is joined back into
// one. Tree diagrams ("│   ├── x.go") have no top border and are left as
// they are.
func boxTables(s string) string {
	if !strings.ContainsAny(s, "┌┏╔╭") {
		return s
	}
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	var rows [][]string
	var cur []string
	in := false
	flush := func() {
		if cur != nil {
			rows = append(rows, cur)
			cur = nil
		}
	}
	emit := func() {
		flush()
		if len(rows) > 0 {
			out = append(out, "")
			for i, r := range rows {
				out = append(out, "| "+strings.Join(r, " | ")+" |")
				if i == 0 {
					out = append(out, strings.Repeat("|---", len(r))+"|")
				}
			}
			out = append(out, "")
		}
		rows, in = nil, false
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		first, _ := utf8.DecodeRuneInString(t)
		switch {
		case !in && strings.ContainsRune("┌┏╔╭", first) && boxRule(t):
			in = true
			continue
		case !in:
			out = append(out, l)
		case strings.ContainsRune("│┃║", first):
			t = strings.NewReplacer("┃", "│", "║", "│").Replace(t)
			cells := strings.Split(strings.TrimSuffix(t[len("│"):], "│"), "│")
			for i := range cells {
				cells[i] = strings.ReplaceAll(strings.TrimSpace(cells[i]), "|", `\|`)
			}
			if cur != nil && len(cells) == len(cur) && cells[0] == "" {
				for i, c := range cells {
					cur[i] = strings.TrimSpace(cur[i] + " " + c)
				}
				continue
			}
			if cur != nil && len(rows) > 0 {
				flush()
			}
			if cur == nil {
				cur = cells
			} else {
				// More header lines before the header's rule.
				for i := 0; i < len(cells) && i < len(cur); i++ {
					cur[i] = strings.TrimSpace(cur[i] + " " + cells[i])
				}
			}
		case strings.ContainsRune("├┣╠╞╟", first) && boxRule(t):
			flush()
		case strings.ContainsRune("└┗╚╰", first) && boxRule(t):
			emit()
		default:
			emit()
			out = append(out, l)
		}
	}
	if in {
		emit()
	}
	return strings.Join(out, "\n")
}

// boxRule reports whether a line is a table's border: box-drawing
// characters only.
func boxRule(t string) bool {
	for _, r := range t {
		if r < 0x2500 || r > 0x257f {
			return false
		}
	}
	return true
}
