package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseValue(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{"true", true},
		{"false", false},
		{"null", nil},
		{"42", json.Number("42")},
		{"-7", json.Number("-7")},
		{"0.25", json.Number("0.25")},
		{"1e3", json.Number("1e3")},
		{"NaN", "NaN"},
		{"Inf", "Inf"},
		{"hello", "hello"},
		{"True", "True"},
		{`"quoted"`, "quoted"},
		{`["a","b"]`, []any{"a", "b"}},
		{`{"k":1}`, map[string]any{"k": json.Number("1")}},
		{`[broken`, "[broken"},
		{"", ""},
		{"0x10", "0x10"},
	}
	for _, tt := range tests {
		if got := ParseValue(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseValue(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func write(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, body string
		line, col  int
		msg        string
	}{
		{"unquoted key", "{\n  \"memory\": {\n    enabled: true\n  }\n}\n", 3, 5, "invalid character"},
		{"truncated", "{\"memory\":", 1, 10, "unexpected end"},
		{"trailing comma", "{\"a\": 1,}\n", 1, 9, "invalid character"},
		{"not an object", "[1, 2]\n", 1, 1, "must be a JSON object"},
		{"two values", "{}\n{}\n", 2, 1, "unexpected data"},
		{"wrong type", "{\"memory\": {\"enabled\": \"yes\"}}", 1, 24, "memory.enabled must be true or false, found string \"yes\" (fix it by hand, or replace it with: flowmem config set memory.enabled true)"},
		{"wrong list", "{\"capture\": {\"review_patterns\": [1]}}", 1, 33, "must be a list of strings, found a list holding number 1"},
		// A flowmem section that is not an object used to read as the
		// defaults: memory silently off.
		{"section a list", "{\"memory\":[true]}", 1, 11, "memory must be an object of settings (memory.enabled, memory.stale_after_days), found a list (fix it by hand, or replace it with: flowmem config set memory.enabled true)"},
		{"section a string", "{\n  \"other\": 1,\n  \"recall\": \"fast\"\n}\n", 3, 13, "recall must be an object of settings (recall.limit, recall.max_chars), found string \"fast\""},
		{"last duplicate counts", "{\"memory\": {\"enabled\": true}, \"memory\": 1}", 1, 41, "memory must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write(t, tt.body)
			_, err := Load(path)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a ParseError", err)
			}
			if pe.Line != tt.line || pe.Col != tt.col || !strings.Contains(pe.Error(), tt.msg) || pe.Path != path {
				t.Errorf("got %s:%d:%d %q, want line %d col %d containing %q", pe.Path, pe.Line, pe.Col, pe.Error(), tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestDefaultsAndGet(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "missing.json"))
	if err != nil || c.Exists {
		t.Fatalf("missing file: %v exists=%v", err, c.Exists)
	}
	if c.Bool("memory.enabled") || c.Int("recall.limit") != 10 || c.String("capture.min_severity") != "minor" || len(c.Strings("capture.review_patterns")) == 0 {
		t.Error("defaults not applied")
	}
	if _, _, err := c.Get("no.such"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("unknown key: %v", err)
	}
	c, err = Load(write(t, `{"memory":{"enabled":true},"recall":{"limit":3},"x":{"y":"z"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Bool("memory.enabled") || c.Int("recall.limit") != 3 {
		t.Error("file values not read")
	}
	if v, src, err := c.Get("x.y"); v != "z" || src != "file" || err != nil {
		t.Errorf("x.y = %v %s %v", v, src, err)
	}
	var keys []string
	for _, s := range c.List() {
		keys = append(keys, s.Key+"="+s.Source)
	}
	want := []string{"capture.agent_types=default", "capture.approval=default", "capture.min_severity=default", "capture.nudge=default", "capture.review_patterns=default",
		"memory.enabled=file", "memory.stale_after_days=default", "recall.limit=file", "recall.max_chars=default", "x.y=file"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("List = %v\nwant %v", keys, want)
	}
}

// TestLoadBOM: a byte-order mark, which some Windows editors write before
// the JSON, is not an error; config set keeps the file readable.
func TestLoadBOM(t *testing.T) {
	path := write(t, "\xef\xbb\xbf{\"memory\": {\"enabled\": true}}\n")
	c, err := Load(path)
	if err != nil || !c.Bool("memory.enabled") {
		t.Fatalf("Load: %v", err)
	}
	c, err = LoadForSet(path, "recall.limit")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("recall.limit", ParseValue("4")); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if c, err = Load(path); err != nil || !c.Bool("memory.enabled") || c.Int("recall.limit") != 4 {
		t.Errorf("after set: %v", err)
	}
}

func TestSetSave(t *testing.T) {
	path := write(t, `{"memory":{"enabled":false},"other":{"kept":[1,2]}}`)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key     string
		val     any
		wantErr string
	}{
		{"memory.enabled", true, ""},
		{"a.b.c", json.Number("1"), ""},
		{"memory.enabled", "yes", "must be true or false"},
		{"recall.limit", json.Number("1.5"), "must be an integer"},
		{"other.kept.x", true, "not an object"},
		{"bad..key", true, "empty segment"},
	}
	for _, tt := range tests {
		err := c.Set(tt.key, tt.val)
		if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("Set(%s, %v) = %v, want error %q", tt.key, tt.val, err, tt.wantErr)
		}
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c2.Bool("memory.enabled") {
		t.Error("saved value lost")
	}
	if v, _, _ := c2.Get("a.b.c"); v != json.Number("1") {
		t.Errorf("a.b.c = %#v", v)
	}
	if v, _, _ := c2.Get("other.kept"); !reflect.DeepEqual(v, []any{json.Number("1"), json.Number("2")}) {
		t.Errorf("unrelated key changed: %#v", v)
	}
}

// FuzzLoad: no config text panics Load, and anything it accepts survives a
// save and reload unchanged.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"memory":{"enabled":true}}`))
	f.Add([]byte("{\n  bad\n}"))
	f.Add([]byte(`{"recall":{"limit":1e400}}`))
	f.Add([]byte(`{"memory":[true],"memory":{"enabled":1}}`))
	f.Add([]byte("{\n  \"capture\": {\"review_patterns\": [\"(\"]}\n}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "config.json")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 || pe.Line > 1+bytes.Count(body, []byte("\n")) {
				t.Fatalf("error without a position in the file: %v", err)
			}
			return
		}
		before := c.List()
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		c2, err := Load(path)
		if err != nil {
			t.Fatalf("reload of saved config: %v", err)
		}
		if !reflect.DeepEqual(before, c2.List()) {
			t.Fatalf("save changed settings")
		}
	})
}

// TestLoadOnlyRegularBounded: a config.json that is a FIFO, a device, a
// folder or a huge file is an error, returned at once: a FIFO used to hang
// every command, /dev/zero to exhaust memory (the runtime then exits 2).
func TestLoadOnlyRegularBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, []byte(`{"memory":{"enabled":true},"pad":"`+strings.Repeat("x", 10<<20)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, msg string }{
		{fifo, "is a named pipe: not a regular file"},
		{zero, "is a device: not a regular file"},
		{dir, "is a folder: not a regular file"},
		{huge, "is over 1048576 bytes: file too large"},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() { _, err := Load(tt.path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Load(%s) = %v, want an error containing %q", filepath.Base(tt.path), err, tt.msg)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Load(%s) hung", filepath.Base(tt.path))
		}
	}
	// A symlink to a regular file is read through.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(write(t, `{"memory":{"enabled":true}}`), link); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(link); err != nil || !c.Bool("memory.enabled") {
		t.Errorf("symlinked config: %v", err)
	}
}

// TestSaveThroughSymlink: a symlinked config.json stays a link after a
// write; the file it points to gets the new content.
func TestSaveThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "flow.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(`{"memory":{"enabled":false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	flow := filepath.Join(dir, "proj", ".flow")
	if err := os.MkdirAll(flow, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(flow, "config.json")
	if err := os.Symlink("../../dotfiles/flow.json", link); err != nil {
		t.Fatal(err)
	}
	c, err := LoadForSet(link, "memory.enabled")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("memory.enabled", true); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("config.json is no longer a symlink: %v %v", fi.Mode(), err)
	}
	if c, err := Load(real); err != nil || !c.Bool("memory.enabled") {
		t.Errorf("the linked file was not updated: %v", err)
	}
}

// TestSaveCleansStaleTemps: temp files of killed writes are removed by the
// next write once they are stale (one in flight is left alone), and the
// folder's .gitignore keeps them out of git.
func TestSaveCleansStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	stale := filepath.Join(dir, ".config.json.tmp-123")
	fresh := filepath.Join(dir, ".config.json.tmp-456")
	for _, f := range []string{stale, fresh} {
		if err := os.WriteFile(f, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("local/"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temp file kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temp file in flight was removed: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if string(b) != "local/\n# temp files of interrupted flowmem writes\n.*.tmp-*\n" {
		t.Errorf(".gitignore = %q", b)
	}
}

// TestLoadForSetRepairs: the command a type error suggests repairs the
// file; setting another key leaves the error in place.
func TestLoadForSetRepairs(t *testing.T) {
	for _, body := range []string{`{"memory":[true],"x":1}`, `{"memory":{"enabled":"yes"},"x":1}`} {
		path := write(t, body)
		_, err := Load(path)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "flowmem config set memory.enabled true") {
			t.Fatalf("%s: Load = %v", body, err)
		}
		if _, err := LoadForSet(path, "recall.limit"); !errors.As(err, &pe) {
			t.Errorf("%s: setting another key: %v", body, err)
		}
		c, err := LoadForSet(path, "memory.enabled")
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if err := c.Set("memory.enabled", true); err != nil {
			t.Fatal(err)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		c, err = Load(path)
		if err != nil || !c.Bool("memory.enabled") {
			t.Errorf("%s: after the suggested fix: %v", body, err)
		}
		if v, _, _ := c.Get("x"); v == nil {
			t.Errorf("%s: other keys lost", body)
		}
	}
}

// TestSaveStaysReadable: a set that would make the file larger than Load
// reads is refused and the file is left as it was; written, every command
// and the hook would fail on it ("file too large").
func TestSaveStaysReadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := WriteDefault(path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("team.notes", strings.Repeat("x", MaxSize)); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("Save of a %d-byte config: %v", MaxSize, err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the file changed:\n%.200s", after)
	}
	if _, err := Load(path); err != nil {
		t.Errorf("Load after a refused save: %v", err)
	}
}
