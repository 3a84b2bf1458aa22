package sanitize

import (
	"bytes"
	"strings"
)

// Tags returns s with "<" written as "&lt;" where it opens or closes a tag
// whose name holds "-", "_" or ":" (</system-reminder>, <function_calls>,
// a namespaced <x:invoke>). Agent harnesses wrap what they hand the model
// in tags of that kind and HTML names none so, so a lesson printed for the
// model cannot close the wrapper it arrives in or pass for a tool call,
// while <div>, <T> and List<String> print as they are. For output only:
// memory keeps what the reviewer wrote.
func Tags(s string) string {
	if tagAt(s, 0) < 0 {
		return s
	}
	return string(AppendTags(nil, s))
}

// AppendTags appends Tags(s) to dst.
func AppendTags[T string | []byte](dst []byte, s T) []byte {
	last := 0
	for i := tagAt(s, 0); i >= 0; i = tagAt(s, i+1) {
		dst = append(dst, s[last:i]...)
		dst = append(dst, "&lt;"...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// tagAt is the index of the first "<" at or after from that opens or
// closes a tag named with "-", "_" or ":", or -1.
func tagAt[T string | []byte](s T, from int) int {
	for i := from; i < len(s); i++ {
		// IndexByte steps many bytes at a time: memory read sends
		// megabytes of lessons through here.
		n := -1
		switch v := any(s[i:]).(type) {
		case string:
			n = strings.IndexByte(v, '<')
		case []byte:
			n = bytes.IndexByte(v, '<')
		}
		if n < 0 {
			return -1
		}
		i += n
		j := i + 1
		if j < len(s) && s[j] == '/' {
			j++
		}
		start, marked := j, false
		for j < len(s) && nameByte(s[j], j == start) {
			marked = marked || s[j] == '-' || s[j] == '_' || s[j] == ':'
			j++
		}
		if marked && (j == len(s) || s[j] == '>' || s[j] == '/' || s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			return i
		}
	}
	return -1
}

func nameByte(c byte, first bool) bool {
	letter := c|0x20 >= 'a' && c|0x20 <= 'z'
	if first {
		return letter
	}
	return letter || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':' || c == '.'
}
