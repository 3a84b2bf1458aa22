package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostile is what a hand edit or a merge can put into an entry: a title
// change, a screen clear, an 8-bit CSI, a bell, a bidi override and a
// zero-width space.
const hostile = "\x1b]0;pwned\x07\x1b[2J\x1b[H\u009b31m\a\u202eyrtne\u202c\u200b"

func hasEscapes(s string) bool {
	return strings.ContainsAny(s, "\x1b\a\u009b\u202e\u202c\u200b")
}

// TestHumanOutputHasNoEscapes: entries carrying terminal escapes print
// without them in every command that shows entries; --json keeps the
// text, escaped by the encoder.
func TestHumanOutputHasNoEscapes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) { return runIn(t, dir, args...) }
	if code, _, errs := run("init", "--enable"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run("memory", "add", "--type", "pitfall", "Webhook retries resend without the idempotency key", "--fix", "send the key on every retry"); code != 0 {
		t.Fatal(errs)
	}
	file := filepath.Join(dir, ".flow", "memory", "pitfalls.md")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(b, []byte("idempotency key"), []byte("idempotency "+hostile+" key"), 1)
	edited = bytes.Replace(edited, []byte("on every retry"), []byte("on every "+hostile+"retry"), 1)
	if bytes.Equal(edited, b) {
		t.Fatal("the entry was not edited")
	}
	if err := os.WriteFile(file, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"memory", "read"},
		{"memory", "read", "--relevant", "webhook idempotency retries"},
		{"memory", "search", "idempotency"},
		{"memory", "prime"},
		{"memory", "list"},
		{"memory", "search", "no such \x1b[2J thing"},
	} {
		code, out, errs := run(args...)
		if code != 0 && code != exitError && code != exitUsage {
			t.Errorf("%q: exit %d", args, code)
		}
		if hasEscapes(out) || hasEscapes(errs) {
			t.Errorf("%q printed escapes:\nstdout %q\nstderr %q", args, out, errs)
		}
		if code == 0 && args[1] != "list" && !strings.Contains(out+errs, "dempotency") {
			t.Errorf("%q lost the entry: %q %q", args, out, errs)
		}
	}
	if _, out, _ := run("memory", "search", "--json", "idempotency"); !strings.Contains(out, `\u001b]0;pwned`) {
		t.Errorf("--json should keep the text, escaped: %s", out)
	}
}

// TestMemoryAddStoresNoEscapes: text typed into memory add is cleaned at
// write time, and a zero-width space cannot hide a token from redaction.
func TestMemoryAddStoresNoEscapes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	std, _, errb := testIO(dir)
	if Main(context.Background(), []string{"flowmem", "init", "--enable"}, std) != 0 {
		t.Fatal(errb)
	}
	std, _, errb = testIO(dir)
	if code := Main(context.Background(), []string{"flowmem", "memory", "add", "--type", "pitfall",
		"Cache keys " + hostile + " ignore the tenant", "--fix", "token gh\u200bp_0123456789abcdefghijABCDEFGHIJ012345 " + hostile}, std); code != 0 {
		t.Fatal(errb)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
	if err != nil {
		t.Fatal(err)
	}
	if hasEscapes(string(b)) || bytes.Contains(b, []byte("0123456789abcdefghij")) {
		t.Errorf("stored:\n%q", b)
	}
}
