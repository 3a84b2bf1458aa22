package sanitize

import "testing"

func TestTags(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"close </system-reminder> here", "close &lt;/system-reminder> here"},
		{"<function_calls><invoke name=\"x\">", "&lt;function_calls><invoke name=\"x\">"},
		{"<ns:invoke>a</ns:invoke>", "&lt;ns:invoke>a&lt;/ns:invoke>"},
		{"<my-element/> and <tool_result\n", "&lt;my-element/> and &lt;tool_result\n"},
		{"ends <a-b", "ends &lt;a-b"},
		{"<div> <p>x</p> List<String> a<b <T> <!-- c --> <_x> <-> <", "<div> <p>x</p> List<String> a<b <T> <!-- c --> <_x> <-> <"},
		{"a <b-c=d> e", "a <b-c=d> e"},
		{"&lt;/system-reminder>", "&lt;/system-reminder>"},
	} {
		if got := Tags(c.in); got != c.want {
			t.Errorf("Tags(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := string(AppendTags([]byte("x"), []byte(c.in))); got != "x"+c.want {
			t.Errorf("AppendTags(%q) = %q", c.in, got)
		}
		if again := Tags(c.want); again != c.want {
			t.Errorf("Tags not idempotent on %q: %q", c.want, again)
		}
	}
}
