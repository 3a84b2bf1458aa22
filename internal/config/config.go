// Package config reads and writes .flow/config.json: defaults for every known
// key, dotted-key access, typed values, and parse errors that point at the
// exact file line and column so a broken file is never silently replaced.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/atomicfile"
	"github.com/flowmem/flowmem/internal/jsonedit"
	"github.com/flowmem/flowmem/internal/regfile"
)

// ErrUnknownKey means a key is neither set in the file nor known to flowmem.
var ErrUnknownKey = errors.New("unknown key")

// ParseError is a config file that is not valid JSON (or not an object), or
// holds a flowmem setting flowmem cannot use.
type ParseError struct {
	Path      string
	Line, Col int
	Err       error
	// Key, when set, is the setting (or section) whose value is wrong in
	// an otherwise valid file; Fix is a command that replaces it.
	Key, Fix string
}

func (e *ParseError) Error() string {
	if e.Key != "" {
		return fmt.Sprintf("%s:%d:%d: invalid config: %v (fix it by hand, or replace it with: %s)", e.Path, e.Line, e.Col, e.Err, e.Fix)
	}
	return fmt.Sprintf("%s:%d:%d: invalid config: %v (fix the file by hand; flowmem will not overwrite it)", e.Path, e.Line, e.Col, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Config is the parsed file plus the defaults behind it.
type Config struct {
	Path   string
	Exists bool
	data   map[string]any
}

// MaxSize bounds the config file: a settings file is a few hundred bytes,
// and a path that resolves to /dev/zero or a huge file must not exhaust
// memory (the runtime then dies with exit code 2, which Claude Code reads
// from a hook as "block").
const MaxSize = 1 << 20

// Load reads path. A missing file is not an error: it means defaults.
// Anything but a regular file (a FIFO, a device, a folder) is an error, as
// is a file over MaxSize, so that no command hangs or runs out of memory.
// A flowmem setting of the wrong type or value, or a flowmem section that
// is not an object, is a *ParseError naming its line and column: read as
// the default instead, {"memory":[true]} would silently turn memory off.
func Load(path string) (*Config, error) {
	c, b, err := read(path)
	if err != nil || b == nil {
		return c, err
	}
	if pe := c.validate(b); pe != nil {
		return nil, pe
	}
	return c, nil
}

// LoadForSet loads path for 'config set KEY': a wrong value at KEY, or at
// the section that holds it, is dropped rather than an error, because
// setting KEY is the repair the error suggests. Every other problem is
// still an error.
func LoadForSet(path, key string) (*Config, error) {
	c, b, err := read(path)
	if err != nil || b == nil {
		return c, err
	}
	for {
		pe := c.validate(b)
		if pe == nil {
			return c, nil
		}
		if pe.Key == "" || key != pe.Key && !strings.HasPrefix(key, pe.Key+".") {
			return nil, pe
		}
		if obj, last, err := parent(c.data, pe.Key, false); err == nil {
			delete(obj, last)
		}
	}
}

// read loads the file's JSON; b is nil when there is nothing to check.
func read(path string) (*Config, []byte, error) {
	c := &Config{Path: path, data: map[string]any{}}
	b, err := regfile.Read(path, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read config: %w", err)
	}
	c.Exists = true
	// Some Windows editors start the file with a byte-order mark, which
	// no one sees: read past it, as settings.json is read.
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(b)) == 0 {
		return c, nil, nil
	}
	data, err := decodeObject(b)
	if err != nil {
		return nil, nil, parseError(path, b, err)
	}
	c.data = data
	return c, b, nil
}

// validate checks flowmem's sections and settings in the decoded file; b is
// its source, for the position of the first bad value.
func (c *Config) validate(b []byte) *ParseError {
	for _, k := range Known {
		// A section that is not an object fails at its first key.
		sec, _, _ := strings.Cut(k.Name, ".")
		if v, ok := c.data[sec]; ok {
			if _, isObj := v.(map[string]any); !isObj {
				return c.typeError(b, sec, fmt.Errorf("%s must be an object of settings (%s), found %s", sec, strings.Join(keysUnder(sec), ", "), describe(v)), k)
			}
		}
		v, ok := lookup(c.data, k.Name)
		if !ok {
			continue
		}
		if err := k.check(v, "found"); err != nil {
			pe := c.typeError(b, k.Name, err, k)
			// A value written as a string ("limit": "5") suggests itself,
			// typed, rather than the default.
			if s, ok := v.(string); ok && !strings.ContainsAny(s, " '\"$\\`") {
				if typed := ParseValue(s); typed != any(s) && k.check(typed, "not") == nil {
					pe.Fix = "flowmem config set " + k.Name + " " + s
				}
			}
			return pe
		}
	}
	return nil
}

// typeError places err at the value of key and suggests setting k.
func (c *Config) typeError(b []byte, key string, err error, k Key) *ParseError {
	line, col := 1, 1
	if d, perr := jsonedit.Parse(b); perr == nil {
		n := d.Root
		for _, part := range strings.Split(key, ".") {
			if n = n.Get(part); n == nil {
				break
			}
		}
		if n != nil {
			line, col = position(b, n.Start+1)
		}
	}
	return &ParseError{Path: c.Path, Line: line, Col: col, Err: err, Key: key,
		Fix: "flowmem config set " + k.Name + " " + example(k)}
}

// example is a value of k to suggest in a command line.
func example(k Key) string {
	switch d := k.Default.(type) {
	case bool:
		return "true"
	case int64:
		return strconv.FormatInt(d, 10)
	case string:
		if d != "" && !strings.ContainsAny(d, " '\"$\\`") {
			return d
		}
	}
	j, _ := json.Marshal(k.Default)
	return "'" + strings.ReplaceAll(string(j), "'", `'\''`) + "'"
}

func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		for end < len(b) && (b[end] == ' ' || b[end] == '\t' || b[end] == '\n' || b[end] == '\r') {
			end++
		}
		return nil, &offsetError{int64(end) + 1, errors.New("unexpected data after the top-level object")}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &offsetError{1, errors.New("the top level must be a JSON object")}
	}
	return m, nil
}

func parseError(path string, b []byte, err error) error {
	off := -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var oe *offsetError
	switch {
	case errors.As(err, &oe):
		off, err = int(oe.off), oe.err
	case errors.As(err, &se):
		off = int(se.Offset)
		if trailingComma(b, off-1) {
			err = fmt.Errorf("%w (a comma before it: JSON allows no comma after the last item)", err)
		}
	case errors.As(err, &te):
		off = int(te.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		off = len(b)
		err = errors.New("unexpected end of file")
	}
	line, col := position(b, off)
	return &ParseError{Path: path, Line: line, Col: col, Err: err}
}

// trailingComma says whether b[i] closes an object or a list right after
// a comma, the usual slip of a hand edit.
func trailingComma(b []byte, i int) bool {
	if i < 0 || i >= len(b) || b[i] != '}' && b[i] != ']' {
		return false
	}
	before := bytes.TrimRight(b[:i], " \t\r\n")
	return len(before) > 0 && before[len(before)-1] == ','
}

type offsetError struct {
	off int64
	err error
}

func (e *offsetError) Error() string { return e.err.Error() }

// position is where an offset from encoding/json points: just past the
// bad byte.
func position(b []byte, off int) (line, col int) { return jsonedit.Position(b, off-1) }

// parent walks to the object that holds a dotted key's last part and
// returns it with that part; create makes the objects missing on the way.
// A part on the way that is not an object is an error naming it.
func parent(m map[string]any, key string, create bool) (map[string]any, string, error) {
	parts := strings.Split(key, ".")
	for i, p := range parts[:len(parts)-1] {
		next, exists := m[p]
		if !exists && create {
			next = map[string]any{}
			m[p] = next
		}
		obj, ok := next.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("%s is %s, not an object", strings.Join(parts[:i+1], "."), describe(next))
		}
		m = obj
	}
	return m, parts[len(parts)-1], nil
}

func lookup(m map[string]any, key string) (any, bool) {
	obj, last, err := parent(m, key, false)
	if err != nil {
		return nil, false
	}
	v, ok := obj[last]
	return v, ok
}

// Get returns a key's effective value and where it comes from ("file" or
// "default").
func (c *Config) Get(key string) (any, string, error) {
	if v, ok := lookup(c.data, key); ok {
		return v, "file", nil
	}
	if k, ok := known(key); ok {
		return k.Default, "default", nil
	}
	// One of flowmem's sections, or a slip of a setting's name, is said
	// as set says it.
	if slices.Contains(sections, key) {
		return nil, "", fmt.Errorf("%w %q: %s %v: get one of its keys (%s)", ErrUnknownKey, key, key, errSection, strings.Join(keysUnder(key), ", "))
	}
	see := "see 'flowmem config list'"
	if near := closest(key); near != "" {
		see = "did you mean " + near + "? " + see
	}
	return nil, "", fmt.Errorf("%w %q: not set in %s and not a flowmem setting (%s)", ErrUnknownKey, key, c.Path, see)
}

// Bool is a known boolean key's effective value.
func (c *Config) Bool(key string) bool {
	v, _, _ := c.Get(key)
	b, _ := v.(bool)
	return b
}

// Int is a known integer key's effective value.
func (c *Config) Int(key string) int {
	v, _, _ := c.Get(key)
	n, _ := toInt(v)
	return int(n)
}

// String is a known string key's effective value.
func (c *Config) String(key string) string {
	v, _, _ := c.Get(key)
	s, _ := v.(string)
	return s
}

// Strings is a known list-of-strings key's effective value.
func (c *Config) Strings(key string) []string {
	v, _, _ := c.Get(key)
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Setting is one row of List.
type Setting struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Source string `json:"source"`
}

// List returns every known key and every key set in the file, sorted.
func (c *Config) List() []Setting {
	seen := map[string]bool{}
	var out []Setting
	for _, k := range Known {
		v, src, _ := c.Get(k.Name)
		out = append(out, Setting{k.Name, v, src})
		seen[k.Name] = true
	}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for name, v := range m {
			key := prefix + name
			if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
				walk(key+".", sub)
				continue
			}
			if !seen[key] {
				out = append(out, Setting{key, v, "file"})
			}
		}
	}
	walk("", c.data)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// ParseValue types a command-line value: true/false, integers, floats and
// JSON literals become typed; anything else stays a string.
func ParseValue(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return json.Number(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && strings.ContainsAny(s, ".eE") && !strings.ContainsAny(s, "nN") {
		return json.Number(s)
	}
	if t := strings.TrimSpace(s); t != "" && strings.ContainsRune(`[{"`, rune(t[0])) {
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil && !dec.More() {
			return v
		}
	}
	return s
}

// Set stores value at the dotted key, creating nested objects. Known keys
// must keep their type.
func (c *Config) Set(key string, value any) error {
	if slices.Contains(strings.Split(key, "."), "") {
		return fmt.Errorf("invalid key %q: empty segment", key)
	}
	if k, ok := known(key); ok {
		if err := k.check(value, "not"); err != nil {
			return err
		}
	} else if sec, _, _ := strings.Cut(key, "."); slices.Contains(sections, sec) {
		if key == sec {
			return fmt.Errorf("%s %v: set one of its keys (%s)", key, errSection, strings.Join(keysUnder(sec), ", "))
		}
		msg := "unknown setting " + key
		if near := closest(key); near != "" {
			msg += "; did you mean " + near + "?"
		}
		return errors.New(msg + " (see 'flowmem config list')")
	}
	if c.data == nil {
		c.data = map[string]any{}
	}
	obj, last, err := parent(c.data, key, true)
	if err != nil {
		return fmt.Errorf("cannot set %s: %w", key, err)
	}
	obj[last] = value
	return nil
}

// check tells whether v is a value of k that flowmem can use; was words
// what v is instead ("found" in the file, "not" on a command line).
func (k Key) check(v any, was string) error {
	if !sameType(v, k.Default) {
		what := describe(v)
		if list, ok := v.([]any); ok {
			for _, e := range list {
				if _, ok := e.(string); !ok {
					what = "a list holding " + describe(e)
					break
				}
			}
		}
		return fmt.Errorf("%s must be %s, %s %s", k.Name, typeName(k.Default), was, what)
	}
	if k.Check != nil {
		if err := k.Check(v); err != nil {
			return fmt.Errorf("%s: %w", k.Name, err)
		}
	}
	return nil
}

// Unknown lists the keys in flowmem's sections that it does not read
// (typos, most likely); a section that is not an object fails Load. Keys
// outside those sections belong to others (flow-next shares the file) and
// are left alone, but for one that is a typo of a flowmem setting
// (recal.limit, Mistyped).
func (c *Config) Unknown() []string {
	var unknown []string
	for _, sec := range sections {
		if m, ok := c.data[sec].(map[string]any); ok {
			unknown = append(unknown, unknownUnder(sec, m)...)
		}
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok {
			for _, name := range slices.Sorted(maps.Keys(m)) {
				walk(prefix+"."+name, m[name])
			}
			return
		}
		if near := Mistyped(prefix); near != "" {
			unknown = append(unknown, prefix+" (did you mean "+near+"?)")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.data)) {
		if !slices.Contains(sections, name) {
			walk(name, c.data[name])
		}
	}
	return unknown
}

// unknownUnder lists the keys under section sec that no known setting is
// or holds.
func unknownUnder(prefix string, m map[string]any) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		key := prefix + "." + name
		if _, ok := known(key); ok {
			continue
		}
		if sub, ok := m[name].(map[string]any); ok && len(keysUnder(key)) > 0 {
			out = append(out, unknownUnder(key, sub)...)
			continue
		}
		msg := key
		if near := closest(key); near != "" {
			msg += " (did you mean " + near + "?)"
		}
		out = append(out, msg)
	}
	return out
}

// toInt reads an integer setting's value.
func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	case int64:
		return n, true
	}
	return 0, false
}

// Save writes the config atomically, two-space indented. A symlinked
// config.json stays a link: the file it points to is replaced (people keep
// one config in a dotfiles repository and link it into projects).
func (c *Config) Save() error {
	b, err := json.MarshalIndent(c.data, "", "  ")
	if err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	// A file Load refuses would stop every command and the hook.
	if len(b)+1 > MaxSize {
		return fmt.Errorf("config would be %d bytes, over the %d flowmem reads; nothing was written", len(b)+1, MaxSize)
	}
	if err := writeFile(c.Path, append(b, '\n')); err != nil {
		return err
	}
	c.Exists = true
	return nil
}

// WriteDefault creates a config file at path with the defaults that
// matter to people.
func WriteDefault(path string) error {
	return writeFile(path, []byte("{\n  \"memory\": {\n    \"enabled\": false\n  }\n}\n"))
}

// staleAfter is how old a temp file left by a config write must be before
// another write removes it: a write in flight lives for milliseconds, one
// killed mid-way leaves its temp file forever.
const staleAfter = time.Minute

func writeFile(path string, body []byte) error {
	target, err := atomicfile.Resolve(path)
	if err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	dir, base := filepath.Split(target)
	old, _ := filepath.Glob(filepath.Join(dir, "."+base+".tmp-*"))
	for _, f := range old {
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleAfter {
			_ = os.Remove(f)
		}
	}
	if err := atomicfile.Write(target, body, 0o644); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	// The temp file of a killed write must not be committed; best effort.
	_, _ = regfile.EnsureLine(filepath.Join(filepath.Dir(path), ".gitignore"), ".*.tmp-*", "temp files of interrupted flowmem writes")
	return nil
}

func sameType(v, def any) bool {
	switch def.(type) {
	case bool:
		_, ok := v.(bool)
		return ok
	case int64:
		_, ok := toInt(v)
		return ok
	case string:
		_, ok := v.(string)
		return ok
	case []any:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range list {
			if _, ok := x.(string); !ok {
				return false
			}
		}
		return true
	}
	return true
}

func typeName(def any) string {
	switch def.(type) {
	case bool:
		return "true or false"
	case int64:
		return "an integer"
	case string:
		return "a string"
	case []any:
		return "a list of strings"
	}
	return "a value"
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case json.Number:
		return "number " + x.String()
	case string:
		return fmt.Sprintf("string %q", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}
