package review

import "strings"

// threadComments reads a pull request's review comments as copied from
// the forge's web page (GitHub's "Files changed" or conversation view, as
// Copilot, Gemini Code Assist and CodeRabbit leave them): plain lines, no
// markdown, one comment per "Comment on lines +N to +M" marker. The line
// above the marker names the file; the diff hunk under it is quoted code;
// the comment itself is the paragraph after the line saying when it was
// written ("3 hours ago", "<bot> commented 2 days ago"), after a
// bare severity line if the bot writes one ("high"). A marker whose block
// holds no such line is a hunk without a comment. nil when the text holds
// no marker: then it is not such a page.
func threadComments(text string) []Finding {
	if !strings.Contains(text, "Comment on line") {
		return nil
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var marks []int
	for i, l := range lines {
		if commentMarker(l) {
			marks = append(marks, i)
		}
	}
	var out []Finding
	for k, m := range marks {
		end := len(lines)
		if k+1 < len(marks) {
			// The next marker's file line, which two markers in a row
			// (a comment whose file line was not copied) lack.
			end = max(marks[k+1]-1, m+1)
		}
		f, ok := threadComment(lines[m+1 : end])
		if !ok {
			continue
		}
		if m > 0 {
			if file := strings.TrimSpace(lines[m-1]); file != "" && !strings.ContainsAny(file, " \t") {
				f.Location = file
				if n := firstNumber(lines[m]); n != "" {
					f.Location += ":" + n
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// threadComment is the comment of one marker's block: the paragraph after
// its last time line, with the severity a bare word line before it gives.
func threadComment(block []string) (Finding, bool) {
	at := -1
	for i, l := range block {
		if timeLine(l) {
			at = i
		}
	}
	if at < 0 {
		return Finding{}, false
	}
	var f Finding
	var para []string
	for _, l := range block[at+1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "" && len(para) > 0:
			return f.comment(para), true
		case t == "":
		case len(para) == 0 && f.Severity == "" && !strings.Contains(t, " ") && normalizeSeverity(t) != "":
			f.Severity = normalizeSeverity(t)
		default:
			para = append(para, t)
		}
	}
	if len(para) == 0 {
		return Finding{}, false
	}
	return f.comment(para), true
}

// comment fills f's problem and fix from a comment's lines: the fix is
// its prescriptive sentences; when every sentence reads as one (a
// sentence opening with "Close …" or "Check …" may be either), the whole
// comment is the problem as well.
func (f Finding) comment(para []string) Finding {
	t := strings.Join(para, " ")
	f.Problem, f.Fix = splitFix(t)
	if f.Problem == "" {
		f.Problem = t
	}
	return f
}

// commentMarker reports whether l is a forge's "Comment on line(s) …"
// line over a quoted diff hunk.
func commentMarker(l string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(l), "Comment on line")
	return ok && len(rest) < 40 && firstNumber(rest) != ""
}

// timeLine reports whether l says when a comment was written: a few words
// ending in "ago", a count or "a"/"an" before the unit ("3 hours ago",
// "<bot> commented 2 days ago", "an hour ago").
func timeLine(l string) bool {
	w := strings.Fields(l)
	if len(w) < 3 || len(w) > 6 || w[len(w)-1] != "ago" {
		return false
	}
	n := w[len(w)-3]
	return n == "a" || n == "an" || firstNumber(n) == n
}

// firstNumber is the first run of ASCII digits in s, "" if none (a line
// number or a count as the forge prints them).
func firstNumber(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return ""
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return s[i:j]
}
