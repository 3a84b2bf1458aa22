package mdstore

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gmtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// FuzzParse: no input panics the parser, entries are found in file order,
// and any entry, once normalized, survives render → parse unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(flowNextPitfalls))
	f.Add([]byte(Header(Pitfall) + "\n## 2026-01-01 fn-1 impl-review [api]\n<!-- flowmem: id=p-1 seen=2 last=2026-01-02 tasks=fn-1 status=active -->\n**Issue**: x\n"))
	f.Add([]byte("---\nflowmem: 1\n---\n## 2026-01-01 x\n```\n## 2026-01-02 y\n"))
	// An id or fingerprint that cleaning empties (issue 18): the entry
	// gets its content id, and keeps it through render and parse.
	f.Add([]byte("## 2026-01-01 x\n<!-- flowmem: id=! fp=? -->\n**Issue**: x\n"))
	f.Add([]byte("## 2026-01-01 x [y] <!-- p-1 -->\n<!-- flowmem: id=p-2 -->\n**Fix**: a <!-- p-1 --> <!-- p-1 -->\n"))
	// Torn appends' marks: one cutting a line of an entry, one its heading.
	f.Add([]byte("## 2026-01-01 x [y] <!-- p-1 -->\n<!-- flowmem: id=p-1 -->\n**Issue**: a\n\n<!-- flowmem: seen id=p-1 la\n<!-- flowmem: seen id=torn lines=1 -->\n\n" +
		"## 2026-01-02 y <!-- p-2 -->\n<!-- flowmem: id=p-2 se\n<!-- flowmem: seen id=torn lines=2 -->\n\n<!-- flowmem: seen id=p-1 last=2026-01-03 -->\n"))
	// Two captures of one lesson (n=), as a union merge leaves them.
	f.Add([]byte("## 2026-01-01 x [y] <!-- p-1 -->\n<!-- flowmem: id=p-1 seen=1 status=active n=1a,2b -->\n<!-- flowmem: id=p-1 seen=2 n=,2b,,3c -->\n**Issue**: a\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := Parse(Pitfall, raw)
		if err != nil {
			return
		}
		last := 0
		for _, e := range d.Entries {
			if e.Line <= last {
				t.Fatalf("entry lines out of order: %d after %d", e.Line, last)
			}
			last = e.Line
			if !utf8.ValidString(e.Body) || !utf8.ValidString(e.Issue) {
				t.Fatalf("invalid UTF-8 in parsed entry")
			}
			if e.Legacy {
				continue
			}
			n := e
			n.Normalize()
			n.Line = 0
			raw2 := Render(&n)
			d2, err := Parse(Pitfall, []byte(raw2))
			if err != nil || len(d2.Entries) != 1 {
				t.Fatalf("re-parse of rendered entry: %v, %d entries\n%s", err, len(d2.Entries), raw2)
			}
			got := d2.Entries[0]
			got.Line = 0
			if !reflect.DeepEqual(got, n) {
				t.Fatalf("round trip changed entry\n got %+v\nwant %+v\n%s", got, n, raw2)
			}
		}
		_ = d.Folded()
	})
}

// FuzzRender: whatever text fills an entry's fields, it renders to exactly
// one entry that parses back to itself.
func FuzzRender(f *testing.F) {
	f.Add("issue", "fix", "ctx", "", "fn-1.1", "api", "")
	f.Add("## 2026-01-01 x [y]", "<!-- flowmem: id=z -->", "---", "```", "manual", "pitfall", "")
	f.Add("", "", "", "1. list", "", "", "")
	f.Add("a <!-- hidden --> b", `<\!-- x`, "<<!--", "<!-- y -->", "manual", "api", "")
	f.Add("issue", "", "", "", "fn-1.1", "api", "1a2b3c4d,5e6f7a8b")
	f.Add("issue", "", "", "", "fn-1.1", "api", " n=x --> ,,\n")
	f.Fuzz(func(t *testing.T, issue, fix, ctx, body, task, cat, copies string) {
		e := Entry{Kind: Pitfall, Date: "2026-01-10", Issue: issue, Fix: fix, Context: ctx, Body: body, Task: task, Category: cat, Source: "impl-review", Copies: copies}
		e.Normalize()
		if e.Text() == "" {
			return
		}
		raw := Header(Pitfall) + "\n" + Render(&e)
		d, err := Parse(Pitfall, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Entries) != 1 || len(d.Sightings) != 0 {
			t.Fatalf("got %d entries, %d sightings from one entry:\n%s", len(d.Entries), len(d.Sightings), raw)
		}
		got := d.Entries[0]
		got.Line = 0
		if !reflect.DeepEqual(got, e) {
			t.Fatalf("round trip changed entry\n got %+v\nwant %+v\n%s", got, e, raw)
		}
		if strings.Count(raw, "\n## ") != 1 {
			t.Fatalf("extra heading lines:\n%s", raw)
		}
	})
}

// FuzzHeadings: the line scanner finds exactly the entry headings that
// goldmark's block parser (with the blocks that can hide a heading) finds,
// on any text whose HTML lines are comments: the scanner tracks no other
// HTML block.
func FuzzHeadings(f *testing.F) {
	f.Add([]byte(flowNextPitfalls))
	f.Add([]byte(Header(Pitfall) + "\n## 2026-01-01 fn-1 impl-review [api]\n<!-- flowmem: id=p-1 -->\n**Issue**: x\n"))
	f.Add([]byte("para\n## 2026-01-01 x\n<!--\n## 2026-01-02 y\n-->\n   ## 2026-01-03 z\n    ## 2026-01-04 code\n"))
	f.Add([]byte("<!-- a --> b\n## 2026-01-01 x\n<div>\n## 2026-01-02 y\n\n## 2026-01-03 z\n"))
	f.Add([]byte("~~~~\n## 2026-01-01 x\n~~~\n## 2026-01-02 y\n~~~~\n## 2026-01-03 z\n<pre>\n## 2026-01-04 w\n</PRE>\n## 2026-01-05 v\n"))
	f.Add([]byte("\t## 2026-01-01 x\n \t```\n## 2026-01-02 y\n``` `\n## 2026-01-03 z\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if bytes.HasPrefix(body, []byte("---")) || htmlLine(body) || !bytes.HasSuffix(body, []byte("\n")) ||
			slices.ContainsFunc(bytes.Split(body, []byte("\n")), taggedHeading) {
			// A heading with an entry's id tag starts an entry inside
			// an open block too, where goldmark sees none
			// (TestOpenBlockHidesNoEntry).
			return
		}
		var fast []int
		var sc blockScanner
		for pos := 0; pos < len(body); {
			next := len(body)
			if i := bytes.IndexByte(body[pos:], '\n'); i >= 0 {
				next = pos + i + 1
			}
			if sc.line(body[pos:next]) {
				fast = append(fast, pos)
			}
			pos = next
		}
		slow := markdownHeadings(body)
		if !reflect.DeepEqual(fast, slow) && !(len(fast) == 0 && len(slow) == 0) {
			t.Fatalf("line scan %v, goldmark %v for:\n%q", fast, slow, body)
		}
	})
}

// htmlLine reports a line that may start an HTML block other than a
// comment, which goldmark reads and the scanner does not.
func htmlLine(body []byte) bool {
	for _, l := range bytes.Split(body, []byte("\n")) {
		if cols, rest := indent(l); cols < 4 && len(rest) > 0 && rest[0] == '<' && !bytes.HasPrefix(rest, []byte("<!--")) {
			return true
		}
	}
	return false
}

// blockParser is the oracle for FuzzHeadings: goldmark with only the
// blocks that can hide a "## " line, and no inline parsing.
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

// markdownHeadings is where goldmark finds entry headings.
func markdownHeadings(body []byte) []int {
	root := blockParser.Parse(gmtext.NewReader(body))
	var out []int
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 2 || h.Lines().Len() == 0 {
			continue
		}
		start := bytes.LastIndexByte(body[:h.Lines().At(0).Start], '\n') + 1
		if isEntryHeading(string(lineAt(body, start))) {
			out = append(out, start)
		}
	}
	return out
}

// FuzzPrefilter: the prefilter never rejects a line the expression matches,
// and its answer with the expression (match, which skips the expression
// for plain literals) is the expression's.
func FuzzPrefilter(f *testing.F) {
	f.Add("goroutine|deadline", "a Goroutine leak")
	f.Add("goroutine|deadline", "a go routine leak")
	f.Add("retry|backoff", "RETRY")
	f.Add("task", "TA\u017fK")
	f.Add("(?-i:Foo)|bar", "foo")
	f.Add("a\rb", "xA\rB")
	f.Add("web(hook)+s?", "WEBHOOKS here")
	f.Add("k+", "\u212a")
	f.Add("(ab|cd)e", "xCDE")
	f.Fuzz(func(t *testing.T, pattern, line string) {
		re, err := regexp.Compile("(?i)" + pattern)
		if err != nil {
			return
		}
		if re.MatchString(line) && !newPrefilter(re).maybe([]byte(line)) {
			t.Fatalf("prefilter rejected a matching line: %q ~ %q", pattern, line)
		}
		pf := newPrefilter(re)
		if got, want := pf.match(re, []byte(line)), re.MatchString(line); got != want {
			t.Fatalf("match(%q, %q) = %v, the expression says %v (exact %v)", pattern, line, got, want, pf != nil && pf.exact)
		}
	})
}

// FuzzScanReader: reading a file in pieces (Reader.scan, as Tally, search
// and recall do) gives the segments, and their lines, that Segments gives from its
// bytes, whatever the pieces.
func FuzzScanReader(f *testing.F) {
	f.Add([]byte(flowNextPitfalls), uint8(7))
	f.Add([]byte(Header(Pitfall)+"\n## 2026-01-01 fn-1 impl-review [api] <!-- p-1 -->\n<!-- flowmem: id=p-1 -->\n**Issue**: x\n\n## 2026-01-02 y\n**Issue**: cut"), uint8(1))
	f.Add([]byte("## 2026-01-01 x\n\n<!-- flowmem: seen id=x last=2026-01-02 -->"), uint8(3))
	f.Add([]byte("---\nkind: x\n---\r\r\n## 2026-01-01 x\n"), uint8(5))
	f.Fuzz(func(t *testing.T, raw []byte, piece uint8) {
		type seg struct {
			text string
			off  int64
			line int
		}
		var want, got []seg
		Segments(raw, func(s []byte, line int) bool {
			want = append(want, seg{string(s), int64(cap(raw) - cap(s)), line})
			return true
		})
		r := &pieces{raw, int(piece)%64 + 1}
		sr := Reader{Buf: make([]byte, 0, int(piece)%32+1)}
		if err := sr.scan(r, nil, func(s []byte, off int64, line int) bool {
			got = append(got, seg{string(s), off, line})
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("in pieces of %d: %+v\nfrom bytes: %+v", r.n, got, want)
		}
	})
}

// pieces reads at most n bytes at a time.
type pieces struct {
	b []byte
	n int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	k := copy(b[:min(len(b), p.n)], p.b)
	p.b = p.b[k:]
	return k, nil
}

// FuzzFoldLit: finding a literal with its letters in either case is
// bytes.Contains on the text with ASCII letters lowered.
func FuzzFoldLit(f *testing.F) {
	f.Add([]byte("a GoRoutine leak"), "goroutine")
	f.Add([]byte("DEADLINE"), "deadline")
	f.Add([]byte("xx-1.2 \xc3\x84"), "-1.")
	f.Add([]byte("qqQq"), "qq")
	f.Fuzz(func(t *testing.T, s []byte, lit string) {
		lit = asciiLower(lit)
		low := make([]byte, len(s))
		for i, c := range s {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			low[i] = c
		}
		fl := newFoldLit(lit)
		if got, want := fl.in(s), bytes.Contains(low, []byte(lit)); got != want {
			t.Fatalf("in(%q, %q) = %v, want %v", s, lit, got, want)
		}
	})
}

// isEntryHeadingLoop is isEntryHeading as it was, reading the first word
// byte by byte: FuzzIsEntryHeading holds the shortcut to it.
func isEntryHeadingLoop(line string) bool {
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
		h, ok := parseHeading(line)
		return ok && h.date != ""
	}
	j := i
	for j < end && j-i <= 10 && line[j] != ' ' && !('\t' <= line[j] && line[j] <= '\r') && line[j] < utf8.RuneSelf {
		j++
	}
	if j-i != 10 || j < end && line[j] >= utf8.RuneSelf {
		if j-i == 10 {
			h, ok := parseHeading(line)
			return ok && h.date != ""
		}
		return false
	}
	return validDate(line[i:j])
}

func FuzzIsEntryHeading(f *testing.F) {
	for _, s := range []string{"## 2026-01-01", "## 2026-01-01 fn-1", "## 2026-01-01#", "## 2026-01-01 ##", "##  2026-01-01\u00a0x",
		"## 2026-01-01\u00a0x", "## 2026-01-01\u2603", "## 2026-01-011", "## 2026-1-01", "  ## 2026-01-01\tx", "## \u00a02026-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := isEntryHeading(line), isEntryHeadingLoop(line); got != want {
			t.Fatalf("isEntryHeading(%q) = %v, the byte loop says %v", line, got, want)
		}
		if got, want := isEntryHeading([]byte(line)), isEntryHeadingLoop(line); got != want {
			t.Fatalf("isEntryHeading([]byte(%q)) = %v, the byte loop says %v", line, got, want)
		}
	})
}

// FuzzFrontMatter: checking a front matter never panics; it takes what
// Header writes with any block after it, and a refusal names a line of the
// block that is not a "key: value" line.
func FuzzFrontMatter(f *testing.F) {
	f.Add([]byte("---\nflowmem: 1\nkind: pitfalls\n---\n# Pitfalls\n"))
	f.Add([]byte("---\r\nflowmem: 1\r\n  ---  \r\nkind: x\n---\n"))
	f.Add([]byte("---\nflowmem: [\n---\n"))
	f.Add([]byte("---\n\n---"))
	f.Add([]byte("---\n# note\nlist:\n  - a\nname: 'x' # c\n---\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, k := range Kinds {
			if err := readFrontMatter(append([]byte(Header(k)), raw...)); err != nil {
				t.Fatalf("Header(%s) and %q: %v", k, raw, err)
			}
		}
		b, _, ok := splitFrontMatter(raw)
		if !ok {
			return
		}
		err := parseFrontMatter(b)
		if err == nil {
			return
		}
		var n int
		if _, serr := fmt.Sscanf(strings.TrimPrefix(err.Error(), "1: front matter: "), "line %d", &n); serr != nil {
			t.Fatalf("%q: error %v names no line", b, err)
		}
		lines := strings.Split(string(b), "\n")
		if n < 2 || n > len(lines) {
			t.Fatalf("%q: error %v names a line outside the block", b, err)
		}
		if l := strings.TrimRight(lines[n-1], " \t\r"); strings.Contains(l, ":") && !strings.ContainsAny(l, `[]{}"'#`) && l[0] != ':' {
			t.Fatalf("%q: error %v for a plain key: value line %q", b, err, l)
		}
	})
}

// asciiLower lowers the ASCII letters of s only.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// FuzzParseOwn: into-own= is read back from files teammates and hand edits
// touch. What parses writes back as itself, and what it writes stays one
// metadata field (no space, no comment end, no line break).
func FuzzParseOwn(f *testing.F) {
	for _, s := range []string{"2026-01-02/2026-02-03/fn-1.1,fn-2.3", "//", "/2026-02-03/", "2026-13-99//x", "a/b/c", "2026-01-02/2026-02-03/a/b,c d,-->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ok := ParseOwn(s)
		if !ok {
			return
		}
		w := o.String()
		if strings.ContainsAny(w, " \t\r\n") || strings.Contains(w, "-->") {
			t.Fatalf("ParseOwn(%q).String() = %q: not one metadata field", s, w)
		}
		o2, ok := ParseOwn(w)
		if !ok || o2.String() != w {
			t.Fatalf("ParseOwn(%q) = %+v writes %q, which reads back as %+v, %v", s, o, w, o2, ok)
		}
	})
}

// A token cut at its 80-byte bound keeps whole runes and no trailing
// hyphen: a long task id in another script left half a rune (invalid
// UTF-8) in tasks= and into-own=, and a cut after a space read back
// shorter than it was written.
func TestTokenCutsWholeRunes(t *testing.T) {
	for _, in := range []string{strings.Repeat("0", 79) + "Ӵ", strings.Repeat("0", 79) + " 0", strings.Repeat("é", 60)} {
		out := token(in)
		if !utf8.ValidString(out) || len(out) > 80 || strings.HasSuffix(out, "-") || token(out) != out {
			t.Errorf("token(%q) = %q: want at most 80 bytes of whole runes, no trailing '-', stable", in, out)
		}
	}
}
