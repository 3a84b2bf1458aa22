package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
	}{
		{"trailing comma", "{\n  \"a\": 1,\n}\n", 3, 1},
		{"missing colon", "{\"a\" 1}", 1, 6},
		{"unterminated", "{\n \"a\": \"x", 2, 7},
		{"comment", "{\n  // no\n  \"a\": 1\n}", 2, 3},
		{"bad escape", `{"a": "\q"}`, 1, 9},
		{"two values", "{} {}", 1, 4},
		{"empty", "", 1, 1},
		{"bad number", `{"a": 01}`, 1, 8},
		{"control char", "{\"a\": \"x\ty\"}", 1, 9},
		{"bare word", "{\"a\": yes}", 1, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error = %v, want *ParseError", tt.src, err)
			}
			if pe.Line != tt.line || pe.Col != tt.col {
				t.Errorf("Parse(%q) at %d:%d (%s), want %d:%d", tt.src, pe.Line, pe.Col, pe.Msg, tt.line, tt.col)
			}
			if json.Valid([]byte(tt.src)) {
				t.Errorf("test case is valid JSON: %q", tt.src)
			}
		})
	}
}

func TestParseValid(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `0`, `-1.5e+10`, `"\u00e9\n"`, `null`, `true`, ` {"a":[1,{"b":null}],"c":"d"} `,
		`{"a":1,"a":2}`, "{\"é\": \"ü\"}",
	} {
		d, err := Parse([]byte(src))
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if !json.Valid([]byte(src)) {
			t.Errorf("not valid per encoding/json: %q", src)
		}
		_ = d
	}
	d, err := Parse([]byte(`{"a":1,"a":{"x":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Root.Get("a"); got == nil || got.Kind != Object {
		t.Errorf("Get(a) = %v, want the last member (an object)", got)
	}
}

func TestStyle(t *testing.T) {
	tests := []struct {
		name, src         string
		indent, nl, colon string
	}{
		{"two spaces", "{\n  \"a\": 1\n}\n", "  ", "\n", ": "},
		{"four spaces", "{\n    \"a\": {\n        \"b\": 1\n    }\n}", "    ", "\n", ": "},
		{"tabs", "{\n\t\"a\":1\n}", "\t", "\n", ":"},
		{"crlf", "{\r\n  \"a\" : 1\r\n}\r\n", "  ", "\r\n", " : "},
		{"one line", `{"a": 1, "b": [1, 2]}`, "", "\n", ": "},
		{"empty", `{}`, "  ", "\n", ": "},
		{"first level inline", "{\"a\": {\n    \"b\": 1}}", "    ", "\n", ": "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if d.Indent != tt.indent || d.Newline != tt.nl || d.Colon != tt.colon {
				t.Errorf("style = %q %q %q, want %q %q %q", d.Indent, d.Newline, d.Colon, tt.indent, tt.nl, tt.colon)
			}
		})
	}
}

func TestAddRemove(t *testing.T) {
	val := Obj{{"x", []any{Obj{{"k", "v&<>"}}}}, {"n", 10}}
	tests := []struct {
		name, src, want string
	}{
		{
			"pretty", "{\n  \"a\": 1\n}\n",
			"{\n  \"a\": 1,\n  \"new\": {\n    \"x\": [\n      {\n        \"k\": \"v&<>\"\n      }\n    ],\n    \"n\": 10\n  }\n}\n",
		},
		{
			"tabs crlf", "{\r\n\t\"a\":1\r\n}",
			"{\r\n\t\"a\":1,\r\n\t\"new\":{\r\n\t\t\"x\":[\r\n\t\t\t{\r\n\t\t\t\t\"k\":\"v&<>\"\r\n\t\t\t}\r\n\t\t],\r\n\t\t\"n\":10\r\n\t}\r\n}",
		},
		{"one line", `{"a": 1}`, `{"a": 1, "new": {"x": [{"k": "v&<>"}], "n": 10}}`},
		{"one line tight", `{"a":1,"b":2}`, `{"a":1,"b":2,"new":{"x":[{"k":"v&<>"}],"n":10}}`},
		{"empty", `{}`, "{\n  \"new\": {\n    \"x\": [\n      {\n        \"k\": \"v&<>\"\n      }\n    ],\n    \"n\": 10\n  }\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			out := d.AddMember(d.Root, "new", val)
			if string(out) != tt.want {
				t.Errorf("AddMember:\n%s\nwant:\n%s", out, tt.want)
			}
			d2, err := Parse(out)
			if err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			back := d2.RemoveKey(d2.Root, "new")
			if tt.name != "empty" && string(back) != tt.src {
				t.Errorf("RemoveKey:\n%q\nwant:\n%q", back, tt.src)
			}
		})
	}
}

func TestAppendAndRemoveFirst(t *testing.T) {
	src := "{\n  \"l\": [\n    1,\n    2\n  ],\n  \"e\": []\n}"
	d, _ := Parse([]byte(src))
	out := d.AppendElem(d.Root.Get("l"), "three")
	want := "{\n  \"l\": [\n    1,\n    2,\n    \"three\"\n  ],\n  \"e\": []\n}"
	if string(out) != want {
		t.Fatalf("AppendElem:\n%s\nwant:\n%s", out, want)
	}
	d, _ = Parse(out)
	out = d.AppendElem(d.Root.Get("e"), Obj{{"a", 7}})
	want = "{\n  \"l\": [\n    1,\n    2,\n    \"three\"\n  ],\n  \"e\": [\n    {\n      \"a\": 7\n    }\n  ]\n}"
	if string(out) != want {
		t.Fatalf("AppendElem into empty:\n%s\nwant:\n%s", out, want)
	}
	d, _ = Parse(out)
	out = d.Remove(d.Root, 0)
	want = "{\n  \"e\": [\n    {\n      \"a\": 7\n    }\n  ]\n}"
	if string(out) != want {
		t.Fatalf("Remove first:\n%s\nwant:\n%s", out, want)
	}
	d, _ = Parse(out)
	out = d.Remove(d.Root.Get("e"), 0)
	if want = "{\n  \"e\": []\n}"; string(out) != want {
		t.Fatalf("Remove only:\n%s\nwant:\n%s", out, want)
	}
}

func TestBOM(t *testing.T) {
	src := "\xef\xbb\xbf{\n  \"a\": 1\n}\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := d.AddMember(d.Root, "b", 2)
	if want := "\xef\xbb\xbf{\n  \"a\": 1,\n  \"b\": 2\n}\n"; string(out) != want {
		t.Errorf("AddMember with BOM = %q", out)
	}
}

func TestAddEmptyContainers(t *testing.T) {
	d, err := Parse([]byte("{\n  \"x\": 1\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := d.AddMember(d.Root, "hooks", Obj{{"a", Obj{}}, {"b", []any{}}})
	if want := "{\n  \"x\": 1,\n  \"hooks\": {\n    \"a\": {},\n    \"b\": []\n  }\n}\n"; string(got) != want {
		t.Errorf("AddMember = %q, want %q", got, want)
	}
}

// FuzzEdit checks the parser against encoding/json and that an add then a
// remove on any valid object leaves valid JSON with the same meaning.
func FuzzEdit(f *testing.F) {
	for _, s := range []string{
		"{}", "{\n  \"a\": 1\n}\n", `{"a":[1,2],"b":{"c":null}}`, "{\r\n\t\"x\": \"\\u00e9\"\r\n}",
		`{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[]}]}}`, `[1, 2]`, `"s"`, `{"a" 1}`, "{\n}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse(src)
		if valid := json.Valid(bytes.TrimPrefix(src, bom)); (err == nil) != valid {
			t.Fatalf("Parse error = %v, json.Valid = %v for %q", err, valid, src)
		}
		if err != nil || d.Root.Kind != Object {
			return
		}
		src = bytes.TrimPrefix(src, bom)
		if d, err = Parse(src); err != nil {
			t.Fatal(err)
		}
		var before map[string]any
		if json.Unmarshal(src, &before) != nil {
			return // e.g. invalid UTF-8 or duplicate keys that unmarshal differently
		}
		out := d.AddMember(d.Root, "zz-new", Obj{{"k", []any{"v", 1}}})
		var after map[string]any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("added result is not valid JSON: %v\n%q", err, out)
		}
		if _, dup := before["zz-new"]; !dup {
			delete(after, "zz-new")
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("AddMember changed other keys:\n%q\n%q", src, out)
			}
		}
		d2, err := Parse(out)
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		back := d2.Remove(d2.Root, len(d2.Root.Members)-1)
		var again map[string]any
		if err := json.Unmarshal(back, &again); err != nil {
			t.Fatalf("removed result is not valid JSON: %v\n%q", err, back)
		}
		if !reflect.DeepEqual(before, again) {
			t.Fatalf("add+remove changed meaning:\n%q\n%q", src, back)
		}
		if len(d.Root.Members) > 0 && string(back) != string(src) {
			t.Fatalf("add+remove not byte-identical:\n%q\n%q", src, back)
		}
	})
}
