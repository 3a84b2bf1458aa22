package review

import (
	"strings"

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
	doc := mdParser.Parse(text.NewReader(src))
	if p := doc.FirstChild(); p != nil {
		return strings.TrimSpace(strings.Join(inlineLines(p, src), " "))
	}
	return c
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
